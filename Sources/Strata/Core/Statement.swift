import CSQLite
import Foundation

/// A prepared SQLite statement: the fast path generated code calls.
///
/// Bind parameters by 1-based index with the typed `bind` overloads, step, and read columns by
/// 0-based index with the typed readers. Each call maps to one `sqlite3_bind_*` /
/// `sqlite3_column_*` call. See <https://www.sqlite.org/c3ref/stmt.html>.
///
/// ```swift
/// let statement = try conn.cachedStatement(sql: "SELECT name FROM author WHERE id = ?")
/// try statement.bind(42, at: 1)
/// while try statement.step() {
///     print(statement.string(at: 0))
/// }
/// ```
///
/// A statement belongs to its ``Connection`` and is not `Sendable`: use it only inside the
/// `read`/`write` closure that gave you the connection.
public final class Statement {
    /// The `sqlite3_stmt` handle.
    @usableFromInline let handle: OpaquePointer
    /// The SQL text of the statement.
    public let sql: String
    /// The connection that prepared the statement (weak: a statement never keeps its
    /// connection open).
    weak var connection: Connection?
    /// False once ``reset()`` has reset the statement, until the next ``step()``: a reset
    /// statement is not reset again. A read by key resets its statement when it is done (in a
    /// `defer`) and `cachedStatement` resets it before the next use; `sqlite3_reset` on a
    /// statement that is already reset costs about 35 instructions, which raw C code does not
    /// spend. Only the statement's own closure uses it, so exclusivity is not checked at run
    /// time (like ``Connection/slots``).
    @exclusivity(unchecked) @usableFromInline var needsReset = false
    /// The connection's log of the statements stepped since the last commit, which
    /// observation's commit hook reads (see ``StepLog``); a load and a comparison per
    /// ``step()`` while nothing observes.
    @usableFromInline let stepLog: StepLog
    /// This statement's place in ``stepLog``'s list; -1 while it is not in it.
    @exclusivity(unchecked) @usableFromInline var stepLogIndex = -1
    /// The ``StepLog/access`` in which the statement last joined ``StepLog/stepped`` (the
    /// statements the end of the `read`/`write` closure resets); -1 before its first step.
    @exclusivity(unchecked) @usableFromInline var steppedAccess = -1
    /// This statement's place in ``StepLog/stepped`` while `steppedAccess` is the log's access.
    @exclusivity(unchecked) @usableFromInline var steppedIndex = 0

