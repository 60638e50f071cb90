import Foundation
import Strata
import Testing

/// Encryption at rest with Strata built by its `SQLCipher` trait against a real SQLCipher
/// (issue 17): the file holds no plaintext, opens only with its key, and a missing or wrong key
/// is a typed error when the database is opened, on the writer and on every reader.
@Suite struct SQLCipherTests {
    /// A fresh folder, removed afterwards.
    final class Folder: @unchecked Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sqlcipher-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func linksSQLCipher() throws {
        #expect(Database.supportsEncryption)
        let db = try Database.inMemory()
        let version = try db.read { try $0.fetchValue(String.self, sql: "PRAGMA cipher_version") }
        #expect(version?.isEmpty == false)
    }

    @Test func encryptedFileOpensOnlyWithItsKey() throws {
        let folder = try Folder()
        let path = folder.path("vault.sqlite")
        do {
            let db = try Database(path: path, configuration: .init(key: "right key"))
            try db.write { conn in
                try conn.execute(sql: "CREATE TABLE secret(id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT")
                for id in 1...100 {
                    try conn.execute(sql: "INSERT INTO secret(id, v) VALUES (?, ?)", arguments: [id, "plans \(id)"])
                }
            }
            // Readers are separate connections: each got the key before its first read.
            #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM secret") } == 100)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count >= 4096)
        #expect(bytes.range(of: Data("plans".utf8)) == nil)
        #expect(bytes.range(of: Data("SQLite format 3".utf8)) == nil)
        #expect(bytes.range(of: Data("CREATE TABLE".utf8)) == nil)

        for wrong in [Database.Configuration(), Database.Configuration(key: "wrong key"), Database.Configuration(key: "right key ")] {
            let error = try #require(throws: StrataError.self) {
                let db = try Database(path: path, configuration: wrong)
                _ = try db.read { try $0.fetch(sql: "SELECT v FROM secret") }
            }
            #expect(error.resultCode == 26, "\(error)")  // SQLITE_NOTADB, not garbage rows
        }

        let db = try Database(path: path, configuration: .init(key: "right key"))
        #expect(try db.read { try $0.fetchValue(String.self, sql: "SELECT v FROM secret WHERE id = 42") } == "plans 42")
        #expect(try db.read { try $0.fetchValue(String.self, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test func keyWithQuotesIsIssuedVerbatim() throws {
        let folder = try Folder()
        let path = folder.path("quoted.sqlite")
        let key = "it's a \"key\"; '\u{301} DROP TABLE x; --"  // a quote, and one a combining mark follows
        do {
            let db = try Database(path: path, configuration: .init(key: key))
            try db.write { try $0.execute(sql: "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (7)") }
        }
        #expect(throws: StrataError.self) {
            let db = try Database(path: path, configuration: .init(key: "it's a"))
            _ = try db.read { try $0.fetch(sql: "SELECT x FROM t") }
        }
        let db = try Database(path: path, configuration: .init(key: key))
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT x FROM t") } == 7)
    }

    @Test func plainFileOpenedWithAKeyIsRefused() throws {
        let folder = try Folder()
        let path = folder.path("plain.sqlite")
        do {
            let db = try Database(path: path)
            try db.write { try $0.execute(sql: "CREATE TABLE t(x INTEGER)") }
        }
        let error = try #require(throws: StrataError.self) {
            _ = try Database(path: path, configuration: .init(key: "k"))
        }
        #expect(error.resultCode == 26)
        // The plain file is untouched and still opens without a key.
        let db = try Database(path: path)
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 0)
    }
}
