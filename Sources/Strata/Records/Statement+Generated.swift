import Foundation

/// Typed helpers generated code calls for enum and JSON columns.
extension Statement {
    /// Column `index` as a `String`-backed enum; an unknown value is a decoding error.
    @inlinable
    public func enumeration<Value: RawRepresentable>(_ type: Value.Type, at index: Int32) throws -> Value
    where Value.RawValue == String {
        let raw = string(at: index)
        guard let value = Value(rawValue: raw) else {
            throw StrataError.decoding("column \(columnName(at: index)) holds '\(raw)', not a case of \(Value.self)", sql: sql)
        }
        return value
    }

    /// Binds a `String`-backed enum by its raw value.
    @inlinable
    public func bind<Value: RawRepresentable>(enumeration value: Value, at index: Int32) throws where Value.RawValue == String {
        try bind(value.rawValue, at: index)
    }

    /// Binds a value as JSON text (keys sorted, so equal values store equal text).
    public func bind<Value: Encodable>(json value: Value, at index: Int32) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw StrataError.decoding("cannot encode \(Value.self) as JSON: \(error)", sql: sql)
        }
        try bind(String(decoding: data, as: UTF8.self), at: index)
    }

    /// Column `index` decoded from JSON text.
    public func json<Value: Decodable>(_ type: Value.Type, at index: Int32) throws -> Value {
        let text = string(at: index)
        do {
            return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            throw StrataError.decoding("column \(columnName(at: index)) does not hold JSON for \(Value.self): \(error)", sql: sql)
        }
    }

    /// The name of parameter `index` (1-based) with its prefix (`:isbn`), or nil for `?`.
    public func parameterName(at index: Int32) -> String? {
        sqlite3_bind_parameter_name(handle, index).map { String(cString: $0) }
    }
}

import CSQLite

extension Statement {
    /// Throws a decoding error naming `table` and `column` when column `index` is NULL. (Generated
    /// code reads the columns of tables that are not STRICT with the `converted…` readers, such
    /// as ``convertedInt(at:table:column:key:)``, which refuse NULL and values of other types.)
    @inlinable
    public func requireNotNull(at index: Int32, table: String, column: String) throws {
        if isNull(at: index) { throw StrataError.unexpectedNull(table: table, column: column) }
    }
}