    init(handle: OpaquePointer, sql: String, connection: Connection? = nil) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
        stepLog = connection?.stepLog ?? StepLog()
    }

    deinit {
        if stepLogIndex >= 0 { stepLog.remove(at: stepLogIndex) }
        if steppedAccess == stepLog.access { stepLog.removeStepped(at: steppedIndex) }
        // Observation learns here what a statement that ran inside a transaction wrote.
        if stepLog.isOn, let hooks = connection?.observationHooks { hooks.statementFinalizing(handle) }
        sqlite3_finalize(handle)
    }

    /// The number of `?` / `:name` parameters.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The number of result columns.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of result column `index`.
    public func columnName(at index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// The names of the result columns, in order.
    public var columnNames: [String] {
        (0..<Int32(columnCount)).map { columnName(at: $0) }
    }

    /// True when the statement does not change the database (a `SELECT`, say).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Makes the statement ready to run again; bindings stay until rebound. (Nothing to do
    /// when it has not been stepped since it was last reset.)
    @inlinable
    public func reset() {
        if needsReset {
            sqlite3_reset(handle)
            needsReset = false
        }
    }

    /// Sets every parameter to NULL.
    @inlinable
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    // MARK: - Stepping

    /// Runs the statement to its next row: `true` when a row is ready to read, `false` when done.
    ///
    /// Inlinable and left to the optimizer: forcing it inline (as ``run()`` is) made callers
    /// such as the generated `find` too large to be inlined themselves (+67 instructions per
    /// lookup).
    @inlinable
    public func step() throws -> Bool {
        needsReset = true
        if _slowPath(steppedAccess != stepLog.access) { noteStepped() }
        if _slowPath(stepLog.isOn), stepLogIndex < 0 { logStep() }
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        try throwFailure(code)
    }

    /// Runs a statement that returns no rows (or whose rows are ignored) to completion.
    @inlinable @inline(__always)
    public func run() throws {
        while try step() {}
    }

    /// Puts the statement in its connection's ``StepLog``: at its first step after a commit
    /// while observation's hooks are installed, out of line so that ``step()`` stays small
    /// (later steps cost a comparison).
    @usableFromInline @inline(never)
    func logStep() {
        if stepLogIndex < 0 { stepLog.append(self) }
    }

    /// Puts the statement in its connection's list of the statements stepped in the current
    /// `read`/`write` closure (``StepLog/stepped``), which the end of the closure resets: at
    /// its first step in the closure, out of line so that ``step()`` stays small.
    @usableFromInline @inline(never)
    func noteStepped() {
        stepLog.appendStepped(self)
    }

    /// The error SQLite reports for `code`.
    @usableFromInline
    func failure(_ code: Int32) -> StrataError {
        let error = StrataError(sqliteCode: code, db: sqlite3_db_handle(handle), sql: sql)
        sqlite3_reset(handle)
        return error
    }

    /// Throws the error SQLite reports for `code`. Not inlined: the error path stays out of the
    /// code of every `bind` and `step` (a call instead of building and boxing the error at
    /// each call site), which keeps the generated methods small.
    @usableFromInline @inline(never)
    func throwFailure(_ code: Int32) throws -> Never {
        throw failure(code)
    }

    @inlinable
    func check(_ code: Int32) throws {
        if _slowPath(code != SQLITE_OK) { try throwFailure(code) }
    }

    // MARK: - Reading (0-based)

    /// True when column `index` of the current row is NULL.
    @inlinable
    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` as a 64-bit integer (NULL reads as 0).
    @inlinable
    public func int(at index: Int32) -> Int {
        Int(sqlite3_column_int64(handle, index))
    }

    /// Column `index` as a double (NULL reads as 0).
    @inlinable
    public func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// Column `index` as a boolean: any non-zero integer is true.
    @inlinable
    public func bool(at index: Int32) -> Bool {
        sqlite3_column_int64(handle, index) != 0
    }

    /// Column `index` as text, decoded from its UTF-8 bytes (NULL reads as "").
    @inlinable
    public func string(at index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        return text(bytes, at: index)
    }

    /// The text of column `index`, whose `sqlite3_column_text` is `bytes`.
    @inlinable
    func text(_ bytes: UnsafePointer<UInt8>, at index: Int32) -> String {
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes (NULL reads as empty).
    @inlinable
    public func data(at index: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }

    /// Column `index` as a date; throws when the text is not a date. A number is read as unix
    /// epoch seconds (what other tools store in non-STRICT tables).
    ///
    /// The text is read first, without asking SQLite the value's type (a call of about 110
    /// instructions per row): no number's text parses as a date (it has no `-` after four
    /// digits), so a parsed text is a date stored as text. Anything else — a number, NULL,
    /// text that is not a date — takes the type check of `numberDate(at:)`. (SQLite keeps a
    /// number's type when it converts it to text for `sqlite3_column_text`.)
    @inlinable
    public func date(at index: Int32) throws -> Date {
        if let bytes = sqlite3_column_text(handle, index) {
            let count = Int(sqlite3_column_bytes(handle, index))
            if let date = DateFormat.date(fromUTF8: UnsafeBufferPointer(start: bytes, count: count)) {
                return date
            }
        }
        return try numberDate(at: index)
    }

    /// Column `index` as a date when it holds a number (unix epoch seconds); throws otherwise.
    /// The slow path of ``date(at:)``, out of line.
    @usableFromInline @inline(never)
    func numberDate(at index: Int32) throws -> Date {
        let type = sqlite3_column_type(handle, index)
        if type == SQLITE_INTEGER || type == SQLITE_FLOAT {
            return Date(timeIntervalSince1970: sqlite3_column_double(handle, index))
        }
        throw StrataError.decoding("column \(columnName(at: index)) holds \(describeColumn(index)), not a date", sql: sql)
    }

    /// Column `index` as a UUID; throws when the value is not a UUID.
    ///
    /// A value of 36 bytes is read as text at once, without asking SQLite its type (a call of
    /// about 110 instructions per row); `sqlite3_column_bytes` converts nothing but numbers,
    /// whose text is never 36 bytes of a UUID. Any other length takes
    /// `uuidOfOtherLength(at:)`: 16 bytes are a UUID only when stored as a blob.
    @inlinable
    public func uuid(at index: Int32) throws -> UUID {
        // 36: `UUIDFormat.byteCount`, a literal here so that no global is read per row.
        if sqlite3_column_bytes(handle, index) == 36, let text = sqlite3_column_text(handle, index),
            let uuid = UUIDFormat.uuid(fromUTF8: UnsafeBufferPointer(start: text, count: 36))
        {
            return uuid
        }
        return try uuidOfOtherLength(at: index)
    }

    /// The slow path of ``uuid(at:)``, out of line: 16 bytes of a blob, or an error.
    @usableFromInline @inline(never)
    func uuidOfOtherLength(at index: Int32) throws -> UUID {
        if sqlite3_column_type(handle, index) == SQLITE_BLOB, sqlite3_column_bytes(handle, index) == 16,
            let blob = sqlite3_column_blob(handle, index)
        {
            let bytes = UnsafeBufferPointer(start: blob.assumingMemoryBound(to: UInt8.self), count: 16)
            if let uuid = UUIDFormat.uuid(fromRawBytes: bytes) { return uuid }
        } else if let text = sqlite3_column_text(handle, index) {
            let count = Int(sqlite3_column_bytes(handle, index))
            if let uuid = UUIDFormat.uuid(fromUTF8: UnsafeBufferPointer(start: text, count: count)) {
                return uuid
            }
        }
        throw StrataError.decoding("column \(columnName(at: index)) holds \(describeColumn(index)), not a UUID", sql: sql)
    }

    /// Column `index` as whatever SQLite stored.
    public func databaseValue(at index: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: .text(string(at: index))
        case SQLITE_BLOB: .blob(data(at: index))
        default: .null
        }
    }

    /// A short description of the stored value, for error messages.
    @usableFromInline
    func describeColumn(_ index: Int32) -> String {
        databaseValue(at: index).description
    }

    // MARK: - Arguments

    /// Binds `arguments` to this statement's parameters: exactly one argument for each
    /// parameter. A missing, extra or unknown argument throws ``StrataError/Kind/misuse``
    /// naming the SQL and the counts, before anything runs.
    ///
    /// Positional arguments bind parameters 1, 2, … in order (whatever their spelling); named
    /// arguments bind `:name`, `@name` and `$name` parameters by name.
    ///
    /// Inlinable, with positional arguments bound in the caller: a call such as
    /// `fetchAll(where: "id BETWEEN ? AND ?", [first, first + 2])` then binds its values
    /// without a call into the library per call.
    @inlinable
    public func bind(_ arguments: StatementArguments) throws {
        guard case .positional(let values) = arguments.storage else { return try bindNamed(arguments) }
        let count = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == count else { try throwArgumentCountMismatch(parameters: count, arguments: values.count) }
        try values.withUnsafeBufferPointer { values in
            for offset in values.indices {
                try bindElement(values, offset)
            }
        }
    }

    /// Binds `values[offset]` to parameter `offset + 1`, in place: the existential is not
    /// copied out of the array (a copy and a destroy through its value witnesses cost about
    /// 400 instructions per argument); the element's own `bind(to:at:)` is called on it where
    /// it lies.
    ///
    /// An `Int`, `Int64`, `Double` or `String` (what arguments mostly are) is recognized by the
    /// type in its existential container and bound directly: no optional copy of the
    /// existential and no call through its witness table (about 130 instructions per argument).
    @inlinable @inline(__always)
    func bindElement(_ values: UnsafeBufferPointer<(any DatabaseValueConvertible)?>, _ offset: Int) throws {
        let index = Int32(truncatingIfNeeded: offset &+ 1)
        if ArgumentLayout.isStandard, let base = values.baseAddress {
            let element = UnsafeRawPointer(base + offset)
            let type = element.load(fromByteOffset: ArgumentLayout.typeOffset, as: UnsafeRawPointer?.self)
            if type == ArgumentLayout.metadata(of: Int.self) { return try bind(element.load(as: Int.self), at: index) }
            if type == ArgumentLayout.metadata(of: String.self) { return try bind(element.load(as: String.self), at: index) }
            if type == ArgumentLayout.metadata(of: Double.self) { return try bind(element.load(as: Double.self), at: index) }
            if type == ArgumentLayout.metadata(of: Int64.self) { return try bind(element.load(as: Int64.self), at: index) }
        }
        if try values[offset]?.bind(to: self, at: index) == nil {
            try bindNull(at: index)
        }
    }

    /// Binds named arguments (``bind(_:)`` binds positional ones itself).
    @usableFromInline
    func bindNamed(_ arguments: StatementArguments) throws {
        try bind(arguments, skipping: 0)
    }

    /// Throws the misuse error of positional arguments that do not match the parameters in
    /// number (out of line, like ``throwFailure(_:)``).
    @usableFromInline @inline(never)
    func throwArgumentCountMismatch(parameters count: Int, arguments given: Int) throws -> Never {
        throw StrataError.misuse(
            "the statement has \(Self.counted(count, "parameter")) but \(Self.counted(given, "argument")) \(given == 1 ? "was" : "were") given",
            sql: sql)
    }

    /// The name of the parameter a read of an expiring table compares `expiresAt` with.
    static let nowParameter = ":strata_now"

    /// Binds the current time `now` to the `:strata_now` parameter that the reads of an
    /// expiring table add (see `RecordDAO`), and `arguments` to the others, as
    /// ``bind(_:)`` does.
    @usableFromInline
    func bind(_ arguments: StatementArguments, now: Date) throws {
        let index = sqlite3_bind_parameter_index(handle, Self.nowParameter)
        if index > 0 { try bind(now, at: index) }
        try bind(arguments, skipping: index)
    }

    /// Binds `arguments` to every parameter but `skipped` (0: none), which was bound already.
    /// Always inlined: `bind(_:)` (`skipped` 0) runs for every `RecordDAO` read and pays
    /// nothing for the parameter it never skips.
    @inline(__always)
    func bind(_ arguments: StatementArguments, skipping skipped: Int32) throws {
        switch arguments.storage {
        case .positional(let values):
            let total = parameterCount
            let count = skipped > 0 ? total - 1 : total
            guard values.count == count else {
                throw StrataError.misuse(
                    "the statement has \(Self.counted(count, "parameter")) but \(Self.counted(values.count, "argument")) \(values.count == 1 ? "was" : "were") given",
                    sql: sql)
            }
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                try bind(value, at: skipped > 0 && index >= skipped ? index + 1 : index)
            }
        case .named(let values):
            let used = try bindParameters(named: values, skipping: skipped)
            if let extra = values.first(where: { !used.contains(Self.bareName($0.key)) }) {
                let count = skipped > 0 ? parameterCount - 1 : parameterCount
                throw StrataError.misuse(
                    "the named argument :\(Self.bareName(extra.key)) matches no parameter (the statement has \(Self.counted(count, "parameter")), \(Self.counted(values.count, "named argument")) \(values.count == 1 ? "was" : "were") given)",
                    sql: sql)
            }
        }
    }

    /// Binds every parameter but `skipped` from `values` by name and returns the (bare) names
    /// used; a parameter without an argument, or a `?` parameter, throws.
    func bindParameters(named values: [(key: String, value: (any DatabaseValueConvertible)?)], skipping skipped: Int32 = 0) throws -> Set<String> {
        let count = sqlite3_bind_parameter_count(handle)
        var used: Set<String> = []
        guard count > 0 else { return used }
        for index in 1...count where index != skipped {
            guard let raw = sqlite3_bind_parameter_name(handle, index) else {
                throw StrataError.misuse("parameter \(index) is positional (?) but named arguments were given", sql: sql)
            }
            let name = String(String(cString: raw).dropFirst())
            guard let entry = values.first(where: { Self.bareName($0.key) == name }) else {
                let shown = skipped > 0 ? Int(count) - 1 : Int(count)
                throw StrataError.misuse(
                    "the parameter :\(name) has no argument (the statement has \(Self.counted(shown, "parameter")), \(Self.counted(values.count, "named argument")) \(values.count == 1 ? "was" : "were") given)",
                    sql: sql)
            }
            try bind(entry.value, at: index)
            used.insert(name)
        }
        return used
    }

    /// A named argument's key without a `:`, `@` or `$` prefix.
    static func bareName(_ key: String) -> String {
        if let first = key.first, first == ":" || first == "@" || first == "$" { return String(key.dropFirst()) }
        return key
    }

    /// "1 parameter", "2 parameters".
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
