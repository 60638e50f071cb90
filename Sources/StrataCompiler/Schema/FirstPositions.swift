/// Positions by key, the first position of each key kept (as `firstIndex(where:)` finds it):
/// the name lookups of ``Schema`` and ``DatabaseSchema``, which turn `first { $0.name == name }`
/// scans (quadratic over a schema-wide pass) into dictionary lookups.
func firstPositions<Element, Key: Hashable>(of elements: [Element], key: (Element) -> Key) -> [Key: Int] {
    var positions: [Key: Int] = [:]
    positions.reserveCapacity(elements.count)
    for (position, element) in elements.enumerated() {
        let elementKey = key(element)
        if positions[elementKey] == nil { positions[elementKey] = position }
    }
    return positions
}
