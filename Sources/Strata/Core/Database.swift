import CSQLite
import Foundation

/// A SQLite database: a file or an in-memory database, safe to use from any thread or task.
///
/// A file database runs in WAL mode with one writer connection and a small pool of reader
/// connections, so reads go on while a write is in progress and each read sees a consistent
/// snapshot. Writes are serialized: two threads writing at once both succeed, one after the
/// other, and a lock held by another process is waited for up to the busy timeout.
///
/// ```swift
/// let db = try Database(path: "library.sqlite")
/// try db.write { conn in
///     try conn.execute(sql: "INSERT INTO author(name) VALUES (?)", arguments: ["Ann Leckie"])
/// }
/// let count = try db.read { conn in try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM author") }
/// ```
///
/// See <https://www.sqlite.org/wal.html>.
public final class Database: Sendable {
    /// How a database is opened.
    public struct Configuration: Sendable {
        /// Open without write access: ``Database/write(_:)-4oj87`` throws. The file must exist.
        ///
        /// A WAL database needs its `-shm` file to be read safely. When that file does not
        /// exist and cannot be created (a read-only folder) and there is no `-wal` file with
        /// content, the file alone holds every committed transaction, and it is opened with
        /// SQLite's `immutable=1` instead: no locks are taken, so a process that starts writing
        /// to it meanwhile is not seen.
        public var readOnly: Bool = false
        /// Maximum number of reader connections of a file database.
        public var maximumReaderCount: Int = 4
        /// How long a connection waits for a lock held by another process before failing
        /// with `SQLITE_BUSY`.
        public var busyTimeout: TimeInterval = 10
        /// `PRAGMA foreign_keys = ON` on every connection.
        public var foreignKeys: Bool = true
        /// How often observation (``Database/observe(_:)-4rg1g``) checks `PRAGMA data_version` for
        /// commits made by other `Database` values and other processes; nil turns the checks
        /// off. Commits through this `Database` are seen at once either way.
        public var observationPollingInterval: TimeInterval? = 0.1
        /// The name of a registered SQLite VFS to open the file's connections with
        /// (<https://www.sqlite.org/vfs.html>); nil, the default, uses SQLite's default VFS.
        /// Strata's reliability tests use one that injects I/O errors.
        public var vfs: String? = nil
        /// With ``readOnly-property``: open the file as `immutable=1` (sqlite.org/uri.html): SQLite reads it
        /// without taking locks and never creates a `-journal`, `-wal` or `-shm` file beside it.
        /// Only for a file no other connection writes while it is open, and whose WAL is
        /// checkpointed (no `-wal` file), since an immutable open ignores a `-wal` file.
        public var immutable: Bool = false
        /// The SQLCipher key (passphrase) of an encrypted database, issued with `PRAGMA key`
        /// on every connection before anything else; nil, the default, opens an unencrypted
        /// file. Needs Strata built against SQLCipher (docs/Encryption.md): on plain SQLite,
        /// opening with a key throws instead of writing an unencrypted file.
        public var key: String? = nil
        /// The clock of expiring rows (`expires: true`, docs/Expiry.md): what "now" is for
        /// generated reads, which leave out rows whose `expiresAt` has passed, for
        /// `expiresIn:` inserts, and for `purgeExpired`. The default is the system clock; tests
        /// set a clock they control.
        ///
        /// ```swift
        /// var configuration = Library.configuration
        /// configuration.now = { Date(timeIntervalSince1970: 1_000_000) }
        /// ```
        public var now: @Sendable () -> Date = { Date() }
        /// Collations the app registers, by name, on every connection (`collate: unicase` in a
        /// schema file, `COLLATE unicase` in SQL): see ``Database/Collation``. Opening a file
        /// whose tables or indexes use a collation that is neither built in nor registered
        /// throws an error that names the collation and the column.
        public var collations: [String: Database.Collation] = [:]
        /// For Strata's own tools (the compiler's in-memory checks, `strata introspect`): every
        /// collation SQLite does not know compares as `BINARY`, and opening checks none. Never
        /// for a database whose indexes are written: they would be ordered by the wrong rule.
        package var placeholderCollations = false

        /// The default configuration.
        public init() {}

        /// A read-only configuration.
        public static var readOnly: Configuration {
            var configuration = Configuration()
            configuration.readOnly = true
            return configuration
        }
    }

    /// The file path, or `:memory:`.
    public let path: String
    /// How the database was opened.
    public let configuration: Configuration

    /// The writer connection; nil for a read-only database.
    private let writer: SerializedConnection?
    /// The reader pool; nil for an in-memory database (its reads use the writer connection).
    private let readers: ReaderPool?
    /// The threads that run async reads: as many as there are reader connections.
    let readerThreads: WorkerThreads
    /// The thread that runs async writes (and the reads of an in-memory database).
    let writerThread = WorkerThreads(maximum: 1, name: "Strata.Database.writer")

