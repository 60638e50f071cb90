import Foundation
import PostgresNIO

/// The SQL of the statements run through one ``PostgresDatabase/Connection``, in order.
final class StatementRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    func record(_ sql: String) {
        lock.lock()
        statements.append(sql)
        lock.unlock()
    }

    var recorded: [String] {
        lock.lock()
        defer { lock.unlock() }
        return statements
    }
}

/// Which tables an observed fetch read.
///
/// PostgreSQL has no authorizer callback, so the tables are found from the SQL text: every
/// identifier of every statement the fetch ran (unquoted ones folded to lower case, as
/// PostgreSQL folds them; quoted ones as written), and the tables behind any of them that is a
/// view (from `pg_depend`, recursively). The set holds column names, aliases and keywords too;
/// they never match a table's notification, and a column named like a table only costs a
/// spare refetch. This was chosen over `EXPLAIN (FORMAT JSON)`'s relation names because it
/// needs no parameter values (a `$1` statement cannot be explained without them before
/// PostgreSQL 16's `GENERIC_PLAN`), no planning per fetch, and cannot miss a table the planner
/// proved empty or pruned.
enum ReadTables {
    /// The identifiers of `sql`, outside string literals and comments.
    static func identifiers(in sql: String) -> Set<String> {
        let chars = Array(sql.unicodeScalars)
        var names = Set<String>()
        var i = 0
        func at(_ index: Int) -> Unicode.Scalar? { index < chars.count ? chars[index] : nil }
        func isStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
        func isPart(_ c: Unicode.Scalar) -> Bool { isStart(c) || c == "$" || ("0"..."9").contains(c) }
        while i < chars.count {
            let c = chars[i]
            if c == "-", at(i + 1) == "-" {
                while i < chars.count, chars[i] != "\n" { i += 1 }
            } else if c == "/", at(i + 1) == "*" {
                var depth = 1
                i += 2
                while i < chars.count, depth > 0 {
                    if chars[i] == "/", at(i + 1) == "*" {
                        depth += 1
                        i += 2
                    } else if chars[i] == "*", at(i + 1) == "/" {
                        depth -= 1
                        i += 2
                    } else {
                        i += 1
                    }
                }
            } else if c == "'" {
                // A string: '' is a quote inside it; E'…' strings also escape with a backslash.
                let escapes = i > 0 && (chars[i - 1] == "E" || chars[i - 1] == "e")
                i += 1
                while i < chars.count {
                    if escapes, chars[i] == "\\" {
                        i += 2
                    } else if chars[i] == "'" {
                        if at(i + 1) == "'" { i += 2 } else { break }
                    } else {
                        i += 1
                    }
                }
                i += 1
            } else if c == "\"" {
                var name = String.UnicodeScalarView()
                i += 1
                while i < chars.count {
                    if chars[i] == "\"" {
                        if at(i + 1) == "\"" {
                            name.append("\"")
                            i += 2
                        } else {
                            break
                        }
                    } else {
                        name.append(chars[i])
                        i += 1
                    }
                }
                i += 1
                names.insert(String(name))
            } else if c == "$", let end = dollarQuoteEnd(chars, from: i) {
                i = end
            } else if isStart(c) {
                var name = String.UnicodeScalarView()
                while i < chars.count, isPart(chars[i]) {
                    name.append(chars[i])
                    i += 1
                }
                names.insert(String(name).lowercased())
            } else {
                i += 1
            }
        }
        return names
    }

    /// When a dollar-quoted string (`$$…$$`, `$tag$…$tag$`) starts at `start`, the index after it.
    private static func dollarQuoteEnd(_ chars: [Unicode.Scalar], from start: Int) -> Int? {
        var j = start + 1
        while j < chars.count, chars[j] != "$" {
            guard chars[j] == "_" || chars[j].properties.isAlphabetic || (j > start + 1 && ("0"..."9").contains(chars[j])) else { return nil }
            j += 1
        }
        guard j < chars.count else { return nil }
        let tag = Array(chars[start...j])
        var k = j + 1
        while k + tag.count <= chars.count {
            if Array(chars[k..<(k + tag.count)]) == tag { return k + tag.count }
            k += 1
        }
        return chars.count
    }

    /// The tables behind those of `names` that are views (recursively), on `conn`.
    static let viewTablesSQL = """
        WITH RECURSIVE rel(oid) AS (
          SELECT c.oid FROM pg_class c
          WHERE c.relname = ANY($1) AND c.relkind IN ('v', 'm') AND pg_table_is_visible(c.oid)
          UNION
          SELECT d.refobjid FROM rel
          JOIN pg_rewrite r ON r.ev_class = rel.oid
          JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
            AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> rel.oid
        )
        SELECT DISTINCT c.relname::text FROM rel JOIN pg_class c ON c.oid = rel.oid
        """
}
