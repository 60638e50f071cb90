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
    @usableFromInline let statement: Statement
    @usableFromInline let decode: (Statement) throws -> Element
    @usableFromInline var finished = false
    /// The connection's count of finished closures, and its value when the cursor was made.
    @usableFromInline let access: AccessGeneration?
    @usableFromInline let generation: Int

    /// Creates a cursor over a statement whose parameters are bound; `decode` reads one row.
    public init(statement: Statement, decode: @escaping (Statement) throws -> Element) {
        self.statement = statement
        self.decode = decode
        self.access = statement.connection?.access
        self.generation = access?.generation ?? 0
    }

    /// The next element, or nil at the end. Throws ``StrataError/Kind/misuse`` when called after
    /// the `read`/`write` closure that made the cursor has returned.
    ///
    /// Inlinable, so that the caller's code is specialized for `Element`: one row costs a
    /// comparison, `sqlite3_step` and the decoder, with no generic value-witness copies.
    @inlinable
    public func next() throws -> Element? {
        guard !finished else { return nil }
        guard access?.generation ?? 0 == generation else { try throwClosureEnded() }
        guard try statement.step() else {
            finished = true
            statement.reset()
            return nil
        }
        return try decode(statement)
    }

    @usableFromInline @inline(never)
    func throwClosureEnded() throws -> Never {
        throw StrataError.misuse("a cursor was used after the read or write closure that made it returned", sql: statement.sql)
    }

    /// Calls `body` for each remaining element.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() { try body(element) }
    }

    /// The remaining elements, in an array.
    @inlinable
    public func collect() throws -> [Element] {
        var elements: [Element] = []
        while let element = try next() { elements.append(element) }
        return elements
    }
}
