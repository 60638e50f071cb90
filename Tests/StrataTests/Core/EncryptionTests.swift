import Foundation
import Strata
import StrataTestSupport
import Testing

/// Encryption at rest (issue 17): a key is issued before anything else on every connection,
/// and a SQLite without encryption refuses a key instead of writing an unencrypted file.
@Suite struct EncryptionTests {
    @Test func keyOnPlainSQLiteIsATypedErrorAndCreatesNoFile() throws {
        try #require(!Database.supportsEncryption, "this build links SQLCipher")
        let dir = try TemporaryDirectory()
        let path = dir.path("vault.sqlite")
        let error = try #require(throws: StrataError.self) {
            _ = try Database(path: path, configuration: Database.Configuration(key: "s3cret"))
        }
        #expect(error.kind == .misuse)
        #expect(error.message.contains("not SQLCipher"))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(throws: StrataError.self) { _ = try Database.inMemory(configuration: .init(key: "s3cret")) }
    }

    @Test func configurationKeyDefaultsToNil() {
        #expect(Database.Configuration().key == nil)
        #expect(Database.Configuration(key: "k").key == "k")
    }

    /// Runs only where the linked SQLite is SQLCipher.
    @Test(.enabled(if: Database.supportsEncryption)) func encryptedFileNeedsItsKey() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("vault.sqlite")
        do {
            let db = try Database(path: path, configuration: .init(key: "right key"))
            try db.write { try $0.execute(sql: "CREATE TABLE secret(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO secret VALUES (1, 'plans')") }
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data("plans".utf8)) == nil)
        #expect(bytes.range(of: Data("SQLite format 3".utf8)) == nil)
        for wrong in [Database.Configuration(), Database.Configuration(key: "wrong key")] {
            let error = try #require(throws: StrataError.self) {
                let db = try Database(path: path, configuration: wrong)
                _ = try db.read { try $0.fetch(sql: "SELECT v FROM secret") }
            }
            #expect(error.resultCode == 26)  // SQLITE_NOTADB
        }
        let db = try Database(path: path, configuration: .init(key: "right key"))
        #expect(try db.read { try $0.fetchValue(String.self, sql: "SELECT v FROM secret WHERE id = 1") } == "plans")
    }
}
