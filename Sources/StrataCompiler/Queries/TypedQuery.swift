import Strata
/// The result of the query analysis for one top-level query: what the generated method takes
/// and returns. Built by ``QueryAnalyzer`` from a ``SQLQuery`` and the ``Schema``; rendered by
/// the Swift renderer.
package struct TypedQuery: Hashable, Sendable {
    /// A Swift value type of a result column or parameter.
    package struct ValueType: Hashable, Sendable {
        /// The schema language type (enum and json keep their Swift type).
        package var type: ColumnType
        /// For an enum, and json that may use the record's enums: the record that declares it
        /// (`Book` for `Book.Format`).
        package var enumOwner: String?
        /// Whether the value may be NULL.
        package var isOptional = false
        /// For a date read from or compared with a `dateFormat:` column: that format.
        package var dateFormat: DateStorage?
    }

    /// One result column.
    package struct ResultColumn: Hashable, Sendable {
        /// The name SQLite gives the column (the `AS` alias first).
        package var name: String
        /// The Swift property name (lowerCamelCase of `name`).
        package var propertyName: String
        /// The Swift type.
        package var valueType: ValueType
    }

    /// One `:name` parameter, in order of first appearance.
    package struct Parameter: Hashable, Sendable {
        /// The name after the colon, as written (`new_queue`).
        package var name: String
        /// The Swift argument label: `name` in lowerCamelCase (`newQueue`), the same rule as
        /// result columns' property names.
        package var label: String
        /// The type (of each element, for a list).
        package var valueType: ValueType
        /// `"[int]"`: an array expanded into `IN (…)`.
        package var isList: Bool
    }

    /// What the method gives back per row.
    package enum Shape: Hashable, Sendable {
        /// A generated row struct with one property per column.
        case rows
        /// A table's record type (its record name).
        case record(String)
        /// The single column's value.
        case value
        /// A write without RETURNING: the number of rows changed.
        case changes
    }

    /// The method name.
    package var name: String
    /// The statement.
    package var sql: String
    /// `doc:`.
    package var doc: String?
    /// `returns:`.
    package var returns: Query.Returns
    /// The statement yields exactly one row whatever the data (a SELECT without FROM, or an
    /// aggregate without GROUP BY): `returns: one` gives the row itself, not an optional.
    package var exactlyOneRow: Bool = false
    /// The result columns, in order (empty for `.changes`).
    package var columns: [ResultColumn]
    /// The parameters, in order of first appearance.
    package var parameters: [Parameter]
    /// The result shape.
    package var shape: Shape
    /// Whether the statement only reads.
    package var isReadOnly: Bool
    /// Where each `:name` is written in `sql`, in order, with the parameter's index in
    /// `parameters`: a query with a list parameter numbers its placeholders at run time.
    package var occurrences: [Occurrence]

    /// One `:name` in the SQL text.
    package struct Occurrence: Hashable, Sendable {
        /// The UTF-8 byte range of `:name` in `sql`.
        package var range: Range<Int>
        /// The index of the parameter in ``TypedQuery/parameters``.
        package var parameter: Int
    }
}

extension TypedQuery.Parameter {
    /// A parameter labelled by its name (a table query's: its name is a Swift identifier).
    package init(name: String, type: ColumnType, isOptional: Bool = false, dateFormat: DateStorage? = nil) {
        var valueType = TypedQuery.ValueType(type: type, isOptional: isOptional)
        valueType.dateFormat = dateFormat
        self.init(name: name, label: name, valueType: valueType, isList: false)
    }

    /// The type (of each element, for a list).
    package var type: ColumnType { valueType.type }
    /// Whether `nil` may be passed.
    package var isOptional: Bool { valueType.isOptional }
    /// The `dateFormat:` of the date column the parameter is compared with, when not the
    /// default: the generated code binds the date in that format.
    package var dateFormat: DateStorage? {
        get { valueType.dateFormat }
        set { valueType.dateFormat = newValue }
    }
}
