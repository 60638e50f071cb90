import Foundation
import Strata
import StrataTestSupport
import Testing

/// The fingerprint's manifest and digest are recorded in every migrated database, so a faster
/// computation must give them byte for byte: these values were computed independently (Python's
/// `sqlite3` and `hashlib`, following the format `SchemaFingerprint` documents) for a schema with
/// escaped names, non-ASCII names, an index without SQL (a UNIQUE constraint's), a view, a trigger,
/// and the objects the fingerprint leaves out (`strata_migrations` and its index, `sqlite_sequence`).
@Suite struct SchemaFingerprintTests {
    static let schema = """
        CREATE TABLE "we\tird" (id INTEGER PRIMARY KEY, "na\\me" TEXT UNIQUE);
        CREATE TABLE "Ünïcode" (a TEXT);
        CREATE TABLE b (x);
        CREATE INDEX "idx\nnl" ON b (x);
        CREATE INDEX "Z_upper" ON b (x DESC);
        CREATE VIEW v AS SELECT 1;
        CREATE TRIGGER t AFTER INSERT ON b BEGIN SELECT 1; END;
        CREATE TABLE strata_migrations (version INTEGER PRIMARY KEY);
        CREATE INDEX strata_idx ON strata_migrations (version);
        CREATE TABLE aa (id INTEGER PRIMARY KEY AUTOINCREMENT);

        """

    @Test func manifestAndDigestAreTheDocumentedFormat() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("f.sqlite"))
        try db.writeWithoutTransaction { try $0.execute(sql: Self.schema) }
        let fingerprint = try db.read { try SchemaFingerprint($0) }
        #expect(
            fingerprint.manifest
                == "index\tZ_upper\t4b46d0fafb18db1e\nindex\tidx\\nnl\t8d501c260a78700e\nindex\tsqlite_autoindex_we\\tird_1\t1f535f0dac1cc2e7\ntable\taa\tb973730e3d0c1fe2\ntable\tb\ta5069025abee1fb3\ntable\twe\\tird\t6d974c680dc37978\ntable\tÜnïcode\t1fd33587988b768a\ntrigger\tt\tc79ceec264c2c855\nview\tv\tda18900481dc6b4b"
        )
        #expect(fingerprint.digest == "80162101d71408d015230abe477d2350e8df84789c716500197a33e164d7ac48")
        // Computed twice on one connection (its statement is cached), the same.
        #expect(try db.read { try SchemaFingerprint($0) } == fingerprint)
    }

    /// The manifest is sorted by the UTF-8 bytes of the names whatever the file's text
    /// encoding: a UTF-16 database (whose own order differs: `Ā` is `00 01` in UTF-16LE) gives
    /// the fingerprint of the same schema in a UTF-8 one.
    @Test func aUTF16DatabaseHasTheFingerprintOfItsSchema() throws {
        let schema = #"CREATE TABLE "a" (x); CREATE TABLE "Ā" (x); CREATE TABLE "b" (x);"#
        func fingerprint(encoding: String) throws -> SchemaFingerprint {
            let db = try Database.inMemory()
            return try db.writeWithoutTransaction { conn in
                try conn.execute(sql: "PRAGMA encoding = '\(encoding)'")
                try conn.execute(sql: schema)
                #expect(try conn.fetchValue(String.self, sql: "PRAGMA encoding") == encoding)
                return try SchemaFingerprint(conn)
            }
        }
        let utf16 = try fingerprint(encoding: "UTF-16le")
        #expect(utf16 == (try fingerprint(encoding: "UTF-8")))
        #expect(utf16.manifest.split(separator: "\n").map { $0.split(separator: "\t")[1] } == ["a", "b", "Ā"])
    }

    /// Lengths around the block and padding boundaries (55, 56, 63, 64, 65, 119, 120 bytes) and a
    /// long message; bytes `(i * 7 + 3) & 0xff`; digests from Python's `hashlib`.
    @Test func sha256AtBlockBoundaries() {
        let expected: [(Int, String)] = [
            (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
            (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
            (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
            (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
            (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
            (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
            (120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"),
            (1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371"),
        ]
        for (count, digest) in expected {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            #expect(SHA256.hex(of: bytes) == digest, "\(count) bytes")
            // A collection without contiguous storage takes the copying path.
            #expect(SHA256.hex(of: bytes.lazy.map { $0 }) == digest, "\(count) bytes, lazy")
        }
    }
}
