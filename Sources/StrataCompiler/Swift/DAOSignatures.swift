/// The Swift API that a table's SQLite DAO and its PostgreSQL DAO share: the same methods with
/// the same arguments, results and doc comments (the PostgreSQL ones `async`), and the record a
/// row becomes. ``SwiftRenderer/renderDAO(_:_:)`` and ``SwiftRenderer/renderPostgresDAO(_:_:)``
/// write each method's header here and give only its body, which is how the backend runs it.
struct DAOSignatures {
    let table: Table
    /// The record type.
    let record: String
    /// `throws`, or `async throws` for the PostgreSQL DAO.
    let effects: String
    /// `try`, or `try await` for the PostgreSQL DAO.
    let tryKeyword: String
    /// The key columns, in key order.
    let keyColumns: [Column]
    /// The key's parameters: the name declared and the name the body uses.
    let keyNames: [(declaration: String, reference: String)]

    init(table: Table, isAsync: Bool) {
        self.table = table
        self.record = SwiftNames.identifier(table.recordName)
        self.effects = isAsync ? "async throws" : "throws"
        self.tryKeyword = isAsync ? "try await" : "try"
        self.keyColumns = table.primaryKeyColumns
        self.keyNames = SwiftNames.parameterNames(keyColumns.map(\.name))
    }

    /// `id: Int, …`: the key as parameters.
    var keyParameters: String {
        zip(keyColumns, keyNames).map { column, names in "\(names.declaration): \(column.swiftBaseType(in: table))" }.joined(separator: ", ")
    }

    /// `id: record.id, …`: the key of `record` as arguments.
    var keyArguments: String {
        keyColumns.map { "\(SwiftNames.argumentLabel($0.name)): record.\($0.swiftName)" }.joined(separator: ", ")
    }

    /// The DAO: `doc`, `public struct <name>: <conformance>` with its `conn` (a `connection`)
    /// and `init` (to use inside `scopes`), then what `members` writes.
    func dao(
        _ name: String, conformance: String, connection: String, scopes: String, doc: String, _ out: inout SwiftWriter,
        members: (inout SwiftWriter) -> Void
    ) {
        out.doc(doc)
        out.connectionStruct(
            "\(name): \(conformance)", connection: connection, connDoc: "The connection the DAO runs on.",
            initDoc: "A DAO on `conn`; cheap to create, use it inside \(scopes)."
        ) { out in
            out.line()
            members(&out)
        }
    }

    /// `public func <signature> <effects> -> <result>` with its doc lines (and `@discardableResult`).
    func method(
        _ signature: String, returns result: String, doc: [String], discardable: Bool = false, _ out: inout SwiftWriter,
        body: (inout SwiftWriter) -> Void
    ) {
        for line in doc { out.line("/// " + line) }
        if discardable { out.line("@discardableResult") }
        out.block("public func \(signature) \(effects) -> \(result)", body)
    }

    /// `insert(_ record:)` with `attributes`; when `assigner` (the database) assigns the key of
    /// a record whose key is 0, `assigningKey` inserts such a record and returns.
    func insert(
        assigner: String, attributes: String, _ out: inout SwiftWriter, assigningKey: (inout SwiftWriter, Column) -> Void,
        body: (inout SwiftWriter) -> Void
    ) {
        let auto = table.autoincrementColumn
        out.line("/// Inserts `record` and returns it as stored" + (auto.map { ": when its `\($0.name)` is 0, \(assigner) assigns one." } ?? "."))
        out.line(attributes)
        out.block("public func insert(_ record: \(record)) \(effects) -> \(record)") { out in
            if let auto {
                out.block("if record.\(auto.swiftName) == 0") { out in assigningKey(&out, auto) }
            }
            body(&out)
        }
    }

    /// `upsert(_ record:)`: a record whose assigned key is 0 is inserted.
    func upsert(doc: [String], _ out: inout SwiftWriter, body: (inout SwiftWriter) -> Void) {
        method("upsert(_ record: \(record))", returns: record, doc: doc, discardable: true, &out) { out in
            if let auto = table.autoincrementColumn {
                out.line("if record.\(auto.swiftName) == 0 { return \(tryKeyword) insert(record) }")
            }
            body(&out)
        }
    }

