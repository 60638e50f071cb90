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
    public init(_ conn: Connection) throws {
        var objects: [(type: String, name: String, table: String, sql: String?)] = []
        for row in try conn.fetch(
            sql: """
                SELECT type, name, tbl_name, sql FROM main.sqlite_master
                WHERE name NOT IN ('sqlite_sequence', '\(Migrator.historyTable)') AND tbl_name <> '\(Migrator.historyTable)'
                  AND name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\'
                """)
        {
            objects.append((try row.get(0), try row.get(1), try row.get(2), try row.get(3)))
        }
        // By the bytes of type, then name (no arrays made for each comparison).
        objects.sort { a, b in
            a.type != b.type ? a.type.utf8.lexicographicallyPrecedes(b.type.utf8) : a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
        }
        var lines: [String] = []
        for object in objects {
            var bytes: [UInt8] = []
            for field in [object.type, object.name, object.table] {
                bytes += Array(field.utf8)
                bytes.append(0)
            }
            if let sql = object.sql {
                bytes.append(1)
                bytes += Array(sql.utf8)
            }
            bytes.append(0)
            lines.append("\(object.type)\t\(Self.escape(object.name))\t\(SHA256.hex(of: bytes).prefix(16))")
        }
        manifest = lines.joined(separator: "\n")
        digest = SHA256.hex(of: Array(manifest.utf8))
    }

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
