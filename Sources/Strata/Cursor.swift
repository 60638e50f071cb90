/// Iterates a query's results one at a time without loading them all: for large results.
///
/// ```swift
/// let cursor = try BookDAO(conn).cursor()
/// while let book = try cursor.next() { … }
/// ```
///
/// A cursor owns its own prepared statement and is valid only inside the `read`/`write`
/// closure that made it; it is not `Sendable`.
public final class Cursor<Element> {
    private let statement: Statement
    private let decode: (Statement) throws -> Element
    private var finished = false
    private let generation: Int?

    /// Creates a cursor over a statement whose parameters are bound; `decode` reads one row.
    public init(statement: Statement, decode: @escaping (Statement) throws -> Element) {
        self.statement = statement
        self.decode = decode
        self.generation = statement.connection?.accessGeneration
    }

    /// The next element, or nil at the end. Throws ``StrataError/Kind/misuse`` when called after
    /// the `read`/`write` closure that made the cursor has returned.
    public func next() throws -> Element? {
        guard !finished else { return nil }
        guard statement.connection?.accessGeneration == generation else {
            throw StrataError.misuse("a cursor was used after the read or write closure that made it returned", sql: statement.sql)
        }
        guard try statement.step() else {
            finished = true
            statement.reset()
            return nil
        }
        return try decode(statement)
    }

    /// Calls `body` for each remaining element.
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() { try body(element) }
    }

    /// The remaining elements, in an array.
    public func collect() throws -> [Element] {
        var elements: [Element] = []
        while let element = try next() { elements.append(element) }
        return elements
    }
}