    /// True when reads have connections of their own (a file database).
    var hasReaderPool: Bool { readers != nil }

    /// Observation's observers, hooks and poller (Database+Observation.swift).
    let observationCenter = ObservationCenter()

    /// Opens (and creates when missing) the database file at `path`, in WAL mode. `:memory:`
    /// (or an empty path) opens an in-memory database, as ``inMemory(configuration:)`` does.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        if path == ":memory:" || path.isEmpty {
            try self.init(memoryWith: configuration)
        } else {
            try self.init(filePath: path, configuration: configuration)
        }
    }

    private init(filePath path: String, configuration: Configuration) throws {
        try Database.checkKeySupport(configuration, path: path)
        self.path = path
        self.configuration = configuration
        readerThreads = WorkerThreads(maximum: configuration.maximumReaderCount, name: "Strata.Database.reader")
        if configuration.readOnly {
            guard FileManager.default.fileExists(atPath: path) else {
                throw StrataError(kind: .sqlite, resultCode: SQLITE_CANTOPEN, message: "cannot open \(path) read-only: no such file")
            }
            writer = nil
        } else {
            let connection = try Connection(
                path: path, readOnly: false, create: true, busyTimeout: configuration.busyTimeout, vfs: configuration.vfs)
            try Database.namingFile(path) {
                try Database.unlock(connection, configuration, path: path)
                if sqlite3_db_readonly(connection.handle, "main") == 1 {
                    // SQLite opens a file it may not write read-only without saying so.
                    throw StrataError(
                        kind: .sqlite, resultCode: SQLITE_READONLY, extendedResultCode: SQLITE_READONLY,
                        message: "attempt to write a readonly database: the file, or its folder, is not writable by this process")
                }
                try connection.execute(sql: "PRAGMA journal_mode = WAL")
                try Database.prepare(connection, configuration)
                try Database.checkCollations(connection, configuration)
            }
            writer = SerializedConnection(connection)
        }
        readers = ReaderPool(
            path: path, configuration: configuration,
            // An immutable open asked for must not be probed first: the probe's plain open
            // would create the -wal and -shm files the caller wants left alone.
            immutable: configuration.readOnly && (configuration.immutable || Database.needsImmutableReads(path, configuration)))
        if configuration.readOnly {
            // Fail now, not at the first read, when the file is not a database.
            try Database.namingFile(path) {
                try readers?.withConnection { conn in
                    _ = try conn.fetch(sql: "SELECT count(*) FROM sqlite_master")
                    try Database.checkCollations(conn, configuration)
                }
            }
        }
    }

    /// Runs `body`, putting the file's name in front of the message of a SQLite error, so
    /// "file is not a database" says which file.
    static func namingFile(_ path: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch var error as StrataError where error.kind == .sqlite && !error.message.contains(path) {
            error.message = "\(path): \(error.message)"
            error.sql = nil
            throw error
        }
    }

    private init(memoryWith configuration: Configuration) throws {
        try Database.checkKeySupport(configuration, path: ":memory:")
        var configuration = configuration
        configuration.readOnly = false
        self.path = ":memory:"
        self.configuration = configuration
        readerThreads = WorkerThreads(maximum: 1, name: "Strata.Database.reader")
        let connection = try Connection(path: ":memory:", readOnly: false, create: true, busyTimeout: configuration.busyTimeout)
        try Database.unlock(connection, configuration, path: ":memory:")
        try Database.prepare(connection, configuration)
        writer = SerializedConnection(connection)
        readers = nil
    }

    deinit {
        readerThreads.shutDown()
        writerThread.shutDown()
    }

    /// A new, empty in-memory database: one connection serves reads and writes.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> Database {
        try Database(memoryWith: configuration)
    }

    static func prepare(_ connection: Connection, _ configuration: Configuration) throws {
        connection.clock = configuration.now
        try registerCollations(connection, configuration)
        try connection.execute(sql: "PRAGMA foreign_keys = \(configuration.foreignKeys ? "ON" : "OFF")")
    }

    // MARK: - Access

    /// Runs `body` with a reader connection inside a read transaction: it sees one consistent
    /// snapshot of the database, even while a writer commits.
    ///
    /// Reads nest: a `read` inside a `read` reuses the same connection and snapshot, and a
    /// `read` inside a `write` runs on the writer, so it sees the write's own changes.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        if let writer, writer.isHeldByCurrentThread || readers == nil {
            return try writer.withConnection { conn in
                if conn.isInTransaction { return try body(conn) }
                defer { conn.endAccess() }
                return try conn.inTransaction(.deferred) { try body(conn) }
            }
        }
        guard let readers else { throw StrataError.misuse("the database is closed") }
        return try readers.withConnection { conn, isNested in
            if isNested { return try body(conn) }
            defer { conn.endAccess() }
            return try conn.inTransaction(.deferred) { try body(conn) }
        }
    }

    /// Runs `body` in a write transaction: it commits when `body` returns and rolls back,
    /// leaving no trace, when `body` throws. Use ``Connection/savepoint(_:)`` to nest.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try writeWithoutTransaction { conn in
            try conn.inTransaction(.immediate) { try body(conn) }
        }
    }

    /// Runs `body` with the writer connection outside any transaction, for work that must
    /// happen between transactions (some `PRAGMA`s, `VACUUM`, the migrator). Each statement
    /// commits on its own unless `body` opens a transaction; a transaction `body` leaves open
    /// is rolled back and reported as misuse.
    public func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let writer else {
            throw StrataError.misuse("the database \(path) is open read-only")
        }
        return try writer.withConnection { conn in
            guard !conn.isInTransaction else {
                throw StrataError.misuse("write was called inside another write on the same thread; use conn.savepoint { } to nest")
            }
            defer { conn.endAccess() }
            let result: T
            do {
                result = try body(conn)
            } catch {
                conn.rollbackQuietly()
                throw error
            }
            if conn.isInTransaction {
                conn.rollbackQuietly()
                throw StrataError.misuse("the closure left a transaction open; it was rolled back")
            }
            return result
        }
    }
}

