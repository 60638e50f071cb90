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
    }

    @inlinable
    func matches(
        _ dao: ObjectIdentifier, _ method: ConditionMethod, _ condition: String?, _ orderBy: String?, _ limit: Int?, _ offset: Int?
    ) -> Bool {
        self.dao == dao && self.method == method && self.limit == limit && self.offset == offset
            && self.condition == condition && self.orderBy == orderBy
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
    /// Inlinable, and the entries are compared where they lie in the array (through its
    /// buffer): copying an entry out to compare it retains and releases its strings and its
    /// statement, about 330 instructions per lookup.
    @inlinable
    func conditionStatement(
        _ dao: ObjectIdentifier, _ method: ConditionMethod, where condition: String?, orderBy: String?, limit: Int?, offset: Int?,
        sql: () -> String
    ) throws -> Statement {
        let found = conditionStatements.withUnsafeBufferPointer { entries -> Statement? in
            for index in entries.indices where entries[index].matches(dao, method, condition, orderBy, limit, offset) {
                return entries[index].statement
            }
            return nil
        }
        if let found { return found }
        return try prepareConditionStatement(dao, method, where: condition, orderBy: orderBy, limit: limit, offset: offset, sql: sql)
    }

    /// Prepares and keeps the statement ``conditionStatement(_:_:where:orderBy:limit:offset:sql:)``
    /// did not find.
    @usableFromInline
    func prepareConditionStatement(
        _ dao: ObjectIdentifier, _ method: ConditionMethod, where condition: String?, orderBy: String?, limit: Int?, offset: Int?,
        sql: () -> String
    ) throws -> Statement {
        let statement = try makeStatement(sql: sql())
        if conditionStatements.count >= Self.conditionStatementLimit { conditionStatements.removeAll(keepingCapacity: true) }
        conditionStatements.append(
            ConditionStatement(
                dao: dao, method: method, condition: condition, orderBy: orderBy, limit: limit, offset: offset, statement: statement))
        return statement
    }
}
