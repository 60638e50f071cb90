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
        return try convertedInt(at: index, table: table, column: column, key: 0)
    }

    /// Column `index` as a double; anything but a real or an integer throws, NULL included.
    @inlinable
    public func double(at index: Int32, table: String, column: String) throws -> Double {
        let type = sqlite3_column_type(handle, index)
        if type == SQLITE_FLOAT || type == SQLITE_INTEGER { return sqlite3_column_double(handle, index) }
        return try convertedDouble(at: index, table: table, column: column, key: 0)
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
        return try convertedBool(at: index, table: table, column: column, key: 0)
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

    /// Column `index` as a date: text in one of the formats ``DateFormat`` reads, or a number
    /// of seconds since 1970 (as other tools store them); anything else throws.
    @inlinable
    public func date(at index: Int32, table: String, column: String) throws -> Date {
        do {
            return try date(at: index)
        } catch {
            throw mismatch(at: index, table: table, column: column, expected: "a date")
        }
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
    // The conversions SQLite itself would make live in Statement+Affinity.swift.

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
