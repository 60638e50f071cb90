/// Which `RecordDAO` method a conditional statement serves.
@usableFromInline
enum ConditionMethod: UInt8, Sendable {
    case fetchAll, fetchOne, count, exists
}

/// A statement of `RecordDAO.fetchAll(where:)`, `fetchOne(where:)`, `count(where:)` or
/// `exists(where:)`, with the parts its SQL was built from.
///
/// These methods used to build their SQL text on every call and look the statement up by it,
/// which concatenates and hashes the whole `SELECT` each time. A connection instead keeps a short
/// list of these entries and compares the parts: the DAO type and method first (one integer
/// each), then the condition and `orderBy` strings, which for a string literal at a call site is
/// a comparison of two words (equal strings that share storage compare equal without reading
/// their bytes). No SQL is built or hashed once the statement is prepared.
@usableFromInline
struct ConditionStatement {
    @usableFromInline let dao: ObjectIdentifier
    @usableFromInline let method: ConditionMethod
    @usableFromInline let condition: String?
    @usableFromInline let orderBy: String?
    @usableFromInline let limit: Int?
    @usableFromInline let offset: Int?
    @usableFromInline let statement: Statement
    /// The parts as plain bits (the strings' representations, not their text): what a lookup
    /// compares first, without retaining or copying anything.
    @usableFromInline let key: ConditionKey

    @usableFromInline
    init(
        dao: ObjectIdentifier, method: ConditionMethod, condition: String?, orderBy: String?, limit: Int?, offset: Int?,
        statement: Statement
    ) {
        self.dao = dao
        self.method = method
        self.condition = condition
        self.orderBy = orderBy
        self.limit = limit
        self.offset = offset
        self.statement = statement
        key = ConditionKey(dao, method, condition, orderBy, limit, offset)
    }

    @inlinable
    func matches(
        _ dao: ObjectIdentifier, _ method: ConditionMethod, _ condition: String?, _ orderBy: String?, _ limit: Int?, _ offset: Int?
    ) -> Bool {
        self.dao == dao && self.method == method && self.limit == limit && self.offset == offset
            && self.condition == condition && self.orderBy == orderBy
    }
}

/// The parts of a conditional statement as plain bits. Two `String`s with the same bits are the
/// same string: the same small string, or the same storage, which the entry keeps alive, so it
/// cannot have been freed and reused for other text. (A literal at a call site always has the
/// same bits.) Equal strings with different bits (built at run time) are found by
/// ``ConditionStatement/matches(_:_:_:_:_:_:)`` instead.
@usableFromInline
struct ConditionKey {
    @usableFromInline let dao: ObjectIdentifier
    @usableFromInline let method: ConditionMethod
    @usableFromInline let limit: Int?
    @usableFromInline let offset: Int?
    @usableFromInline let condition: (UInt64, UInt64)
    @usableFromInline let orderBy: (UInt64, UInt64)

    /// Whether a `String?` is two 64-bit words (every 64-bit platform), so that its bits can be
    /// compared; elsewhere every lookup compares the strings.
    @inlinable
    static var comparesBits: Bool { MemoryLayout<String?>.size == MemoryLayout<(UInt64, UInt64)>.size }

    @inlinable @inline(__always)
    static func bits(_ string: String?) -> (UInt64, UInt64) {
        comparesBits ? unsafeBitCast(string, to: (UInt64, UInt64).self) : (0, 0)
    }

    @inlinable @inline(__always)
    init(_ dao: ObjectIdentifier, _ method: ConditionMethod, _ condition: String?, _ orderBy: String?, _ limit: Int?, _ offset: Int?) {
        self.dao = dao
        self.method = method
        self.limit = limit
        self.offset = offset
        self.condition = Self.bits(condition)
        self.orderBy = Self.bits(orderBy)
    }

    @inlinable @inline(__always)
    func identical(to other: ConditionKey) -> Bool {
        dao == other.dao && method == other.method && limit == other.limit && offset == other.offset
            && condition == other.condition && orderBy == other.orderBy
    }
}

extension Connection {
    /// How many conditional statements a connection keeps; past that the list starts over, so
    /// conditions built at run time (with literals in them) cannot grow it without bound, and a
    /// lookup compares at most this many entries.
    static let conditionStatementLimit = 64

    /// The prepared statement of `dao`'s `method` with these parts; `sql` builds its text the
    /// first time only. Every caller resets the statement when it is done with it (`defer`),
    /// so a statement found here is ready to bind and is not reset a second time.
    ///
    /// Inlinable, and what it compares first is each entry's ``ConditionKey``, plain bits read
    /// where the entry lies: comparing the strings themselves made the compiler copy each entry
    /// out of the array (retaining and releasing its strings and statement, about 190
    /// instructions per lookup), since `String ==` is an opaque call.
    @inlinable
    func conditionStatement(
        _ dao: ObjectIdentifier, _ method: ConditionMethod, where condition: String?, orderBy: String?, limit: Int?, offset: Int?,
        sql: () -> String
    ) throws -> Statement {
        if ConditionKey.comparesBits {
            // The parts' bits only: plain loads and comparisons, no string read, no copy of an
            // entry (whose strings and statement a copy would retain and release).
            let key = ConditionKey(dao, method, condition, orderBy, limit, offset)
            let found = conditionStatements.withUnsafeBufferPointer { entries -> Statement? in
                for index in entries.indices where entries[index].key.identical(to: key) {
                    return entries[index].statement
                }
                return nil
            }
            if let found { return found }
        }
        return try findOrPrepareConditionStatement(dao, method, where: condition, orderBy: orderBy, limit: limit, offset: offset, sql: sql)
    }

    /// Finds the statement ``conditionStatement(_:_:where:orderBy:limit:offset:sql:)`` did not
    /// find by its parts' bits (a condition built at run time) by comparing the strings, or
    /// prepares and keeps it.
    @usableFromInline
    func findOrPrepareConditionStatement(
        _ dao: ObjectIdentifier, _ method: ConditionMethod, where condition: String?, orderBy: String?, limit: Int?, offset: Int?,
        sql: () -> String
    ) throws -> Statement {
        for entry in conditionStatements where entry.matches(dao, method, condition, orderBy, limit, offset) {
            return entry.statement
        }
        let statement = try makeStatement(sql: sql())
        if conditionStatements.count >= Self.conditionStatementLimit { conditionStatements.removeAll(keepingCapacity: true) }
        conditionStatements.append(
            ConditionStatement(
                dao: dao, method: method, condition: condition, orderBy: orderBy, limit: limit, offset: offset, statement: statement))
        return statement
    }
}
