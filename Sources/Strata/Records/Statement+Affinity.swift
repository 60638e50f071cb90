import CSQLite
import Foundation

/// Reading columns of tables that are not STRICT (adopted databases, `strict: false`).
///
/// A column of such a table may hold any storage class: SQLite's type affinity converts what it
/// can when a row is written (`'42'` into an INTEGER column becomes 42) and keeps the rest as it
/// was given (`'abc'` stays text). Generated code reads these columns with the methods below,
/// which accept what converts without loss, as SQLite itself would convert it, and throw a
/// decoding error naming the table, the column, the value and the row otherwise — never a
/// silent zero. `key` says which result columns identify the row (bit `i` for column `i`: the
/// primary key's), so the error can name it without costing anything when nothing fails.
/// See sqlite.org/datatype3.html.
extension Statement {
    /// Column `index` as an integer: an integer; a real with no fraction (`3.0`); text that is
    /// exactly an integer (`'42'`, `' 42 '`).
    @inlinable
    public func convertedInt(at index: Int32, table: String, column: String, key: UInt64 = 0) throws -> Int {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return Int(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            let value = sqlite3_column_double(handle, index)
            if value.rounded() == value, let exact = Int(exactly: value) { return exact }
        case SQLITE_TEXT:
            let text = string(at: index).trimmingCharacters(in: .whitespaces)
            if let value = Int(text) { return value }
            if let real = Double(text), real.rounded() == real, let exact = Int(exactly: real) { return exact }
        default:
            break
        }
        throw conversionError(at: index, table: table, column: column, key: key, expected: "an integer")
    }

    /// Column `index` as a double: a real or an integer; text that is a number.
    @inlinable
    public func convertedDouble(at index: Int32, table: String, column: String, key: UInt64 = 0) throws -> Double {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER, SQLITE_FLOAT:
            return sqlite3_column_double(handle, index)
        case SQLITE_TEXT:
            if let value = Double(string(at: index).trimmingCharacters(in: .whitespaces)), value.isFinite { return value }
        default:
            break
        }
        throw conversionError(at: index, table: table, column: column, key: key, expected: "a number")
    }

    /// Column `index` as a boolean: 0 or 1 (an integer, a real or text spelling them).
    @inlinable
    public func convertedBool(at index: Int32, table: String, column: String, key: UInt64 = 0) throws -> Bool {
        if let value = try? convertedInt(at: index, table: table, column: column, key: key), value == 0 || value == 1 {
            return value == 1
        }
        throw conversionError(at: index, table: table, column: column, key: key, expected: "a boolean (0 or 1)")
    }

    /// Column `index` as text: text; a number in the text form SQLite gives it.
    @inlinable
    public func convertedString(at index: Int32, table: String, column: String, key: UInt64 = 0) throws -> String {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_TEXT, SQLITE_INTEGER, SQLITE_FLOAT:
            return string(at: index)
        default:
            throw conversionError(at: index, table: table, column: column, key: key, expected: "text")
        }
    }

    /// Column `index` as bytes: a blob; the UTF-8 bytes of text.
    @inlinable
    public func convertedData(at index: Int32, table: String, column: String, key: UInt64 = 0) throws -> Data {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_BLOB, SQLITE_TEXT:
            return data(at: index)
        default:
            throw conversionError(at: index, table: table, column: column, key: key, expected: "a blob")
        }
    }

    @usableFromInline
    func conversionError(at index: Int32, table: String, column: String, key: UInt64, expected: String) -> StrataError {
        // A NULL reads as what it is: a column the record declares non-optional that SQLite did
        // not enforce (the same words as ``StrataError/unexpectedNull(table:column:)``).
        var message =
            sqlite3_column_type(handle, index) == SQLITE_NULL
            ? StrataError.unexpectedNull(table: table, column: column).message
            : "column \(table).\(column) holds \(describeColumn(index)), not \(expected)"
        let positions = (0..<Int32(64)).filter { key & (1 << UInt64($0)) != 0 && Int($0) < columnCount }
        if !positions.isEmpty {
            message += " (in the row where " + positions.map { "\(columnName(at: $0)) = \(describeColumn($0))" }.joined(separator: " AND ") + ")"
        }
        return StrataError.decoding(message, sql: sql)
    }
}
