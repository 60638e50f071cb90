import CSQLite
import Foundation

extension Database.Configuration {
    /// A configuration that opens an encrypted database with `key` (SQLCipher's passphrase).
    ///
    /// Encryption needs Strata built against SQLCipher instead of SQLite (see
    /// `docs/Encryption.md`). Opening with a key on a SQLite without encryption throws a
    /// ``StrataError`` instead of opening the file unencrypted.
    ///
    /// ```swift
    /// let db = try Database(path: "vault.sqlite", configuration: .init(key: passphrase))
    /// ```
    public init(key: String) {
        self.init()
        self.key = key
    }
}

extension Database {
    /// True when the linked SQLite is SQLCipher, so ``Configuration/key`` can be used.
    public static var supportsEncryption: Bool {
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nil) == SQLITE_OK,
              let handle else { return false }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, "PRAGMA cipher_version", -1, &statement, nil) == SQLITE_OK else { return false }
        // SQLite ignores an unknown pragma: only SQLCipher answers with a row.
        return sqlite3_step(statement) == SQLITE_ROW
    }

    /// Refuses a key when this SQLite cannot encrypt; runs before any file is opened, so no
    /// unencrypted file is created.
    static func checkKeySupport(_ configuration: Configuration, path: String) throws {
        guard configuration.key != nil, !supportsEncryption else { return }
        throw StrataError(
            kind: .misuse, resultCode: SQLITE_MISUSE,
            message: "cannot open \(path) with a key: the linked SQLite (\(String(cString: sqlite3_libversion()))) is not SQLCipher, so it cannot encrypt; build Strata against SQLCipher (docs/Encryption.md)")
    }

    /// Issues the configuration's key on a fresh connection, before anything else reads the
    /// file, then checks it: a wrong key (or an unencrypted file opened with a key, or an
    /// encrypted one opened without) is a typed error here, not garbage later.
    static func unlock(_ connection: Connection, _ configuration: Configuration, path: String) throws {
        guard let key = configuration.key else { return }
        try connection.execute(sql: "PRAGMA key = \(SQLQuoting.literal(key))")
        do {
            _ = try connection.fetch(sql: "SELECT count(*) FROM sqlite_master")
        } catch let error as StrataError where error.resultCode == SQLITE_NOTADB {
            throw StrataError(
                kind: .sqlite, resultCode: SQLITE_NOTADB, extendedResultCode: error.extendedResultCode,
                message: "cannot open \(path): the key is wrong, or the file is not an encrypted database (\(error.message))")
        }
    }
}
