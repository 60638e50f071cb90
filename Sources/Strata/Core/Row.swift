/// One row of an ad-hoc query: column names and the values SQLite returned, with typed access
/// by index or by name.
///
/// ```swift
/// for row in try conn.fetch(sql: "SELECT id, name FROM author") {
///     let id: Int = try row.get(0)
///     let name: String? = try row.get("name")
/// }
/// ```
public struct Row: Sendable, Hashable, CustomStringConvertible {
    /// The column names, in result order.
    public let columnNames: [String]
    /// The values, in result order.
    public let values: [DatabaseValue]

    /// Creates a row.
    public init(columnNames: [String], values: [DatabaseValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// Reads the current row of `statement`.
    public init(statement: Statement) {
        self.init(statement: statement, columnNames: statement.columnNames)
    }

    /// Reads the current row of `statement`, whose column names the caller read once for all
    /// its rows.
    init(statement: Statement, columnNames: [String]) {
        self.columnNames = columnNames
        values = (0..<Int32(columnNames.count)).map { statement.databaseValue(at: $0) }
    }

    /// The number of columns.
    public var count: Int { values.count }

    /// The raw value of column `index` (0-based), or NULL when out of range.
    public subscript(index: Int) -> DatabaseValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The raw value of the column named `name` (case-insensitive, first match), or nil.
    public subscript(name: String) -> DatabaseValue? {
        columnIndex(named: name).map { values[$0] }
    }

    /// The index of the column named `name` (case-insensitive, first match).
    public func columnIndex(named name: String) -> Int? {
        columnNames.firstIndex(of: name)
            ?? columnNames.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// Column `index` decoded as `Value`; ask for an `Optional` to accept NULL.
    public func get<Value: DatabaseValueConvertible>(_ index: Int, as type: Value.Type = Value.self) throws -> Value {
        guard values.indices.contains(index) else {
            throw StrataError.misuse("column index \(index) is out of range (the row has \(values.count) columns)")
        }
        do {
            return try Value.decode(from: values[index])
        } catch let error as StrataError {
            throw StrataError.decoding("column \(index) (\(columnNames[index])): \(error.message)")
        }
    }

    /// The column named `name` decoded as `Value`; ask for an `Optional` to accept NULL.
    public func get<Value: DatabaseValueConvertible>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        guard let index = columnIndex(named: name) else {
            throw StrataError.misuse("no column named \(name) (the row has \(columnNames.joined(separator: ", ")))")
        }
        return try get(index)
    }

    public var description: String {
        "[" + zip(columnNames, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }
}

import Foundation