    /// `insert(_ records:)`.
    func insertSequence(_ out: inout SwiftWriter, body: (inout SwiftWriter) -> Void) {
        method(
            "insert(_ records: some Sequence<\(record)>)", returns: "[\(record)]", doc: ["Inserts `records` in order and returns them as stored."],
            discardable: true, &out, body: body)
    }

    /// `update(_ record:)`.
    func update(_ out: inout SwiftWriter, body: (inout SwiftWriter) -> Void) {
        method(
            "update(_ record: \(record))", returns: "Bool", doc: ["Updates the stored row with `record`'s key; false when there is no such row."],
            discardable: true, &out, body: body)
    }

    /// `delete(_ record:)`, then `delete(<key>)`.
    func deletes(_ out: inout SwiftWriter, record recordBody: (inout SwiftWriter) -> Void, key keyBody: (inout SwiftWriter) -> Void) {
        method(
            "delete(_ record: \(record))", returns: "Bool", doc: ["Deletes the stored row with `record`'s key; false when there was none."],
            discardable: true, &out, body: recordBody)
        out.line()
        method("delete(\(keyParameters))", returns: "Bool", doc: ["Deletes the row with this key; false when there was none."], discardable: true, &out, body: keyBody)
    }

    /// `find(<key>)`.
    func find(_ doc: String, _ out: inout SwiftWriter, body: (inout SwiftWriter) -> Void) {
        method("find(\(keyParameters))", returns: "\(record)?", doc: [doc], &out, body: body)
    }

    /// A named query's method: its parameters' names (as ``method(_:returns:doc:discardable:_:body:)``
    /// writes them) go to `body`.
    func query(
        _ query: Query, doc: String, _ out: inout SwiftWriter, body: (inout SwiftWriter, [(declaration: String, reference: String)]) -> Void
    ) {
        let names = SwiftNames.parameterNames(query.parameters.map(\.name))
        let parameters = zip(query.parameters, names).map { parameter, names in
            "\(names.declaration): \(parameter.type.swiftType(in: table))\(parameter.isOptional ? "?" : "")"
        }.joined(separator: ", ")
        let result: String
        switch query.returns {
        case .many: result = "[\(record)]"
        case .one: result = "\(record)?"
        case .count: result = "Int"
        case .exists: result = "Bool"
        }
        out.doc(doc)
        out.block("public func \(SwiftNames.identifier(query.name))(\(parameters)) \(effects) -> \(result)") { out in body(&out, names) }
    }

    /// A navigation method: `<name>(of record:)`, the parent or nil, or the children.
    func navigation(_ navigation: DAOPlan.Navigation, _ out: inout SwiftWriter, body: (inout SwiftWriter) -> Void) {
        let target = SwiftNames.identifier(navigation.target.recordName)
        let name = SwiftNames.identifier(navigation.methodName)
        if navigation.isToParent {
            out.doc("The `\(navigation.target.recordName)` that `\(navigation.boundColumn.name)` refers to, or nil.")
            out.block("public func \(name)(of record: \(record)) \(effects) -> \(target)?", body)
        } else {
            out.doc("The `\(navigation.target.recordName)` records whose `\(navigation.foreignKeyColumn.name)` refers to `record`.")
            out.block("public func \(name)(of record: \(record)) \(effects) -> [\(target)]", body)
        }
    }

    /// `return Record(` with each column's `read` by position, `)`.
    func initializer(_ out: inout SwiftWriter, read: (Column, Int) -> String) {
        out.line("return \(record)(")
        for (index, column) in table.columns.enumerated() {
            let separator = index == table.columns.count - 1 ? "" : ","
            out.line("    \(SwiftNames.argumentLabel(column.name)): \(read(column, index))\(separator)")
        }
        out.line(")")
    }
}
