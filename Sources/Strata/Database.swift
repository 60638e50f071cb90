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
        public var readOnly: Bool = false
        /// Maximum number of reader connections of a file database.
        public var maximumReaderCount: Int = 4
        /// How long a connection waits for a lock held by another process before failing
        /// with `SQLITE_BUSY`.
        public var busyTimeout: TimeInterval = 10
        /// `PRAGMA foreign_keys = ON` on every connection.
        public var foreignKeys: Bool = true

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
        self.path = path
        self.configuration = configuration
        if configuration.readOnly {
            guard FileManager.default.fileExists(atPath: path) else {
                throw StrataError(kind: .sqlite, resultCode: 14, message: "cannot open \(path) read-only: no such file")
            }
            writer = nil
        } else {
            let connection = try Connection(path: path, readOnly: false, create: true, busyTimeout: configuration.busyTimeout)
            try connection.execute(sql: "PRAGMA journal_mode = WAL")
            try Database.prepare(connection, configuration)
            writer = SerializedConnection(connection)
        }
        readers = ReaderPool(path: path, configuration: configuration)
        if configuration.readOnly {
            // Fail now, not at the first read, when the file is not a database.
            try readers?.withConnection { conn in _ = try conn.fetch(sql: "SELECT count(*) FROM sqlite_master") }
        }
    }

    private init(memoryWith configuration: Configuration) throws {
        var configuration = configuration
        configuration.readOnly = false
        self.path = ":memory:"
        self.configuration = configuration
        let connection = try Connection(path: ":memory:", readOnly: false, create: true, busyTimeout: configuration.busyTimeout)
        try Database.prepare(connection, configuration)
        writer = SerializedConnection(connection)
        readers = nil
    }

    /// A new, empty in-memory database: one connection serves reads and writes.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> Database {
        try Database(memoryWith: configuration)
    }

    static func prepare(_ connection: Connection, _ configuration: Configuration) throws {
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

    /// Runs `body` with a reader connection inside a read transaction, off the caller's task.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await offload { try self.read(body) }
    }

    /// Runs `body` in a write transaction, off the caller's task (see ``write(_:)``).
    public func write<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await offload { try self.write(body) }
    }

    /// Runs blocking database work off the cooperative thread pool, on a serial queue of its
    /// own. Serial queues run on Dispatch's overcommitting threads, which grow when threads
    /// block, unlike `DispatchQueue.global()` (limited to the number of cores): many callers
    /// waiting for the writer cannot starve a reader.
    private func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "Strata.Database.async").async {
                continuation.resume(with: Result { try work() })
            }
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

    init(path: String, configuration: Configuration) {
        self.path = path
        self.configuration = configuration
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
        let connection = try Connection(path: path, readOnly: true, create: false, busyTimeout: configuration.busyTimeout)
        try Database.prepare(connection, configuration)
        return connection
    }
}
