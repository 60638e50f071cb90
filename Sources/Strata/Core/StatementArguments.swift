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

/// The layout of a positional argument, `(any DatabaseValueConvertible)?`, in memory, as the
/// Swift ABI fixes it (docs/ABI/TypeLayout.rst in the Swift repository, "Existential Container
/// Layout"): a three-word inline buffer, then the value's type metadata, then its witness
/// table. A value of a type that fits the buffer (`Int`, `Double`, `String`…) lies at its
/// start. `Statement` reads the type of an argument there to bind the common ones directly.
@usableFromInline
enum ArgumentLayout {
    /// True when an argument has exactly that layout (five words): otherwise arguments are
    /// bound through `DatabaseValueConvertible` only.
    @inlinable
    static var isStandard: Bool {
        MemoryLayout<(any DatabaseValueConvertible)?>.size == 5 * MemoryLayout<UnsafeRawPointer>.size
            && MemoryLayout<String>.size <= typeOffset && MemoryLayout<Int>.size == MemoryLayout<Int64>.size
    }

    /// Where the type metadata lies: after the three-word buffer.
    @inlinable
    static var typeOffset: Int { 3 * MemoryLayout<UnsafeRawPointer>.size }

    /// The type metadata of `type`, as the container holds it.
    @inlinable @inline(__always)
    static func metadata(of type: Any.Type) -> UnsafeRawPointer? {
        unsafeBitCast(type, to: UnsafeRawPointer.self)
    }
}
