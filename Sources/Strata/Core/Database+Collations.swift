import CSQLite
import Foundation

extension Database {
    /// A collation the app registers: how SQLite compares, sorts and indexes two texts of a
    /// column declared `collate: <name>` (`COLLATE <name>` in SQL). It must be a total order
    /// and must not change between runs of the app, or the database's indexes stop matching it.
    ///
    /// ```swift
    /// let db = try Database(path: "collection.anki2", configuration: Database.Configuration(collations: [
    ///     "unicase": { $0.caseInsensitiveCompare($1) },
    /// ]))
    /// ```
    ///
    /// See <https://www.sqlite.org/c3ref/create_collation.html>.
    public typealias Collation = @Sendable (String, String) -> ComparisonResult
}

extension Database.Configuration {
    /// A configuration that registers `collations` (by name) on every connection, and
    /// otherwise has the defaults.
    public init(collations: [String: Database.Collation]) {
        self.init()
        self.collations = collations
    }
}

extension Database {
    /// Registers the configuration's collations on `connection` (every connection of a database).
    static func registerCollations(_ connection: Connection, _ configuration: Configuration) throws {
        for name in configuration.collations.keys.sorted() {
            guard let compare = configuration.collations[name] else { continue }
            try connection.register(collation: name, compare)
        }
        if configuration.placeholderCollations { connection.resolveUnknownCollationsAsBinary() }
    }

    /// Throws, naming the collation and the column (or index), when a table or index of the
    /// file uses a collation that is neither built in nor registered: every query that compares
    /// such a column would fail with `no such collation sequence`.
    static func checkCollations(_ connection: Connection, _ configuration: Configuration) throws {
        guard !configuration.placeholderCollations else { return }
        // Not `pragma_collation_list`: it also lists the names the schema mentions.
        let registered = Set(["binary", "nocase", "rtrim"] + configuration.collations.keys.map { $0.lowercased() })
        /// The first key of `index` whose collation is not registered, with its column.
        func unregisteredKey(of index: String) throws -> (collation: String, column: String)? {
            for key in try connection.fetch(sql: "SELECT coll, name FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", arguments: [index]) {
                guard let collation = try key.get(0, as: String?.self), !registered.contains(collation.lowercased()) else { continue }
                return (collation, try key.get(1, as: String?.self) ?? "an expression")
            }
            return nil
        }
        // One scan of the schema's SQL for both tables and indexes (it runs at every open).
        let objects = try connection.fetch(
            sql: "SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index') AND sql LIKE '%collate%' ORDER BY rowid")
        let tables = try objects.filter { try $0.get(0, as: String.self) == "table" && !($0.get(1, as: String.self)).lowercased().hasPrefix("sqlite_") }
        let indexes = try objects.filter { try $0.get(0, as: String.self) == "index" }
        for row in tables {
            let table: String = try row.get(1)
            // The indexes of PRIMARY KEY and UNIQUE constraints first: without their collation
            // SQLite cannot plan a scan of a WITHOUT ROWID table at all.
            for index in try connection.fetch(sql: "SELECT name FROM pragma_index_list(?) WHERE origin <> 'c' ORDER BY name", arguments: [table]) {
                if let (collation, column) = try unregisteredKey(of: try index.get(0)) { throw missing(collation, "column \(table).\(column)") }
            }
            for column in try connection.fetch(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table]) {
                let name: String = try column.get(0)
                let quoted = SQLQuoting.identifier(name)
                do {
                    _ = try connection.makeStatement(sql: "SELECT \(quoted) < \(quoted) FROM \(SQLQuoting.identifier(table))")
                } catch let error as StrataError {
                    guard let collation = missingCollation(in: error) else { throw error }
                    throw missing(collation, "column \(table).\(name)")
                }
            }
        }
        for row in indexes {
            let index: String = try row.get(1)
            if let (collation, column) = try unregisteredKey(of: index) {
                let table = try row.get(2, as: String.self)
                throw missing(collation, "index \(index) on \(table) (key \(column))")
            }
        }
    }

    /// The collation name of SQLite's `no such collation sequence: x`, if that is the error.
    static func missingCollation(in error: StrataError) -> String? {
        let marker = "no such collation sequence: "
        guard let range = error.message.range(of: marker) else { return nil }
        return String(error.message[range.upperBound...].prefix { $0 != " " && $0 != "\n" })
    }

    static func missing(_ collation: String, _ user: String) -> StrataError {
        StrataError(
            kind: .misuse,
            message: "\(user) collates \(collation), which is not registered: pass it in Database.Configuration(collations: [\"\(collation)\": { … }]) (without it SQLite cannot compare, sort or index the column)")
    }
}

/// What a registered collation's context holds: the Swift comparison.
private final class CollationBox {
    let compare: Database.Collation
    init(_ compare: @escaping Database.Collation) { self.compare = compare }
}

extension Connection {
    /// Registers `compare` as the collation `name` on this connection
    /// (`sqlite3_create_collation_v2`, UTF-8).
    func register(collation name: String, _ compare: @escaping Database.Collation) throws {
        let box = Unmanaged.passRetained(CollationBox(compare)).toOpaque()
        let code = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, box,
            { context, leftCount, left, rightCount, right in
                guard let context else { return 0 }
                let compare = Unmanaged<CollationBox>.fromOpaque(context).takeUnretainedValue().compare
                let lhs = String(decoding: UnsafeRawBufferPointer(start: left, count: Int(leftCount)), as: UTF8.self)
                let rhs = String(decoding: UnsafeRawBufferPointer(start: right, count: Int(rightCount)), as: UTF8.self)
                switch compare(lhs, rhs) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            },
            { context in
                guard let context else { return }
                Unmanaged<CollationBox>.fromOpaque(context).release()
            })
        guard code == SQLITE_OK else {
            // SQLite does not call the destructor when the registration fails.
            Unmanaged<CollationBox>.fromOpaque(box).release()
            throw StrataError(kind: .misuse, resultCode: code, message: "cannot register the collation \(name): \(String(cString: sqlite3_errstr(code)))")
        }
    }

    /// Makes every collation SQLite does not know compare as `BINARY` on this connection: for
    /// the compiler's in-memory databases, which check DDL and queries but hold no rows.
    func resolveUnknownCollationsAsBinary() {
        sqlite3_collation_needed(handle, nil) { _, db, _, name in
            guard let db, let name else { return }
            sqlite3_create_collation_v2(
                db, name, SQLITE_UTF8, nil,
                { _, leftCount, left, rightCount, right in
                    let common = Int(min(leftCount, rightCount))
                    var order: Int32 = 0
                    if common > 0, let left, let right { order = memcmp(left, right, common) }
                    if order != 0 { return order < 0 ? -1 : 1 }
                    return leftCount == rightCount ? 0 : (leftCount < rightCount ? -1 : 1)
                }, nil)
        }
    }
}
