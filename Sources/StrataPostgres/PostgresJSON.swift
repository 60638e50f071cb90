import PostgresNIO

/// A `json` column's value on PostgreSQL: any `Codable` value, stored as `JSONB` (binary format,
/// version byte 1) and read back from `JSONB` or `JSON`.
///
/// postgres-nio would bind a `[String]` as `TEXT[]`, not as JSON; generated DAOs wrap a `json`
/// column's value in this type to bind it and to decode it.
///
/// ```swift
/// var bindings = PostgresBindings()
/// bindings.append(PostgresJSON(["swift", "sql"]))
/// ```
public struct PostgresJSON<Value: Codable & Sendable>: Sendable, PostgresCodable {
    /// The value.
    public var value: Value

    /// Wraps `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// `JSONB`.
    public static var psqlType: PostgresDataType { .jsonb }
    /// Binary.
    public static var psqlFormat: PostgresFormat { .binary }

    /// Writes the JSONB version byte and the JSON text.
    public func encode<Encoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<Encoder>) throws {
        buffer.writeInteger(UInt8(1))
        try context.jsonEncoder.encode(value, into: &buffer)
    }

    /// Reads a `JSONB` (binary or text) or `JSON` value.
    public init<Decoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<Decoder>
    ) throws {
        switch (format, type) {
        case (.binary, .jsonb):
            guard buffer.readInteger(as: UInt8.self) == 1 else { throw PostgresDecodingError.Code.failure }
            value = try context.jsonDecoder.decode(Value.self, from: buffer)
        case (.binary, .json), (.text, .jsonb), (.text, .json):
            value = try context.jsonDecoder.decode(Value.self, from: buffer)
        default:
            throw PostgresDecodingError.Code.typeMismatch
        }
    }
}
