/// How SQLite compares identifiers (table, column, index, trigger and view names): two names
/// are the same when they are equal after folding ASCII `A`–`Z` to `a`–`z`. Every other
/// character compares exactly, byte for byte: `café` and `CAFÉ` are two different names to
/// SQLite, and so are a precomposed `é` and `e` followed by a combining accent.
///
/// Strata compares names with this rule everywhere (schema checks, the migration diff, the
/// planner, the verifier), never with Swift's Unicode-aware `lowercased()` or `==`.
///
/// ```swift
/// SQLName.same("Items", "items")   // true
/// SQLName.same("café", "CAFÉ")     // false: SQLite folds ASCII only
/// ```
package enum SQLName {
    /// A name in comparable form: hashable, equal exactly when SQLite takes two names for the same.
    package struct Key: Hashable, Sendable {
        let bytes: [UInt8]
    }

    /// `name` with ASCII upper-case letters lowered and everything else unchanged (for
    /// canonical text; compare names with ``same(_:_:)`` or ``key(_:)``).
    package static func fold(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            if scalar.value >= 65 && scalar.value <= 90, let lower = Unicode.Scalar(scalar.value + 32) {
                scalars.append(lower)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// The comparable form of `name`.
    package static func key(_ name: String) -> Key {
        Key(bytes: name.utf8.map(folded))
    }

    /// Whether SQLite takes `a` and `b` for the same name.
    package static func same(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case (let x?, let y?):
                if x != y && folded(x) != folded(y) { return false }
            default: return false
            }
        }
    }

    static func folded(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    /// Whether `a` and `b` are spelled exactly alike (byte for byte, not up to Unicode
    /// canonical equivalence as Swift's `==` is).
    package static func identical(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }
}
