import Strata

/// SQLite's built-in collations, as the schema language spells them (`collate:`).
package enum Collation {
    /// `binary`, `nocase`, `rtrim`.
    package static let builtIn = ["binary", "nocase", "rtrim"]

    /// Whether `name` is one of SQLite's built-in collations (names compare case-insensitively).
    package static func isBuiltIn(_ name: String) -> Bool {
        builtIn.contains(SQLName.fold(name))
    }

    /// `name` as DDL writes it: `NOCASE` for a built-in collation, the name itself otherwise
    /// (quoted when it is not a plain identifier).
    package static func sql(_ name: String) -> String {
        if isBuiltIn(name) { return name.uppercased() }
        return SchemaDecoder.isCollationName(name) ? name : SQLQuoting.identifier(name)
    }
}
