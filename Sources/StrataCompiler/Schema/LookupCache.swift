import Foundation

/// A lookup table over a collection of a value type (names to positions, say), built on first
/// use and shared by the copies of the value that owns it. The owner calls ``reset()`` whenever
/// the collection changes, so a lookup never sees a table built from other contents. It takes
/// no part in equality or hashing: it is derived from what is compared.
///
/// It turns `first { $0.name == name }` scans, which made schema-wide passes quadratic in the
/// number of tables, into dictionary lookups.
struct LookupCache<Index: Sendable>: Hashable, Sendable {
    private var box = Box()

    /// The table, built by `build` when this is the first lookup since the last reset.
    func index(_ build: () -> Index) -> Index {
        box.index(build)
    }

    /// Forgets the table (the collection it was built from changed).
    mutating func reset() {
        box = Box()
    }

    static func == (_: Self, _: Self) -> Bool { true }

    func hash(into _: inout Hasher) {}

    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var built: Index?

        func index(_ build: () -> Index) -> Index {
            lock.lock()
            defer { lock.unlock() }
            if let built { return built }
            CompileWork.countLookupTable()
            let index = build()
            built = index
            return index
        }
    }
}

/// Positions by key, the first position of each key kept (as `firstIndex(where:)` finds it).
func firstPositions<Element, Key: Hashable>(of elements: [Element], key: (Element) -> Key) -> [Key: Int] {
    var positions: [Key: Int] = [:]
    positions.reserveCapacity(elements.count)
    for (position, element) in elements.enumerated() {
        let elementKey = key(element)
        if positions[elementKey] == nil { positions[elementKey] = position }
    }
    return positions
}
