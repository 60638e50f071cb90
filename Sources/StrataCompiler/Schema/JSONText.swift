import Strata

/// Compact JSON text for a YAML node (a `json` column's default).
enum JSONText {
    static func render(_ node: YAMLNode) -> String {
        switch node.kind {
        case .mapping(let pairs):
            return "{" + pairs.map { quote($0.key.scalarText ?? "") + ":" + render($0.value) }.joined(separator: ",") + "}"
        case .sequence(let items):
            return "[" + items.map(render).joined(separator: ",") + "]"
        case .scalar(let text, let style):
            if style == .quoted { return quote(text) }
            if node.isNull { return "null" }
            if let bool = node.bool { return bool ? "true" : "false" }
            if let int = node.int { return String(int) }
            if let double = node.double { return String(double) }
            return quote(text)
        }
    }

    static func quote(_ text: String) -> String {
        let escaped = TextEscaping.backslashEscaped(text) { scalar in
            guard scalar.value < 0x20 else { return nil }
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        return "\"" + escaped + "\""
    }
}
