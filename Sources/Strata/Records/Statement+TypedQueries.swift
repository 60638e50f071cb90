import CSQLite
import Foundation

/// What the compiler's query analysis learns from SQLite, and the helpers generated typed
/// queries (`<Database>Queries`) call.
extension Connection {
    /// Why a statement did not prepare: SQLite's message and the UTF-8 byte offset in the SQL
    /// of the token it points at (`sqlite3_error_offset`), when it points at one.
    package struct PrepareFailure: Error, Sendable {
        /// SQLite's message.
        package var message: String
        /// The byte offset of the offending token, or nil.
        package var offset: Int?
    }

    /// Prepares the first statement of `sql`, keeping where SQLite says an error is; returns
    /// the statement and the UTF-8 byte offset where the text after it starts.
    package func prepareFirstStatementLocatingErrors(sql: String) -> Result<(statement: Statement, tailOffset: Int), PrepareFailure> {
        var statement: OpaquePointer?
        var consumed = 0
        let code = sql.withCString { text -> Int32 in
            var rest: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(handle, text, -1, &statement, &rest)
            if let rest { consumed = rest - text }
            return code
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(statement)
            let message = String(cString: sqlite3_errmsg(handle))
            let offset = Int(sqlite3_error_offset(handle))
            return .failure(PrepareFailure(message: message, offset: offset >= 0 ? offset : nil))
        }
        guard let statement else { return .failure(PrepareFailure(message: "the SQL holds no statement", offset: nil)) }
        return .success((Statement(handle: statement, sql: sql, connection: self), consumed))
    }
}

extension Statement {
    /// The table a result column is read from (`sqlite3_column_table_name`), or nil for an
    /// expression.
    package func columnTableName(at index: Int32) -> String? {
        columnMetadata(ColumnMetadata.tableName, at: index)
    }

    /// The table column a result column is read from (`sqlite3_column_origin_name`), or nil
    /// for an expression.
    package func columnOriginName(at index: Int32) -> String? {
        columnMetadata(ColumnMetadata.originName, at: index)
    }

    /// What the column-origin `function` says of result column `index`; nil when it says nothing
    /// or the SQLite has no such function.
    private func columnMetadata(_ function: ColumnMetadata.Function?, at index: Int32) -> String? {
        function?(handle, index).map { String(cString: $0) }
    }

    /// Column `index` as an integer, for a result column that typed query `query` declares
    /// non-optional: NULL throws the decoding error ``checkedNotNull(at:query:column:)``
    /// throws. The type is asked only when the value reads as 0 (as NULL does), so a non-zero
    /// value costs one SQLite call, not two.
    @inlinable
    public func int(at index: Int32, query: String, column: String) throws -> Int {
        let value = sqlite3_column_int64(handle, index)
        if value == 0, isNull(at: index) { throw StrataError.unexpectedNull(query: query, column: column) }
        return Int(value)
    }

    /// Column `index` as a double, for a non-optional result column of typed query `query`:
    /// as ``int(at:query:column:)``, the type is asked only when the value reads as 0.
    @inlinable
    public func double(at index: Int32, query: String, column: String) throws -> Double {
        let value = sqlite3_column_double(handle, index)
        if value == 0, isNull(at: index) { throw StrataError.unexpectedNull(query: query, column: column) }
        return value
    }

    /// Column `index` as text, for a non-optional result column of typed query `query`: the
    /// type is asked only when SQLite returns no text (as for NULL).
    @inlinable
    public func string(at index: Int32, query: String, column: String) throws -> String {
        guard let bytes = sqlite3_column_text(handle, index) else {
            if isNull(at: index) { throw StrataError.unexpectedNull(query: query, column: column) }
            return ""
        }
        return text(bytes, at: index)
    }

    /// The statement itself, after checking that result column `index` is not NULL; throws a
    /// decoding error naming `query` and `column` when it is. Generated typed queries read
    /// non-optional results of other types through it (`try statement.checkedNotNull(at: 0,
    /// …).bool(at: 0)`); `Int`, `Double` and `String` through ``int(at:query:column:)`` and its
    /// siblings, which ask for the type only when the value reads as NULL would.
    @inlinable
    public func checkedNotNull(at index: Int32, query: String, column: String) throws -> Statement {
        if isNull(at: index) { throw StrataError.unexpectedNull(query: query, column: column) }
        return self
    }
}

extension StrataError {
    /// A NULL read from a result column that a typed query declares non-optional.
    public static func unexpectedNull(query: String, column: String) -> StrataError {
        .decoding("query \(query): result column \(column) is NULL but the query declares it non-optional")
    }

    /// A statement the query analysis found to yield exactly one row (an aggregate without
    /// `GROUP BY`, a `SELECT` without `FROM`) gave none: thrown rather than a made-up value.
    public static func missingRow(query: String) -> StrataError {
        .decoding("query \(query): the statement always yields one row, but it yielded none")
    }
}

/// Placeholders for a list parameter (`IN (:ids)`) expanded at run time.
public enum SQLPlaceholders {
    /// `?3, ?4, ?5` for `count` values bound from index `first` on; empty for none (`IN ()`
    /// matches no row).
    public static func list(from first: Int, count: Int) -> String {
        var text = ""
        for index in 0..<count {
            if index > 0 { text += ", " }
            text += "?\(first + index)"
        }
        return text
    }
}

/// SQLite's column-origin functions (`sqlite3_column_table_name`, `sqlite3_column_origin_name`).
/// SQLCipher may be built without `SQLITE_ENABLE_COLUMN_METADATA`: with it they are looked up
/// when first used, and are nil when missing (typed-query analysis then types result columns
/// from their expressions alone).
enum ColumnMetadata {
    typealias Function = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?

    #if SQLCipher && !SystemSQLite
    static let tableName = lookUp("sqlite3_column_table_name")
    static let originName = lookUp("sqlite3_column_origin_name")

    private static func lookUp(_ symbol: String) -> Function? {
        guard let program = dlopen(nil, RTLD_NOW), let address = dlsym(program, symbol) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
    #else
    static let tableName: Function? = sqlite3_column_table_name
    static let originName: Function? = sqlite3_column_origin_name
    #endif
}
