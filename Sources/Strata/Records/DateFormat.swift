import Foundation

/// The text format Strata stores dates in: `YYYY-MM-DD HH:MM:SS.SSS`, UTC, millisecond
/// precision. It sorts correctly as text and SQLite's date functions understand it.
///
/// Formatting and parsing are hand-written (no `DateFormatter`) because generated code calls
/// them once per date column per row.
public enum DateFormat {
    /// The length of a formatted date in bytes.
    public static let byteCount = 23

    /// The earliest storable instant: 0000-01-01 00:00:00.000 UTC.
    public static let earliest: TimeInterval = -62_167_219_200
    /// The latest storable instant: 9999-12-31 23:59:59.999 UTC.
    public static let latest: TimeInterval = 253_402_300_799.999

    /// True when `date` fits the text format: finite, in the years 0000–9999.
    @inlinable
    public static func isStorable(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        return seconds.isFinite && seconds >= earliest && seconds <= latest + 0.0005
    }

    /// Writes `date` into `buffer` (at least ``byteCount`` bytes) and returns the bytes written.
    /// `date` must be ``isStorable(_:)``; other dates are clamped to the storable range.
    @inlinable
    public static func write(_ date: Date, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        let seconds = date.timeIntervalSince1970
        let clamped = seconds.isFinite ? min(max(seconds, earliest), latest) : 0
        let totalMilliseconds = Int64((clamped * 1000).rounded())
        var days = totalMilliseconds / 86_400_000
        var msOfDay = totalMilliseconds % 86_400_000
        if msOfDay < 0 {
            msOfDay += 86_400_000
            days -= 1
        }
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)

        func put(_ value: Int64, digits: Int, at offset: Int) {
            var v = value < 0 ? 0 : value
            var i = offset + digits - 1
            while i >= offset {
                buffer[i] = UInt8(truncatingIfNeeded: 48 + v % 10)
                v /= 10
                i -= 1
            }
        }
        put(year, digits: 4, at: 0)
        buffer[4] = 45  // -
        put(month, digits: 2, at: 5)
        buffer[7] = 45
        put(day, digits: 2, at: 8)
        buffer[10] = 32  // space
        put(msOfDay / 3_600_000, digits: 2, at: 11)
        buffer[13] = 58  // :
        put(msOfDay / 60_000 % 60, digits: 2, at: 14)
        buffer[16] = 58
        put(msOfDay / 1000 % 60, digits: 2, at: 17)
        buffer[19] = 46  // .
        put(msOfDay % 1000, digits: 3, at: 20)
        return byteCount
    }

    /// `date` at the precision it is stored with (the millisecond, rounded as ``write(_:into:)``
    /// rounds), so a record returned by an insert equals the one read back.
    @inlinable
    public static func rounded(_ date: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 9e15 else { return date }
        return Date(timeIntervalSince1970: Double(Int64((seconds * 1000).rounded())) / 1000)
    }

    /// The text form of `date`.
    public static func string(from date: Date) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount) { buffer in
            guard let base = buffer.baseAddress else { return "" }
            let count = write(date, into: base)
            return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
        }
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD HH:MM:SS` or with fractional
    /// seconds; `T` may replace the space, and a trailing `Z` or a UTC offset (`+02:00`,
    /// `-0500`, `+01`) is allowed: what other tools write. Returns nil otherwise. Writes
    /// always use the canonical UTC form of ``string(from:)``.
    public static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(fromUTF8: $0) }
    }

    /// Parses the UTF-8 bytes of a date (see ``date(from:)``).
    @inlinable
    public static func date(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        let count = bytes.count
        guard count >= 10 else { return nil }
        @inline(__always) func number(_ start: Int, _ length: Int) -> Int64? {
            var value: Int64 = 0
            for i in start..<(start + length) {
                let c = bytes[i]
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int64(c - 48)
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == 45, let month = number(5, 2), bytes[7] == 45,
            let day = number(8, 2), (1...12).contains(month), day >= 1
        else { return nil }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let daysInMonth: Int64 = month == 2 ? (isLeap ? 29 : 28) : ([4, 6, 9, 11].contains(month) ? 30 : 31)
        guard day <= daysInMonth else { return nil }
        var hour: Int64 = 0
        var minute: Int64 = 0
        var second: Int64 = 0
        var millis: Int64 = 0
        var offsetSeconds: Int64 = 0
        var index = 10
        if count > 10 {
            guard bytes[10] == 32 || bytes[10] == 84, count >= 16, let h = number(11, 2), bytes[13] == 58,
                let m = number(14, 2), h < 24, m < 60
            else { return nil }
            hour = h
            minute = m
            index = 16
            if count >= 19, bytes[16] == 58 {
                guard let s = number(17, 2), s < 61 else { return nil }
                second = s
                index = 19
                if index < count, bytes[index] == 46 {
                    index += 1
                    var scale: Int64 = 100
                    var digits = 0
                    while index < count, bytes[index] >= 48, bytes[index] <= 57 {
                        if digits < 3 {
                            millis += Int64(bytes[index] - 48) * scale
                            scale /= 10
                        }
                        digits += 1
                        index += 1
                    }
                    guard digits > 0 else { return nil }
                }
            }
            if index < count, bytes[index] == 32 { index += 1 }  // `2024-01-02 10:00:00 +02:00`
            if index < count, bytes[index] == 90 {  // Z
                index += 1
            } else if index < count, bytes[index] == 43 || bytes[index] == 45 {  // +HH:MM, -HH:MM, +HHMM, +HH
                let sign: Int64 = bytes[index] == 45 ? -1 : 1
                guard index + 3 <= count, let h = number(index + 1, 2), h < 24 else { return nil }
                var m: Int64 = 0
                index += 3
                if index < count {
                    if bytes[index] == 58 { index += 1 }
                    guard index + 2 <= count, let minutes = number(index, 2), minutes < 60 else { return nil }
                    m = minutes
                    index += 2
                }
                offsetSeconds = sign * (h * 3600 + m * 60)
            }
            guard index == count else { return nil }
        }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let total = ((days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds) * 1000) + millis
        return Date(timeIntervalSince1970: Double(total) / 1000)
    }
}
