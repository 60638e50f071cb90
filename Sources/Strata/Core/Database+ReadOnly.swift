import CSQLite
import Foundation

extension Database {
    /// True when a read-only WAL database at `path` cannot be read the normal way because its
    /// `-shm` file is missing and cannot be created, and reading the file alone is safe: no
    /// `-wal` file with frames exists (<https://www.sqlite.org/wal.html#readonly>).
    static func needsImmutableReads(_ path: String, _ configuration: Configuration) -> Bool {
        guard
            let probe = try? Connection(
                path: path, readOnly: true, create: false, busyTimeout: configuration.busyTimeout, vfs: configuration.vfs)
        else { return false }
        do {
            _ = try probe.fetch(sql: "SELECT count(*) FROM sqlite_master")
            return false
        } catch let error as StrataError {
            // SQLITE_READONLY_CANTINIT / RECOVERY, SQLITE_CANTOPEN: the wal-index cannot be set up.
            guard error.resultCode == SQLITE_READONLY || error.resultCode == SQLITE_CANTOPEN else { return false }
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
            let walSize = (attributes?[.size] as? NSNumber)?.intValue ?? 0
            return walSize == 0
        } catch {
            return false
        }
    }

    /// `file:/absolute/path?immutable=1`, with the path percent-encoded as SQLite's URI
    /// filenames require (<https://www.sqlite.org/uri.html>).
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var uri = "file:"
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                uri.unicodeScalars.append(UnicodeScalar(byte))
            default:
                uri += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return uri + "?immutable=1"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
