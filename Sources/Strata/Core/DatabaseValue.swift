import Foundation

/// A value as SQLite stores it: NULL, a 64-bit integer, a double, text or a blob.
public enum DatabaseValue: Sendable, Hashable, CustomStringConvertible {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer (storage class INTEGER).
    case integer(Int64)
    /// An IEEE 754 double (storage class REAL).
    case real(Double)
    /// UTF-8 text (storage class TEXT).
    case text(String)
    /// Bytes (storage class BLOB).
    case blob(Data)

    /// True for NULL.
    public var isNull: Bool { self == .null }

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): "\(value)"
        case .real(let value): "\(value)"
        case .text(let value): "'\(value)'"
        case .blob(let value): "<blob of \(value.count) bytes>"
        }
    }
}

/// A Swift type that can be bound to a statement parameter and read from a result column.
///
/// Strata provides it for `Int`, `Int64`, `Double`, `Bool`, `String`, `Data`, `Date`, `UUID`,
/// ``DatabaseValue`` and `Optional` of any of them. Conform your own types (say, a
/// `RawRepresentable` enum) to use them as arguments or in ``Row``.
public protocol DatabaseValueConvertible: Sendable {
    /// Binds the value to parameter `index` (1-based).
    func bind(to statement: Statement, at index: Int32) throws
    /// Reads the value from an SQLite value; throws ``StrataError/Kind/decoding`` when it
    /// does not fit (a NULL included, unless the type is `Optional`).
    static func decode(from value: DatabaseValue) throws -> Self
}

extension DatabaseValueConvertible {
    static func mismatch(_ value: DatabaseValue) -> StrataError {
        .decoding("\(value) is not a \(Self.self)")
    }
}

extension Int: DatabaseValueConvertible {
    @inlinable public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
    public static func decode(from value: DatabaseValue) throws -> Int {
        switch value {
        case .integer(let v): return Int(v)
        case .real(let v) where v == v.rounded() && abs(v) < 9.2e18: return Int(v)
        default: throw mismatch(value)
        }
    }
}

extension Int64: DatabaseValueConvertible {
    @inlinable public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
    public static func decode(from value: DatabaseValue) throws -> Int64 { Int64(try Int.decode(from: value)) }
}

extension Double: DatabaseValueConvertible {
    @inlinable public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
    public static func decode(from value: DatabaseValue) throws -> Double {
        switch value {
        case .real(let v): return v
        case .integer(let v): return Double(v)
        default: throw mismatch(value)
        }
    }
}

extension Bool: DatabaseValueConvertible {
    @inlinable public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
    public static func decode(from value: DatabaseValue) throws -> Bool {
        switch value {
        case .integer(let v): return v != 0
        case .real(let v): return v != 0
        default: throw mismatch(value)
        }
    }
}

extension String: DatabaseValueConvertible {
    @inlinable public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
    public static func decode(from value: DatabaseValue) throws -> String {
        switch value {
        case .text(let v): return v
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .blob(let v): return String(decoding: v, as: UTF8.self)
        case .null: throw mismatch(value)
        }
    }
}

extension Data: DatabaseValueConvertible {
    @inlinable public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
    public static func decode(from value: DatabaseValue) throws -> Data {
        switch value {
        case .blob(let v): return v
        case .text(let v): return Data(v.utf8)
        default: throw mismatch(value)
        }
    }
}

extension Date: DatabaseValueConvertible {
    @inlinable public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
    public static func decode(from value: DatabaseValue) throws -> Date {
        switch value {
        case .text(let text): if let date = DateFormat.date(from: text) { return date }
        case .integer(let seconds): return Date(timeIntervalSince1970: Double(seconds))
        case .real(let seconds): return Date(timeIntervalSince1970: seconds)
        default: break
        }
        throw mismatch(value)
    }
}

extension UUID: DatabaseValueConvertible {
    @inlinable public func bind(to statement: Statement, at index: Int32) throws { try statement.bind(self, at: index) }
    public static func decode(from value: DatabaseValue) throws -> UUID {
        switch value {
        case .text(let text):
            if let uuid = UUID(uuidString: text) { return uuid }
        case .blob(let data) where data.count == 16:
            if let uuid = data.withUnsafeBytes({ UUIDFormat.uuid(fromRawBytes: $0.bindMemory(to: UInt8.self)) }) {
                return uuid
            }
        default:
            break
        }
        throw mismatch(value)
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    public func bind(to statement: Statement, at index: Int32) throws {
        switch self {
        case .null: try statement.bindNull(at: index)
        case .integer(let v): try statement.bind(v, at: index)
        case .real(let v): try statement.bind(v, at: index)
        case .text(let v): try statement.bind(v, at: index)
        case .blob(let v): try statement.bind(v, at: index)
        }
    }
    public static func decode(from value: DatabaseValue) throws -> DatabaseValue { value }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public func bind(to statement: Statement, at index: Int32) throws {
        if let self { try self.bind(to: statement, at: index) } else { try statement.bindNull(at: index) }
    }
    public static func decode(from value: DatabaseValue) throws -> Wrapped? {
        value.isNull ? nil : try Wrapped.decode(from: value)
    }
}

extension RawRepresentable where Self: DatabaseValueConvertible, RawValue: DatabaseValueConvertible {
    /// Binds the raw value.
    public func bind(to statement: Statement, at index: Int32) throws { try rawValue.bind(to: statement, at: index) }
    /// Decodes the raw value, then the case; an unknown raw value is a decoding error.
    public static func decode(from value: DatabaseValue) throws -> Self {
        let raw = try RawValue.decode(from: value)
        guard let result = Self(rawValue: raw) else {
            throw StrataError.decoding("\(value) is not a case of \(Self.self)")
        }
        return result
    }
}
