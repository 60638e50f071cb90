/// One node of a YAML document, with the position where it starts.
///
/// Only what a schema file needs: scalars keep their style (so `"true"` stays a string while
/// `true` is a boolean), mappings keep their keys in order with the keys' own positions.
package struct YAMLNode: Hashable, Sendable {
    /// How a scalar was written.
    package enum ScalarStyle: Hashable, Sendable {
        /// Unquoted: may be a null, a boolean or a number.
        case plain
        /// Quoted, a block scalar (`|`, `>`), or tagged `!!str`: always a string.
        case quoted
    }

    /// One key/value pair of a mapping.
    package struct Pair: Hashable, Sendable {
        /// The key node (always a scalar).
        package var key: YAMLNode
        /// The value node.
        package var value: YAMLNode
    }

    /// What the node holds.
    package enum Kind: Hashable, Sendable {
        /// A scalar and how it was written.
        case scalar(String, ScalarStyle)
        /// A mapping, in document order.
        case mapping([Pair])
        /// A sequence.
        case sequence([YAMLNode])
    }

    /// What the node holds.
    package var kind: Kind
    /// Where the node starts.
    package var location: SourceLocation

    /// Creates a node.
    package init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }
}

extension YAMLNode {
    /// The text of a scalar, whatever its style.
    package var scalarText: String? {
        if case .scalar(let text, _) = kind { return text }
        return nil
    }

    /// A string: a quoted scalar, or a plain scalar that is not a null, boolean or number.
    package var string: String? {
        guard case .scalar(let text, let style) = kind else { return nil }
        if style == .quoted { return text }
        if isNull || bool != nil || int != nil || double != nil { return nil }
        return text
    }

    /// A plain `null`, `~`, `Null`, `NULL` or empty scalar.
    package var isNull: Bool {
        guard case .scalar(let text, .plain) = kind else { return false }
        switch text {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// A plain `true` or `false` (also `True`, `TRUE`, …; YAML 1.2 core schema).
    package var bool: Bool? {
        guard case .scalar(let text, .plain) = kind else { return nil }
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// A plain integer (decimal, `0x` hex or `0o` octal, optional sign).
    package var int: Int? {
        guard case .scalar(let text, .plain) = kind, !text.isEmpty else { return nil }
        var body = Substring(text)
        var negative = false
        if body.first == "-" || body.first == "+" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        guard let first = body.first, first.isASCII, first.isNumber else { return nil }
        // The magnitude is read unsigned so that -9223372036854775808 (Int.min, whose
        // magnitude is one more than Int.max) is accepted.
        let magnitude: UInt64?
        if body.hasPrefix("0x") {
            magnitude = UInt64(body.dropFirst(2), radix: 16)
        } else if body.hasPrefix("0o") {
            magnitude = UInt64(body.dropFirst(2), radix: 8)
        } else {
            guard body.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            magnitude = UInt64(body)
        }
        guard let magnitude else { return nil }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return Int.min }
            return magnitude <= UInt64(Int64.max) ? -Int(magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int(magnitude) : nil
    }

    /// A plain floating-point number (also an integer); `.inf` and `.nan` are not accepted.
    package var double: Double? {
        if let int { return Double(int) }
        guard case .scalar(let text, .plain) = kind, !text.isEmpty else { return nil }
        // Only ASCII digits, signs, `.` and exponents (byte by byte: each is one character), with a digit.
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard text.utf8.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            text.utf8.contains(where: isDigit)
        else { return nil }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The pairs of a mapping.
    package var pairs: [Pair]? {
        if case .mapping(let pairs) = kind { return pairs }
        return nil
    }

    /// The items of a sequence.
    package var items: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    /// The value for a scalar key of a mapping.
    package subscript(key: String) -> YAMLNode? {
        pairs?.first { $0.key.scalarText == key }?.value
    }

    /// A short description of the node's kind for diagnostics: "a mapping", "a list", "'text'".
    package var kindDescription: String {
        switch kind {
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .scalar(let text, let style):
            if style == .plain && text.isEmpty { "nothing" } else { "'\(text)'" }
        }
    }
}
