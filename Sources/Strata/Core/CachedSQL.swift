/// SQL text that generated code runs again and again: each connection prepares it once and
/// finds the prepared statement again by a slot number, not by hashing the text.
///
/// Looking a statement up by its SQL text hashes every byte of the text on every call (about
/// 1,000 instructions for a 100-byte `SELECT`, 10% of a point lookup by key). A `CachedSQL`
/// gets a slot number once, when it is created, and ``Connection/cachedStatement(_:)`` indexes
/// an array with it. Keep instances in `static let` constants, as generated code does: each
/// instance takes a slot for the life of the process.
///
/// ```swift
/// static let findSQL: CachedSQL = #"SELECT "id", "name" FROM "authors" WHERE "id" = ?"#
/// let statement = try conn.cachedStatement(Self.findSQL)
/// ```
public final class CachedSQL: Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The SQL text.
    public let sql: String
    /// This SQL's index in every connection's slot array.
    @usableFromInline let slot: Int

    private static let nextSlot = Protected(0)

    /// SQL that connections cache in a slot of their own.
    public init(_ sql: String) {
        self.sql = sql
        slot = CachedSQL.nextSlot.withLock { next in
            defer { next += 1 }
            return next
        }
    }

    public convenience init(stringLiteral sql: String) {
        self.init(sql)
    }

    public var description: String { sql }
}

extension Connection {
    /// The connection's prepared statement for `sql`, prepared on first use and reset for reuse:
    /// the fastest path, which generated code uses. Bind every parameter before stepping.
    @inlinable
    public func cachedStatement(_ sql: CachedSQL) throws -> Statement {
        if sql.slot < slots.count, let statement = slots[sql.slot] {
            let statement = statement.takeUnretainedValue()
            statement.reset()
            return statement
        }
        return try prepareSlot(sql)
    }

    /// Runs `body` with the connection's prepared statement for `sql`, prepared on first use and
    /// reset for reuse, and returns what `body` returns: what generated writes use.
    ///
    /// Unlike ``cachedStatement(_:)``, it does not retain the statement for the caller (a retain
    /// and a release per call, about 40 instructions of an insert that raw C code does not
    /// run): the connection keeps the statement alive while `body` runs, since
    /// ``clearStatementCache()`` only lets go of it when the `read`/`write` closure ends. Do not
    /// keep the statement past `body`.
    ///
    /// ```swift
    /// static let insertSQL: CachedSQL = "INSERT INTO tags (name) VALUES (?)"
    /// try conn.withCachedStatement(Self.insertSQL) { statement in
    ///     try statement.bind("swift", at: 1)
    ///     try statement.run()
    /// }
    /// ```
    @inlinable
    public func withCachedStatement<Result>(_ sql: CachedSQL, _ body: (Statement) throws -> Result) throws -> Result {
        // One call of `body`, so that the compiler inlines it here.
        let lent: Unmanaged<Statement>
        if sql.slot < slots.count, let statement = slots[sql.slot] {
            statement._withUnsafeGuaranteedRef { $0.reset() }
            lent = statement
        } else {
            // The slot array keeps the new statement alive.
            lent = .passUnretained(try prepareSlot(sql))
        }
        return try lent._withUnsafeGuaranteedRef(body)
    }

    @usableFromInline
    func prepareSlot(_ sql: CachedSQL) throws -> Statement {
        let statement = try makeStatement(sql: sql.sql)
        if sql.slot >= slots.count {
            slots.append(contentsOf: repeatElement(nil, count: sql.slot + 1 - slots.count))
        }
        slots[sql.slot] = .passRetained(statement)
        return statement
    }

    /// Lets go of every slot's statement: at once when no `read`/`write` closure is running
    /// (`deinit`), else when the closure ends (``clearStatementCache()``), since a
    /// ``withCachedStatement(_:_:)`` body may still be using one.
    func releaseSlots(now: Bool) {
        retiredSlots.append(contentsOf: slots.compactMap { $0 })
        slots.removeAll()
        if now { releaseRetiredSlots() }
    }

    /// Releases the statements ``releaseSlots(now:)`` set aside.
    func releaseRetiredSlots() {
        for slot in retiredSlots { slot.release() }
        retiredSlots.removeAll()
    }
}
