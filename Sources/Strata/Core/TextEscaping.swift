/// Scalar-by-scalar escaping, shared by the fingerprint manifest and the compiler's JSON, YAML,
/// Swift-literal and SQL-comment writers (each decides which scalars it escapes and how).
package enum TextEscaping {
    /// `text` with each Unicode scalar replaced by `replacement(scalar)`, or kept as it is when
    /// that is nil.
    package static func mapScalars(_ text: some StringProtocol, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) { result += replaced } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// `text` with the backslash escapes that JSON strings, YAML double-quoted scalars, Swift
    /// string literals and the fingerprint manifest share: `\\`, `\n`, `\r`, `\t`, and `\"` when
    /// `quotes` is true. Every other scalar is replaced by `other(scalar)`, or kept when that is nil.
    package static func backslashEscaped(
        _ text: String, quotes: Bool = true, other: (Unicode.Scalar) -> String? = { _ in nil }
    ) -> String {
        mapScalars(text) { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\"" where quotes: "\\\""
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: other(scalar)
            }
        }
    }
}
