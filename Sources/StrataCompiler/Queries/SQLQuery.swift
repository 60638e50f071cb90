/// One entry of the top-level `queries:` section: a whole SQL statement that becomes a typed
/// method of `<Database>Queries`. This is the declaration as written; ``QueryAnalyzer`` turns
/// it into a ``TypedQuery``.
package struct SQLQuery: Hashable, Sendable {
    /// The `returns:` a typed query may have: how many rows a statement that yields rows gives
    /// back, every row (`many`, the default) or the first (`one`). (A table query may also count
    /// its rows or test that one exists.)
    static let returnsValues: [Query.Returns] = [.many, .one]

    /// A `params:` entry: the type of a `:name` parameter where inference cannot decide.
    package struct ParameterOverride: Hashable, Sendable {
        /// The parameter's name, without the colon.
        package var name: String
        /// The element type.
        package var type: ColumnType
        /// `int?`: nil may be passed.
        package var isOptional = false
        /// `"[int]"`: an array, only allowed as `IN (:name)`.
        package var isList = false
        /// Where the entry's key is written.
        package var location: SourceLocation?
    }

    /// A `columns:` entry: the Swift type of a result column, overriding inference.
    package struct ColumnOverride: Hashable, Sendable {
        /// The result column's name as SQLite reports it (the `AS` alias).
        package var name: String
        /// The type.
        package var type: ColumnType
        /// `double?`: the column may be NULL.
        package var isOptional = false
        /// Where the entry's key is written.
        package var location: SourceLocation?
    }

    /// The method name (the key under `queries:`).
    package var name: String
    /// The statement, exactly as the `sql:` scalar holds it.
    package var sql: String
    /// `doc:`.
    package var doc: String?
    /// `returns:`, one of ``returnsValues``.
    package var returns: Query.Returns
    /// `params:`, in the order written.
    package var parameterTypes: [ParameterOverride]
    /// `columns:`, in the order written.
    package var columnTypes: [ColumnOverride]
    /// Where the query's key is written.
    package var location: SourceLocation?
    /// Where each UTF-8 byte of `sql` is written in the schema file.
    package var sqlSource: SQLSourceMap
    /// `sql: { sqlite: …, postgres: … }`: the PostgreSQL variant; nil when the SQL is shared.
    package var postgresSQL: String?
    /// Where each UTF-8 byte of ``postgresSQL`` is written in the schema file.
    package var postgresSQLSource: SQLSourceMap?

    /// The statement PostgreSQL runs: the `postgres:` variant, or the shared `sql:`.
    package var postgresText: String { postgresSQL ?? sql }
    /// Where each UTF-8 byte of ``postgresText`` is written in the schema file.
    package var postgresTextSource: SQLSourceMap { postgresSQLSource ?? sqlSource }

    /// Creates a query declaration.
    package init(
        name: String, sql: String, doc: String? = nil, returns: Query.Returns = .many, parameterTypes: [ParameterOverride] = [],
        columnTypes: [ColumnOverride] = [], location: SourceLocation? = nil, sqlSource: SQLSourceMap? = nil
    ) {
        self.name = name
        self.sql = sql
        self.doc = doc
        self.returns = returns
        self.parameterTypes = parameterTypes
        self.columnTypes = columnTypes
        self.location = location
        self.sqlSource = sqlSource ?? SQLSourceMap(start: location ?? SourceLocation(file: "", line: 1, column: 1))
    }
}

