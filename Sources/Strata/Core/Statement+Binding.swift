import CSQLite
import Foundation

// Binding parameters of a statement (1-based), one method per Swift type the generated code binds.
extension Statement {
    /// Binds NULL.
    @inlinable
    public func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds a 64-bit integer.
    @inlinable
    public func bind(_ value: Int, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    /// Binds a 64-bit integer.
    @inlinable
    public func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds a double.
    @inlinable
    public func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds a boolean as 0 or 1.
    @inlinable
    public func bind(_ value: Bool, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value ? 1 : 0))
    }

    /// Binds text by its UTF-8 bytes (any Unicode, embedded NUL included).
    @inlinable
    public func bind(_ value: String, at index: Int32) throws {
        var value = value
        let code = value.withUTF8 { bytes -> Int32 in
            // An empty buffer may have no base address, and a nil pointer would bind NULL.
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return strata_bind_text(handle, index, "", 0) }
            guard bytes.count <= Int32.max else { return SQLITE_TOOBIG }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                strata_bind_text(handle, index, $0, Int32(bytes.count))
            }
        }
        try check(code)
    }

    /// Binds a blob (an empty `Data` is an empty blob, not NULL).
    @inlinable
    public func bind(_ value: Data, at index: Int32) throws {
        if value.isEmpty {
            try check(sqlite3_bind_zeroblob(handle, index, 0))
            return
        }
        let code = value.withUnsafeBytes { raw -> Int32 in
            guard raw.count <= Int32.max else { return SQLITE_TOOBIG }
            return strata_bind_blob(handle, index, raw.baseAddress, Int32(raw.count))
        }
        try check(code)
    }

    /// Binds a date as `YYYY-MM-DD HH:MM:SS.SSS` text in UTC; a date outside the years
    /// 0000–9999 (or not finite) throws ``StrataError/Kind/invalidValue`` instead of being stored
    /// wrongly.
    @inlinable
    public func bind(_ value: Date, at index: Int32) throws {
        guard DateFormat.isStorable(value) else {
            throw StrataError(kind: .invalidValue, resultCode: SQLITE_MISMATCH, message: "the date \(value.timeIntervalSince1970) s since 1970 is outside the years 0000–9999 that the date text format can hold", sql: sql)
        }
        let code = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DateFormat.byteCount) { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return SQLITE_NOMEM }
            let count = DateFormat.write(value, into: base)
            return base.withMemoryRebound(to: CChar.self, capacity: count) {
                strata_bind_text(handle, index, $0, Int32(count))
            }
        }
        try check(code)
    }

    /// Binds a UUID as canonical upper-case text.
    @inlinable
    public func bind(_ value: UUID, at index: Int32) throws {
        let code = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: UUIDFormat.byteCount) { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return SQLITE_NOMEM }
            UUIDFormat.write(value, into: base)
            return base.withMemoryRebound(to: CChar.self, capacity: UUIDFormat.byteCount) {
                strata_bind_text(handle, index, $0, Int32(UUIDFormat.byteCount))
            }
        }
        try check(code)
    }

    /// Binds any convertible value, or NULL for nil.
    ///
    /// Disfavored, so that a value of a known type (a `String?` column, say) binds through
    /// the generic `bind(_:at:)`, specialized for its type, instead of boxed in an existential.
    @inlinable @_disfavoredOverload
    public func bind(_ value: (any DatabaseValueConvertible)?, at index: Int32) throws {
        if let value {
            try value.bind(to: self, at: index)
        } else {
            try bindNull(at: index)
        }
    }

    /// Binds an optional value of a convertible type, or NULL.
    @inlinable
    public func bind<Value: DatabaseValueConvertible>(_ value: Value?, at index: Int32) throws {
        if let value {
            try value.bind(to: self, at: index)
        } else {
            try bindNull(at: index)
        }
    }
}
