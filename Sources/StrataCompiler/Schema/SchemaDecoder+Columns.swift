import Strata

// Columns: type, key, constraints, references and their actions.
extension SchemaDecoder {
    mutating func decodeColumn(key: YAMLNode, value: YAMLNode, table: String) -> (Column, ColumnSource) {
        let name = key.scalarText ?? ""
        var column = Column(name: name, type: .text, location: key.location)
        var source = ColumnSource(keyLocation: key.location)
        if !SwiftNames.isValidSwiftIdentifier(name) {
            error(key.location, "column name '\(name)' is not a valid Swift identifier",
                  hint: "use letters, digits and '_'; set 'column:' for the SQL name")
        } else if let problem = SwiftNames.propertyNameProblem(name) {
            error(key.location, "column name '\(name)' cannot be a property of \(table): \(problem)",
                  hint: "rename the property and keep the SQL name with 'column: \(name)'")
        }
        let context = "column '\(table).\(name)'"
        if value.scalarText != nil {
            source.type = value
            guard let spec = typeSpec(value, "the type of \(context)") else { return (column, source) }
            column.isOptional = spec.isOptional
            if let simple = Self.simpleType(spec.keyword) {
                column.type = simple
            } else if spec.keyword == "enum" {
                error(value.location, "enum \(context) has no values", hint: "use the long form: { type: enum, values: [a, b] }")
            } else {
                error(value.location, "json \(context) needs a 'swiftType'", hint: "use the long form: { type: json, swiftType: \"[String]\" }")
            }
            return (column, source)
        }
        guard let fields = mapping(value, allowed: Self.columnKeys, in: context) else { return (column, source) }
        source.type = fields["type"]
        source.primaryKey = fields["primaryKey"]
        source.defaultValue = fields["default"]
        source.check = fields["check"]
        source.references = fields["references"]
        source.onDelete = fields["onDelete"]
        source.onUpdate = fields["onUpdate"]
        source.renamedFrom = fields["renamedFrom"]
        source.collate = fields["collate"]

        if let sqlName = string(fields["column"], "'column'") { column.sqlName = sqlName }
        column.doc = string(fields["doc"], "'doc'", allowEmpty: true)
        column.renamedFrom = string(fields["renamedFrom"], "'renamedFrom'")
        column.check = string(fields["check"], "'check'")
        column.sqlType = string(fields["sqlType"], "'sqlType'", allowEmpty: true)
        if let unique = bool(fields["unique"], "'unique'") { column.isUnique = unique }
        if let node = fields["collate"], let name = string(node, "'collate'") {
            column.collation = collation(name, at: node.location, of: context)
        }
        let swiftType = string(fields["swiftType"], "'swiftType'")

        var keyword: String?
        if let typeNode = fields["type"] {
            if let spec = typeSpec(typeNode, "the type of \(context)") {
                keyword = spec.keyword
                column.isOptional = spec.isOptional
            }
        } else {
            error(key.location, "\(context) has no 'type'", hint: "add 'type: text' (or another type)")
        }
        if let optionalNode = fields["optional"], let optional = bool(optionalNode, "'optional'") {
            if column.isOptional && !optional {
                error(optionalNode.location, "'optional: false' contradicts the '?' of the type")
            }
            column.isOptional = column.isOptional || optional
        }

        if let node = fields["primaryKey"] {
            if let flag = node.bool {
                column.primaryKey = flag ? .plain : nil
            } else if node.string == "autoincrement" {
                column.primaryKey = .autoincrement
                if keyword != nil && keyword != "int" {
                    error(node.location, "'autoincrement' needs an int column, \(context) is \(keyword ?? "")")
                }
            } else {
                error(node.location, "'primaryKey' must be true, false or autoincrement, found \(node.kindDescription)",
                      hint: node.string.flatMap { Suggestion.hint(for: $0, in: ["autoincrement"]) })
            }
        }

        let valuesNode = fields["values"]
        switch keyword {
        case "enum":
            var values: [String] = []
            var caseNames: [String: String] = [:]
            if let valuesNode {
                if let items = valuesNode.items {
                    for item in items {
                        guard let text = item.scalarText, !item.isNull else {
                            error(item.location, "enum values must be text, found \(item.kindDescription)")
                            continue
                        }
                        let caseName = SwiftNames.enumCaseName(text)
                        if values.contains(text) {
                            error(item.location, "enum value '\(text)' is listed twice")
                        } else if let earlier = caseNames[caseName] {
                            error(item.location, "enum values '\(earlier)' and '\(text)' of \(context) both become the Swift case '\(caseName)'",
                                  hint: "rename one of the values")
                        } else {
                            caseNames[caseName] = text
                            values.append(text)
                        }
                    }
                    if items.isEmpty { error(valuesNode.location, "enum \(context) has no values") }
                } else {
                    error(valuesNode.location, "'values' must be a list, found \(valuesNode.kindDescription)")
                }
            } else {
                error(fields["type"]?.location ?? key.location, "enum \(context) has no values", hint: "add values: [a, b]")
            }
            var typeName = SwiftNames.enumTypeName(forColumn: name, record: table)
            if let swiftType, let node = fields["swiftType"] {
                if SwiftNames.reservedNestedTypeNames.contains(swiftType) {
                    error(node.location, "enum swiftType '\(swiftType)' cannot name a type nested in the record",
                          hint: "use another name, for example '\(swiftType)Value'")
                } else if swiftType == table {
                    error(node.location, "enum swiftType '\(swiftType)' has the name of its record",
                          hint: "use another name, for example '\(swiftType)Value'")
                } else if SwiftNames.isValidTypeName(swiftType) {
                    typeName = swiftType
                } else {
                    error(node.location, "enum swiftType '\(swiftType)' is not a valid Swift type name")
                }
            }
            column.type = .enumeration(swiftType: typeName, values: values)
        case "json":
            if let swiftType, let node = fields["swiftType"], !SwiftNames.isTypeExpression(swiftType) {
                error(node.location, "json swiftType '\(swiftType)' is not a Swift type",
                      hint: "name a Codable type, for example \"[String]\", \"[String: Int]\" or \"Address\"")
            } else if let swiftType {
                column.type = .json(swiftType: swiftType)
            } else if fields["swiftType"] == nil {
                error(fields["type"]?.location ?? key.location, "json \(context) needs a 'swiftType'",
                      hint: "for example swiftType: \"[String]\"")
            }
        case let keyword?:
            column.type = Self.simpleType(keyword) ?? .text
        case nil:
            break
        }
        if keyword != nil && keyword != "enum", let valuesNode {
            error(valuesNode.location, "'values' applies only to enum columns")
        }
        if keyword != nil && keyword != "enum" && keyword != "json", let node = fields["swiftType"] {
            error(node.location, "'swiftType' applies only to json and enum columns")
        }
        if let node = fields["dateFormat"] {
            let all = DateStorage.allCases.map(\.rawValue)
            if let text = node.string, let storage = DateStorage(rawValue: text) {
                if keyword != nil && keyword != "date" {
                    error(node.location, "'dateFormat' applies only to date columns, \(context) is \(keyword ?? "")",
                          hint: "remove 'dateFormat', or declare the column 'type: date'")
                } else if storage != .iso8601 {
                    column.dateFormat = storage
                }
            } else {
                error(node.location, "'dateFormat' must be one of \(all.joined(separator: ", ")), found \(node.kindDescription)",
                      hint: node.string.flatMap { Suggestion.hint(for: $0, in: all) } ?? "use iso8601 (the default) unless another tool writes the column")
            }
        }

        let typeIsComplete = keyword != "json" || fields["swiftType"] != nil
        if let node = fields["default"], let keyword, typeIsComplete {
            column.defaultValue = decodeDefault(node, type: column.type, keyword: keyword, context: context)
        }

        if let node = fields["references"] {
            if let target = string(node, "'references'") {
                // Resolved against the other tables later; keep the raw text for now.
                column.references = ForeignKey(table: target, column: "")
            }
        }
        for (field, node) in [("onDelete", fields["onDelete"]), ("onUpdate", fields["onUpdate"])] {
            guard let node else { continue }
            let all = ForeignKey.Action.allCases.map(\.rawValue)
            guard let text = node.string, let action = ForeignKey.Action(rawValue: text) else {
                error(node.location, "'\(field)' must be one of \(all.joined(separator: ", ")), found \(node.kindDescription)",
                      hint: node.string.flatMap { Suggestion.hint(for: $0, in: all) })
                continue
            }
            if fields["references"] == nil {
                error(node.location, "'\(field)' needs 'references'")
            }
            if field == "onDelete" { column.references?.onDelete = action } else { column.references?.onUpdate = action }
        }
        return (column, source)
    }
}