/// Maps a UTF-8 byte offset inside a `sql:` scalar back to the line and column where that byte
/// is written in the YAML file, whatever the scalar's style (literal `|`, folded `>`, quoted
/// with escapes, plain over several lines).
package struct SQLSourceMap: Hashable, Sendable {
    /// Where the scalar starts (its indicator or opening quote).
    package var start: SourceLocation
    /// Line and column of each byte of the value; empty when the source was not available.
    var positions: [Position]
    /// The text of each file line the scalar covers, by line number (for quoting a line
    /// under an error).
    var lines: [Int: String] = [:]

    struct Position: Hashable, Sendable {
        var line: Int32
        var column: Int32
    }

    /// A map that sends every offset to `start`.
    package init(start: SourceLocation) {
        self.start = start
        positions = []
    }

    /// Aligns `value` (the scalar as YAML decoded it) with the file bytes from `start` on;
    /// `lineStarts` holds the byte offset where each line of `source` starts.
    init(value: String, start: SourceLocation, source: [UInt8], lineStarts: [Int]) {
        self.start = start
        positions = []
        guard start.line >= 1, start.line <= lineStarts.count else { return }
        var offset = lineStarts[start.line - 1]
        let line = start.line
        var column = 1
        while offset < source.count, column < start.column, source[offset] != UInt8(ascii: "\n") {
            if source[offset] & 0xC0 != 0x80 { column += 1 }
            offset += 1
            while offset < source.count, source[offset] & 0xC0 == 0x80 { offset += 1 }
        }
        guard offset < source.count else { return }
        let end = min(source.count, offset + value.utf8.count * 64 + 4096)
        var sourceLines: [Int32] = []
        var sourceColumns: [Int32] = []
        var bytes: [UInt8] = []
        var scanLine = line
        var scanColumn = column
        for byte in source[offset..<end] {
            bytes.append(byte)
            sourceLines.append(Int32(scanLine))
            sourceColumns.append(Int32(scanColumn))
            if byte == UInt8(ascii: "\n") {
                scanLine += 1
                scanColumn = 1
            } else if byte & 0xC0 != 0x80 {
                scanColumn += 1
            }
            // Continuation bytes share their character's column.
        }
        for index in bytes.indices.dropFirst() where bytes[index] & 0xC0 == 0x80 {
            sourceColumns[index] = sourceColumns[index - 1]
        }
        var cursor = 0
        switch bytes.first {
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            // Block scalar: the value starts on the line after the header.
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\n") { cursor += 1 }
            cursor += 1
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            cursor = 1
        default:
            break
        }
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        for byte in value.utf8 {
            let limit = bytes.count - 1
            if whitespace.contains(byte) {
                // Folded line breaks and escapes: stay where the file is.
                if cursor <= limit, bytes[cursor] == byte { cursor += 1 }
                let at = min(cursor, limit)
                positions.append(Position(line: sourceLines[max(at, 0)], column: sourceColumns[max(at, 0)]))
                continue
            }
            var probe = cursor
            while probe <= limit, bytes[probe] != byte { probe += 1 }
            if probe <= limit {
                cursor = probe
                positions.append(Position(line: sourceLines[cursor], column: sourceColumns[cursor]))
                cursor += 1
            } else {
                let at = min(cursor, limit)
                positions.append(Position(line: sourceLines[max(at, 0)], column: sourceColumns[max(at, 0)]))
            }
        }
        let lastLine = Int(positions.map(\.line).max() ?? Int32(line))
        for number in line...max(line, lastLine) where number <= lineStarts.count {
            let from = lineStarts[number - 1]
            var to = number < lineStarts.count ? lineStarts[number] - 1 : source.count
            if to > from, source[to - 1] == UInt8(ascii: "\r") { to -= 1 }
            lines[number] = String(decoding: source[from..<max(from, to)], as: UTF8.self)
        }
    }

    /// The file line `line` as written, when the scalar covers it.
    package func sourceLine(_ line: Int) -> String? { lines[line] }

    /// The file position of the byte at `offset` in the SQL text.
    package func location(atUTF8Offset offset: Int) -> SourceLocation {
        guard !positions.isEmpty else { return start }
        let position = positions[max(0, min(offset, positions.count - 1))]
        return SourceLocation(file: start.file, line: Int(position.line), column: Int(position.column))
    }
}
