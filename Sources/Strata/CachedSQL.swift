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
            statement.reset()
            return statement
        }
        return try prepareSlot(sql)
    }

    @usableFromInline
    func prepareSlot(_ sql: CachedSQL) throws -> Statement {
        let statement = try makeStatement(sql: sql.sql)
        if sql.slot >= slots.count {
            slots.append(contentsOf: repeatElement(nil, count: sql.slot + 1 - slots.count))
        }
        slots[sql.slot] = statement
        return statement
    }
}
