/// The values bound to a statement's `?` or `:name` parameters: bound, never spliced
/// into the SQL text, and exactly one for each parameter (a missing, extra or unknown argument
/// throws ``StrataError/Kind/misuse`` before the statement runs).
///
/// ```swift
/// try conn.execute(sql: "INSERT INTO t(a, b) VALUES (?, ?)", arguments: [1, "two"])
/// try conn.fetch(sql: "SELECT * FROM t WHERE a = :a", arguments: ["a": 1])
/// ```
public struct StatementArguments: Sendable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    @usableFromInline
    enum Storage: Sendable {
        case positional([(any DatabaseValueConvertible)?])
        case named([(key: String, value: (any DatabaseValueConvertible)?)])
    }

    @usableFromInline var storage: Storage

    /// Positional arguments, for `?` parameters in order.
    public init(_ values: [(any DatabaseValueConvertible)?]) {
        storage = .positional(values)
    }

    /// Named arguments, for `:name` (or `@name`, `$name`) parameters.
    public init(named values: [String: (any DatabaseValueConvertible)?]) {
        storage = .named(values.map { (key: $0.key, value: $0.value) })
    }

    @inlinable
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        storage = .positional(elements)
    }

    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        storage = .named(elements.map { (key: $0.0, value: $0.1) })
    }

    /// True when there are no arguments.
    public var isEmpty: Bool {
        switch storage {
        case .positional(let values): values.isEmpty
        case .named(let values): values.isEmpty
        }
    }
}
