import CSQLite
import Foundation

/// Column readers for the types whose text needs parsing — dates, UUIDs, enums, JSON — that
/// name the table and the column when the value is not what the column declares (NULL included).
///
/// Numbers, booleans, text and blobs of a table that is not `STRICT` are read with the
/// `converted…` readers of Statement+Affinity.swift, which convert as SQLite would; those of a
/// `STRICT` table with the unchecked readers, since SQLite enforces their type.
extension Statement {
    /// Column `index` as a date: text in one of the formats ``DateFormat`` reads, or a number
    /// of seconds since 1970 (as other tools store them); anything else throws.
    @inlinable
    public func date(at index: Int32, table: String, column: String) throws -> Date {
        try checked(at: index, table: table, column: column, expected: "a date") { try date(at: index) }
    }

    /// Column `index` as a UUID (canonical text or 16 bytes); anything else throws.
    @inlinable
    public func uuid(at index: Int32, table: String, column: String) throws -> UUID {
        try checked(at: index, table: table, column: column, expected: "a UUID") { try uuid(at: index) }
    }

    /// Column `index` as a `String`-backed enum; a value that is not one of its cases throws.
    @inlinable
    public func enumeration<Value: RawRepresentable>(_ type: Value.Type, at index: Int32, table: String, column: String) throws -> Value
    where Value.RawValue == String {
        if sqlite3_column_type(handle, index) == SQLITE_TEXT, let value = Value(rawValue: string(at: index)) { return value }
        throw mismatch(at: index, table: table, column: column, expected: "a case of \(Value.self)")
    }

    /// Column `index` decoded from JSON text; anything else throws.
    public func json<Value: Decodable>(_ type: Value.Type, at index: Int32, table: String, column: String) throws -> Value {
        guard sqlite3_column_type(handle, index) == SQLITE_TEXT else {
            throw mismatch(at: index, table: table, column: column, expected: "JSON text for \(Value.self)")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(string(at: index).utf8))
        } catch {
            throw mismatch(at: index, table: table, column: column, expected: "JSON for \(Value.self) (\(error))")
        }
    }

    // MARK: - Slow paths
    // The conversions SQLite itself would make live in Statement+Affinity.swift.

    /// What `read` returns; any error it throws becomes the ``mismatch(at:table:column:expected:)`` error.
    @inlinable
    func checked<Value>(at index: Int32, table: String, column: String, expected: String, _ read: () throws -> Value) throws -> Value {
        do {
            return try read()
        } catch {
            throw mismatch(at: index, table: table, column: column, expected: expected)
        }
    }

    /// The decoding error for column `index` holding something other than `expected`.
    @usableFromInline
    func mismatch(at index: Int32, table: String, column: String, expected: String) -> StrataError {
        let value = databaseValue(at: index)
        if value.isNull {
            return StrataError.decoding("\(table).\(column) is NULL but the record declares it non-optional", sql: sql)
        }
        return StrataError.decoding("\(table).\(column) holds \(value), not \(expected)", sql: sql)
    }
}
