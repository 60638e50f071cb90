import CSQLite
import Foundation

/// How a `date` column stores its instants (`dateFormat:` in a schema): Strata's own text
/// (``DateFormat``) or one of the numbers other tools write.
///
/// ```swift
/// DateStorage.unixMilliseconds.number(for: Date(timeIntervalSince1970: 1.5))  // 1500
/// DateStorage.referenceDate.date(fromNumber: 0)  // 2001-01-01 00:00:00 UTC
/// ```
public enum DateStorage: String, Sendable, CaseIterable {
    /// `YYYY-MM-DD HH:MM:SS.SSS` text in UTC (the default): TEXT.
    case iso8601
    /// Whole seconds since 1970-01-01 UTC: INTEGER.
    case unixSeconds
    /// Whole milliseconds since 1970-01-01 UTC: INTEGER.
    case unixMilliseconds
    /// Days since noon UTC, 24 November 4714 BC (SQLite's `julianday()`): REAL.
    case julianDay
    /// Seconds since 2001-01-01 UTC (Core Data's and Foundation's reference date): REAL.
    case referenceDate

    /// Seconds from 1970-01-01 to the Julian day epoch.
    @usableFromInline static let julianDayEpoch: Double = -210_866_760_000
    /// Seconds from 1970-01-01 to 2001-01-01.
    @usableFromInline static let referenceEpoch: Double = 978_307_200

    /// The SQLite type a column of this format is declared with.
    public var sqlType: String {
        switch self {
        case .iso8601: "TEXT"
        case .unixSeconds, .unixMilliseconds: "INTEGER"
        case .julianDay, .referenceDate: "REAL"
        }
    }

    /// Whether the format stores an integer (``unixSeconds``, ``unixMilliseconds``).
    package var isInteger: Bool { self == .unixSeconds || self == .unixMilliseconds }

    /// The SQL expression of the current time in this format (for `default: now`). Sub-second
    /// formats go through `julianday('now')` (millisecond precision), which SQLite before 3.42
    /// (no `unixepoch('subsec')`) also has.
    package var nowSQL: String {
        switch self {
        case .iso8601: "(strftime('%Y-%m-%d %H:%M:%f', 'now'))"
        case .unixSeconds: "(unixepoch())"
        case .unixMilliseconds: "(CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER))"
        case .julianDay: "(julianday())"
        case .referenceDate: "((julianday('now') - 2440587.5) * 86400 - 978307200)"
        }
    }

    /// The number a numeric format stores for `date` (``iso8601`` gives seconds since 1970).
    /// Integer formats round to the whole second or millisecond.
    @inlinable
    public func number(for date: Date) -> Double {
        let seconds = date.timeIntervalSince1970
        switch self {
        case .iso8601: return seconds
        case .unixSeconds: return seconds.rounded()
        case .unixMilliseconds: return (seconds * 1000).rounded()
        case .julianDay: return (seconds - Self.julianDayEpoch) / 86_400
        case .referenceDate: return seconds - Self.referenceEpoch
        }
    }

    /// The date a stored number stands for.
    @inlinable
    public func date(fromNumber number: Double) -> Date {
        switch self {
        case .iso8601, .unixSeconds: return Date(timeIntervalSince1970: number)
        case .unixMilliseconds: return Date(timeIntervalSince1970: number / 1000)
        case .julianDay: return Date(timeIntervalSince1970: number * 86_400 + Self.julianDayEpoch)
        case .referenceDate: return Date(timeIntervalSince1970: number + Self.referenceEpoch)
        }
    }

    /// Whether `date` can be stored: finite, and for integer formats within `Int64`.
    @inlinable
    public func isStorable(_ date: Date) -> Bool {
        switch self {
        case .iso8601: return DateFormat.isStorable(date)
        default:
            let number = number(for: date)
            return number.isFinite && abs(number) < 9.2e18
        }
    }

    /// `date` as it reads back after a write in this format, so a record returned by an insert
    /// equals the one read back.
    @inlinable
    public func rounded(_ date: Date) -> Date {
        switch self {
        case .iso8601: return DateFormat.rounded(date)
        default:
            guard isStorable(date) else { return date }
            return self.date(fromNumber: number(for: date))
        }
    }
}

extension Statement {
    /// Binds `value` in `storage`'s format: text for ``DateStorage/iso8601``, an integer or a
    /// real number for the others. A date the format cannot hold throws
    /// ``StrataError/Kind/invalidValue``.
    @inlinable
    public func bind(_ value: Date, storage: DateStorage, at index: Int32) throws {
        guard storage.isStorable(value) else {
            throw StrataError(kind: .invalidValue, resultCode: SQLITE_MISMATCH, message: "the date \(value.timeIntervalSince1970) s since 1970 cannot be stored as \(storage.rawValue)", sql: sql)
        }
        let number = storage.number(for: value)
        switch storage {
        case .iso8601: try bind(value, at: index)
        case .unixSeconds, .unixMilliseconds: try bind(Int64(number), at: index)
        case .julianDay, .referenceDate: try bind(number, at: index)
        }
    }

    /// Binds `value` in `storage`'s format, or NULL.
    @inlinable
    public func bind(_ value: Date?, storage: DateStorage, at index: Int32) throws {
        if let value { try bind(value, storage: storage, at: index) } else { try bindNull(at: index) }
    }

    /// Column `index` as a date stored in `storage`'s format: a number for the numeric formats
    /// (an integer or a real), text for ``DateStorage/iso8601``; anything else (NULL included)
    /// throws naming the table and the column.
    @inlinable
    public func date(at index: Int32, storage: DateStorage, table: String, column: String) throws -> Date {
        if storage == .iso8601 { return try date(at: index, table: table, column: column) }
        let type = sqlite3_column_type(handle, index)
        guard type == SQLITE_INTEGER || type == SQLITE_FLOAT else {
            throw mismatch(at: index, table: table, column: column, expected: "a date as \(storage.rawValue)")
        }
        return storage.date(fromNumber: sqlite3_column_double(handle, index))
    }
}
