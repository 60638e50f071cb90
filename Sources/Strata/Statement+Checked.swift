import CSQLite
import Foundation

/// Column readers that check what SQLite stored: what generated code calls where a column
/// could hold a value of another type.
///
/// A table that is not `STRICT` accepts any value in any column: `'abc'` in an `INTEGER`
/// column stays text, and the unchecked ``Statement/int(at:)`` would read it as 0 (`'12abc'` as
/// 12, 3.9 as 3). These readers throw ``StrataError/Kind/decoding`` naming the table, the
/// column and the value instead. SQLite's own lossless conversions still read: an integral
/// real as an integer, an integer as a real, the text of a number as text.
///
/// The value's storage class is checked once (`sqlite3_column_type`); a value of the declared
/// type takes no other path. A `STRICT` table's `NOT NULL` column cannot hold anything else,
/// so generated code reads those with the unchecked readers.
extension Statement {
    /// Column `index` as an integer; anything but an integer (or a real or text holding exactly
    /// an integer) throws, NULL included.
    @inlinable
    public func int(at index: Int32, table: String, column: String) throws -> Int {
        if sqlite3_column_type(handle, index) == SQLITE_INTEGER { return Int(sqlite3_column_int64(handle, index)) }
        return try convertedInt(at: index, table: table, column: column)
    }

    /// Column `index` as a double; anything but a real or an integer throws, NULL included.
    @inlinable
    public func double(at index: Int32, table: String, column: String) throws -> Double {
        let type = sqlite3_column_type(handle, index)
        if type == SQLITE_FLOAT || type == SQLITE_INTEGER { return sqlite3_column_double(handle, index) }
        return try convertedDouble(at: index, table: table, column: column)
    }

    /// Column `index` as a boolean: 0 or 1 (as stored by Strata); anything else throws.
    @inlinable
    public func bool(at index: Int32, table: String, column: String) throws -> Bool {
        if sqlite3_column_type(handle, index) == SQLITE_INTEGER {
            switch sqlite3_column_int64(handle, index) {
            case 0: return false
            case 1: return true
            default: break
            }
        }
        let value = try convertedInt(at: index, table: table, column: column, expected: "a boolean (0 or 1)")
        guard value == 0 || value == 1 else { throw mismatch(at: index, table: table, column: column, expected: "a boolean (0 or 1)") }
        return value == 1
    }

    /// Column `index` as text; a blob (which may not be UTF-8) or NULL throws. A number reads
    /// as its text.
    @inlinable
    public func string(at index: Int32, table: String, column: String) throws -> String {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_TEXT, SQLITE_INTEGER, SQLITE_FLOAT: return string(at: index)
        default: throw mismatch(at: index, table: table, column: column, expected: "text")
        }
    }

    /// Column `index` as bytes: a blob, or the UTF-8 bytes of text; a number or NULL throws.
    @inlinable
    public func data(at index: Int32, table: String, column: String) throws -> Data {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_BLOB, SQLITE_TEXT: return data(at: index)
        default: throw mismatch(at: index, table: table, column: column, expected: "a blob")
        }
    }

    /// Column `index` as a date (text in Strata's date format); anything else throws.
    @inlinable
    public func date(at index: Int32, table: String, column: String) throws -> Date {
        if let bytes = sqlite3_column_text(handle, index) {
            let count = Int(sqlite3_column_bytes(handle, index))
            if sqlite3_column_type(handle, index) == SQLITE_TEXT,
                let date = DateFormat.date(fromUTF8: UnsafeBufferPointer(start: bytes, count: count))
            {
                return date
            }
        }
        throw mismatch(at: index, table: table, column: column, expected: "a date")
    }

    /// Column `index` as a UUID (canonical text or 16 bytes); anything else throws.
    @inlinable
    public func uuid(at index: Int32, table: String, column: String) throws -> UUID {
        do {
            return try uuid(at: index)
        } catch {
            throw mismatch(at: index, table: table, column: column, expected: "a UUID")
        }
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

    /// An integer from a value that is not stored as one: an integral real in range, or text
    /// that is exactly an integer.
    @usableFromInline
    func convertedInt(at index: Int32, table: String, column: String, expected: String = "an integer") throws -> Int {
        switch databaseValue(at: index) {
        case .integer(let value):
            return Int(value)
        case .real(let value) where value == value.rounded(.towardZero) && value >= -0x1p63 && value < 0x1p63:
            return Int(value)
        case .text(let text):
            if let value = Int(text) { return value }
        default:
            break
        }
        throw mismatch(at: index, table: table, column: column, expected: expected)
    }

    /// A double from a value stored as text that is exactly a finite number.
    @usableFromInline
    func convertedDouble(at index: Int32, table: String, column: String) throws -> Double {
        if case .text(let text) = databaseValue(at: index), let value = Double(text), value.isFinite { return value }
        throw mismatch(at: index, table: table, column: column, expected: "a real number")
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
