/// The keys the schema loader accepts, by where they appear in a schema file: the one list that
/// `schemas/strata.schema.json` (the JSON Schema editors read) is tested against, so the two
/// cannot drift apart.
///
/// ```swift
/// SchemaKeys.accepted["tables.*.indexes[]"]   // ["columns", "expression", "name", "unique", "where"]
/// ```
package enum SchemaKeys {
    /// Key lists by location: `""` is the file itself, `a.b` a mapping under a fixed key, `*` any
    /// name (a table, a column, a query) and `[]` any item of a list. Every mapping whose keys
    /// the decoder checks has an entry here; the decoder reads its lists from the same constants.
    package static let accepted: [String: [String]] = [
        "": SchemaDecoder.topLevelKeys,
        "options": SchemaDecoder.optionKeys,
        "tables.*": SchemaDecoder.tableKeys,
        "tables.*.columns.*": SchemaDecoder.columnKeys,
        "tables.*.indexes[]": SchemaDecoder.indexKeys,
        "tables.*.search": SchemaDecoder.searchKeys,
        "tables.*.queries.*": SchemaDecoder.queryKeys,
        "queries.*": SchemaDecoder.sqlQueryKeys,
        "queries.*.sql": SchemaDecoder.sqlDialectKeys,
    ]

    /// The values of the schema language's fixed vocabularies, by the key that takes them
    /// (`"type"` lists the type keywords; a trailing `?` is allowed on top of them).
    package static let acceptedValues: [String: [String]] = [
        "type": ColumnType.keywords,
        "onDelete": ForeignKey.Action.allCases.map(\.rawValue),
        "onUpdate": ForeignKey.Action.allCases.map(\.rawValue),
        "returns": Query.Returns.allCases.map(\.rawValue),
        "primaryKey": ["autoincrement"],
        "dialects": Dialect.allCases.map(\.rawValue),
    ]
}
