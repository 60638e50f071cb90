/// A digest of a database's structure: what ``Migrator`` records with each applied migration
/// and compares with the live file before it migrates, so a table, column, index, trigger or
/// view changed by hand (drift) is noticed without replaying the migrations.
///
/// It is computed from the rows of `sqlite_schema` (type, name, table name and the stored
/// `CREATE` SQL), sorted by type and name, leaving out `strata_migrations`, `sqlite_sequence`
/// and the `sqlite_stat*` tables of `ANALYZE`: anything that changes the stored SQL of an object
/// changes the fingerprint; rows, `ANALYZE` and `VACUUM` do not.
///
/// ```swift
/// let fingerprint = try db.read { conn in try SchemaFingerprint(conn) }
/// print(fingerprint.digest)          // 64 hex digits
/// ```
public struct SchemaFingerprint: Sendable, Hashable {
    /// SHA-256 of ``manifest``, as 64 lower-case hex digits.
    public var digest: String
    /// One line per object, `type<TAB>name<TAB>hash` (the first 16 hex digits of the SHA-256
    /// of its type, name, table name and SQL), sorted by type and name; tabs, line breaks and
    /// backslashes in names are escaped. Comparing two manifests names the objects that differ.
    public var manifest: String

    /// Creates a fingerprint from recorded values.
    public init(digest: String, manifest: String) {
        self.digest = digest
        self.manifest = manifest
    }

    /// The fingerprint of the `main` database of `conn`.
    ///
    /// The migrator computes it at every launch, so it reads the rows with a statement (no
    /// `Row` values) in the manifest's order, hashes each object's bytes from one
    /// reused buffer and writes the manifest as bytes: the same manifest and digest as a
    /// plain implementation (`SchemaFingerprintTests` compares them), for a fraction of the
    /// instructions.
    public init(_ conn: Connection) throws {
        let statement = try conn.cachedStatement(sql: Self.objectsSQL)
        defer { statement.reset() }
        var objects: [(type: String, name: String, table: String, sql: String?)] = []
        while try statement.step() {
            objects.append(
                (statement.string(at: 0), statement.string(at: 1), statement.string(at: 2), statement.isNull(at: 3) ? nil : statement.string(at: 3)))
        }
        // By the bytes of type, then name: the query's order already in a UTF-8 database; a
        // UTF-16 one compares other bytes, so the order is checked (a pass) and made if needed.
        func precedes(_ a: (type: String, name: String, table: String, sql: String?), _ b: (type: String, name: String, table: String, sql: String?)) -> Bool {
            a.type != b.type ? a.type.utf8.lexicographicallyPrecedes(b.type.utf8) : a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
        }
        if objects.indices.dropFirst().contains(where: { precedes(objects[$0], objects[$0 - 1]) }) {
            objects.sort(by: precedes)
        }
        var bytes: [UInt8] = []
        var manifest: [UInt8] = []
        manifest.reserveCapacity(objects.count * 48)
        for object in objects {
            bytes.removeAll(keepingCapacity: true)
            bytes.append(contentsOf: object.type.utf8)
            bytes.append(0)
            bytes.append(contentsOf: object.name.utf8)
            bytes.append(0)
            bytes.append(contentsOf: object.table.utf8)
            bytes.append(0)
            if let sql = object.sql {
                bytes.append(1)
                bytes.append(contentsOf: sql.utf8)
            }
            bytes.append(0)
            if !manifest.isEmpty { manifest.append(UInt8(ascii: "\n")) }
            manifest.append(contentsOf: object.type.utf8)
            manifest.append(UInt8(ascii: "\t"))
            if object.name.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) {
                manifest.append(contentsOf: Self.escape(object.name).utf8)
            } else {
                manifest.append(contentsOf: object.name.utf8)
            }
            manifest.append(UInt8(ascii: "\t"))
            SHA256.appendHex(bytes.withUnsafeBytes { SHA256.digest(of: $0) }, digits: 16, to: &manifest)
        }
        self.manifest = String(decoding: manifest, as: UTF8.self)
        digest = SHA256.hex(of: manifest)
    }

    /// The objects of the fingerprint: every row of `sqlite_schema` but the history table's
    /// (and its indexes), `sqlite_sequence` and the `sqlite_stat*` tables; sorted by the bytes
    /// of type, then name (in a UTF-8 database, SQLite's `BINARY` collation compares the UTF-8
    /// bytes, as the manifest's order is defined; it sorts in C what a Swift sort of strings
    /// spent about 1.4 M instructions on for 100 objects).
    static let objectsSQL = """
        SELECT type, name, tbl_name, sql FROM main.sqlite_master
        WHERE name NOT IN ('sqlite_sequence', '\(Migrator.historyTable)') AND tbl_name <> '\(Migrator.historyTable)'
          AND name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\'
        ORDER BY type COLLATE BINARY, name COLLATE BINARY
        """

    /// The objects (`table customer`, `index customer_name` …) whose stored SQL differs
    /// between `self` (the recorded structure) and `live`, each with what happened to it:
    /// `table customer was changed`, `index extra was added`, `trigger audit was removed`.
    public func changes(to live: SchemaFingerprint) -> [String] {
        let before = Self.entries(manifest)
        let after = Self.entries(live.manifest)
        var result: [String] = []
        for (key, hash) in before.sorted(by: { $0.key < $1.key }) {
            if let now = after[key] {
                if now != hash { result.append("\(key) was changed") }
            } else {
                result.append("\(key) was removed")
            }
        }
        for key in after.keys.sorted() where before[key] == nil {
            result.append("\(key) was added")
        }
        return result
    }

    /// `type name` → hash, from a manifest.
    static func entries(_ manifest: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in manifest.split(separator: "\n") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            result["\(parts[0]) \(unescape(String(parts[1])))"] = String(parts[2])
        }
        return result
    }

    static func escape(_ name: String) -> String {
        TextEscaping.backslashEscaped(name, quotes: false)
    }

    static func unescape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                switch scalar {
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "r": out.append("\r")
                default: out.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