/// A connection used by one thread at a time; the thread that holds it may enter again.
final class SerializedConnection: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private let connection: Connection
    /// The thread holding the lock, and how deeply (guarded by `ownerLock`).
    private let owner = Protected<(thread: ObjectIdentifier?, depth: Int)>((nil, 0))

    init(_ connection: Connection) {
        self.connection = connection
    }

    /// True when the calling thread is inside ``withConnection(_:)``.
    var isHeldByCurrentThread: Bool {
        let current = ObjectIdentifier(Thread.current)
        return owner.withLock { $0.thread == current }
    }

    func withConnection<T>(_ body: (Connection) throws -> T) rethrows -> T {
        lock.lock()
        let current = ObjectIdentifier(Thread.current)
        owner.withLock { $0 = (current, $0.depth + 1) }
        defer {
            owner.withLock { $0 = $0.depth > 1 ? (current, $0.depth - 1) : (nil, 0) }
            lock.unlock()
        }
        return try body(connection)
    }
}

/// Reader connections of a file database, opened on demand up to a maximum. A thread that
/// already holds one gets the same one again (nested reads), so nesting cannot exhaust the pool.
final class ReaderPool: @unchecked Sendable {
    private let path: String
    private let configuration: Configuration
    private let available: DispatchSemaphore
    private let idle = Protected<[Connection]>([])
    /// The connection each thread holds, with its nesting depth.
    private let lent = Protected<[ObjectIdentifier: (connection: Connection, depth: Int)]>([:])

    typealias Configuration = Database.Configuration

    private let immutable: Bool

    init(path: String, configuration: Configuration, immutable: Bool = false) {
        self.path = path
        self.configuration = configuration
        self.immutable = immutable
        available = DispatchSemaphore(value: max(1, configuration.maximumReaderCount))
    }

    /// Runs `body` with this thread's reader; `isNested` is true when the thread already held it.
    func withConnection<T>(_ body: (Connection, _ isNested: Bool) throws -> T) throws -> T {
        let thread = ObjectIdentifier(Thread.current)
        if let held = lent.withLock({ table -> Connection? in
            guard let entry = table[thread] else { return nil }
            table[thread] = (entry.connection, entry.depth + 1)
            return entry.connection
        }) {
            defer { lent.withLock { table in table[thread] = table[thread].map { ($0.connection, $0.depth - 1) } } }
            return try body(held, true)
        }
        available.wait()
        defer { available.signal() }
        let connection = try idle.withLock { $0.popLast() } ?? open()
        lent.withLock { $0[thread] = (connection, 1) }
        defer {
            lent.withLock { $0[thread] = nil }
            idle.withLock { $0.append(connection) }
        }
        return try body(connection, false)
    }

    /// Runs `body` with a reader (for callers that never nest).
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        try withConnection { connection, _ in try body(connection) }
    }

    private func open() throws -> Connection {
        let connection = try Connection(
            path: path, readOnly: true, create: false, busyTimeout: configuration.busyTimeout, vfs: configuration.vfs,
            immutable: immutable)
        try Database.unlock(connection, configuration, path: path)
        try Database.prepare(connection, configuration)
        return connection
    }
}
