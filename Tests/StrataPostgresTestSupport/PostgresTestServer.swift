import Foundation
import StrataPostgres
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for tests: `initdb` in a temporary folder (as the unprivileged
/// `postgres` user when the tests run as root, since initdb refuses root), `pg_ctl` on a free
/// loopback port with trust authentication and the unix socket in the same folder. ``stop()``
/// (or the end of the test process) shuts it down and removes the folder.
///
/// A suite gets one cluster through the ``PostgresServerTrait`` and reads it with
/// ``current()``:
///
/// ```swift
/// @Suite(.postgreSQLInstalled, .postgresServer)
/// struct MyTests {
///     @Test func roundTrip() async throws {
///         let pg = try await PostgresTestServer.current().makeDatabase()
///         defer { Task { try? await pg.close() } }
///         …
///     }
/// }
/// ```
///
/// Without PostgreSQL the suite is skipped with one line; under `CI=true` it runs and fails.
public final class PostgresTestServer: Sendable {
    /// The folder that holds the cluster (`data/`), its log and its socket.
    public let directory: URL
    /// The loopback port it listens on.
    public let port: Int
    /// The user name of the superuser `initdb` created (trust authentication, no password).
    public static let user = "strata"

    /// The data directory.
    public var dataDirectory: URL { directory.appendingPathComponent("data") }
    /// The server's log.
    public var logFile: URL { directory.appendingPathComponent("server.log") }

    /// A URL of `database` (default: `postgres`) on this server.
    public func url(database: String = "postgres") -> String {
        "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)"
    }

    private init(directory: URL, port: Int) {
        self.directory = directory
        self.port = port
    }

    // MARK: Finding PostgreSQL

    /// The directory of `initdb`, `pg_ctl`, `pg_basebackup`: `STRATA_PG_BINDIR` (nil when it has no
    /// initdb, which also shows what a machine without PostgreSQL does), else the newest
    /// `/usr/lib/postgresql/N/bin` (Debian), else the directory of `pg_config --bindir`'s answer
    /// or of `initdb` on `PATH`.
    public static let binDirectory: URL? = {
        let fileManager = FileManager.default
        if let configured = ProcessInfo.processInfo.environment["STRATA_PG_BINDIR"] {
            let bin = URL(fileURLWithPath: configured)
            return fileManager.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) ? bin : nil
        }
        let debian = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? fileManager.contentsOfDirectory(atPath: debian.path)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let bin = debian.appendingPathComponent("\(version)/bin")
            if fileManager.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("initdb")
            if fileManager.isExecutableFile(atPath: candidate.path) {
                return candidate.resolvingSymlinksInPath().deletingLastPathComponent()
            }
        }
        return nil
    }()

    /// Whether PostgreSQL's server programs are installed.
    public static var isInstalled: Bool { binDirectory != nil }

    /// CI sets `CI=true`: there a missing PostgreSQL is a failure, locally a skipped suite.
    public static var isCI: Bool {
        ["true", "1"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "")
    }

    /// The line a skipped suite prints.
    public static let skipReason: Comment =
        "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH): the PostgreSQL tests are skipped; apt-get install postgresql to run them"

    // MARK: Starting and stopping

    /// Creates and starts a new cluster. `configuration` lines are appended to `postgresql.conf`.
    public static func start(configuration extra: [String] = []) throws -> PostgresTestServer {
        let directory = try makeDirectory()
        do {
            try run("initdb", ["-D", directory.appendingPathComponent("data").path, "-A", "trust", "-U", user, "-E", "UTF8", "--locale=C", "--no-sync"], in: directory)
            return try startServer(in: directory, extra: extra)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Configures a cluster in `directory/data` for a free port and starts it; a port taken by
    /// someone else in the meantime makes it try another, up to three times.
    private static func startServer(in directory: URL, extra: [String], port fixedPort: Int? = nil) throws -> PostgresTestServer {
        var lastError: (any Error)?
        // A fixed port (a standby that takes the place of a dead primary) is retried too: the
        // dead server's backends may hold it for a moment.
        for attempt in 0..<(fixedPort == nil ? 3 : 10) {
            if fixedPort != nil, attempt > 0 { usleep(300_000) }
            let port = try fixedPort ?? freePort()
            let lines = [
                "", "# strata test server",
                "listen_addresses = '127.0.0.1'", "port = \(port)", "unix_socket_directories = '\(directory.path)'",
                "fsync = off", "max_connections = 60", "shared_buffers = 16MB", "max_wal_senders = 4", "wal_level = replica",
                "logging_collector = off",
            ] + extra
            try append(lines, to: directory.appendingPathComponent("data/postgresql.conf"))
            let server = PostgresTestServer(directory: directory, port: port)
            do {
                try run("pg_ctl", ["-D", server.dataDirectory.path, "-l", server.logFile.path, "-w", "-t", "60", "start"], in: directory)
                registry.withLock { _ = $0.insert(directory.path) }
                return server
            } catch {
                lastError = error
            }
        }
        throw lastError ?? TestServerError(message: "the server did not start")
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`) and removes its folder.
    public func stop() {
        Self.stop(directory: directory)
    }

    private static func stop(directory: URL) {
        _ = try? run("pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", "immediate", "-w", "-t", "30", "stop"], in: directory)
        try? FileManager.default.removeItem(at: directory)
        registry.withLock { _ = $0.remove(directory.path) }
    }

    /// Kills the postmaster with SIGKILL (a crash: no shutdown checkpoint, no goodbye to clients).
    /// Its backends notice their parent's death and exit on their own.
    public func kill() throws {
        let pid = try postmasterID()
        guard Glibc.kill(pid, SIGKILL) == 0 else { throw TestServerError(message: "kill(\(pid), SIGKILL) failed: errno \(errno)") }
    }

    /// The postmaster's process id.
    public func postmasterID() throws -> Int32 {
        let pidFile = dataDirectory.appendingPathComponent("postmaster.pid")
        let text = try String(contentsOf: pidFile, encoding: .utf8)
        guard let first = text.split(separator: "\n").first, let pid = Int32(first) else {
            throw TestServerError(message: "no pid in \(pidFile.path)")
        }
        return pid
    }

    /// The postmaster and its children (the backends, the WAL writer, the WAL sender …), from
    /// /proc; only processes named `postgres` (a dead postmaster's id may have been reused).
    public func processIDs() throws -> [Int32] {
        func isPostgres(_ pid: Int32) -> Bool {
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "postgres"
        }
        let postmaster = try postmasterID()
        guard isPostgres(postmaster) else { return [] }
        var ids = [postmaster]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), isPostgres(pid),
                let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // `pid (comm) state ppid …`: the fields after the command's closing parenthesis.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == postmaster { ids.append(pid) }
        }
        return ids
    }

    /// Sends `signal` to the whole server at once: to the postmaster's process group (the
    /// postmaster is a session leader, its children are in its group), then to each process
    /// found in /proc, for one that left the group.
    private func signalAll(_ signal: Int32) throws {
        let ids = try processIDs()
        guard let postmaster = ids.first else { return }
        _ = Glibc.kill(-postmaster, signal)
        for pid in ids { _ = Glibc.kill(pid, signal) }
    }

    /// Freezes the whole server (SIGSTOP to the postmaster and every child): a host that hangs.
    /// The kernel still accepts TCP connections to its port; nothing answers them.
    public func freeze() throws {
        try signalAll(SIGSTOP)
    }

    /// Lets a frozen server run again (SIGCONT).
    public func thaw() throws {
        try signalAll(SIGCONT)
    }

    /// Kills the postmaster and every child with SIGKILL at once (frozen or not), as a crash of
    /// its machine would: nothing of the server runs afterwards, so it cannot commit anything
    /// more. (After ``kill()`` the backends and the WAL sender live on for a moment.)
    public func killAll() throws {
        try signalAll(SIGKILL)
    }

    /// A streaming-replication standby of this server in a new folder: `pg_basebackup -R`
    /// (which writes `primary_conninfo` and `standby.signal`; `--no-sync`, like the servers'
    /// `fsync = off`), on `port` (default: a free one), started.
    public func makeStandby(port: Int? = nil) throws -> PostgresTestServer {
        let directory = try Self.makeDirectory()
        do {
            try Self.run(
                "pg_basebackup",
                ["-h", "127.0.0.1", "-p", "\(self.port)", "-U", Self.user, "-D", directory.appendingPathComponent("data").path, "-R", "-X", "stream", "-c", "fast", "--no-sync"],
                in: directory)
            // The copy has the primary's pid file removed by pg_basebackup; its port and socket folder are replaced.
            return try Self.startServer(in: directory, extra: ["primary_slot_name = ''"], port: port)
        } catch {
            Self.stop(directory: directory)
            throw error
        }
    }

    /// Promotes this standby to a primary (`pg_ctl promote -w`).
    public func promote() throws {
        try Self.run("pg_ctl", ["-D", dataDirectory.path, "-w", "-t", "60", "promote"], in: directory)
    }

    /// A new empty database with a unique name, opened; close it when done.
    public func makeDatabase(
        isolation: isolated (any Actor)? = #isolation, configure: (inout PostgresDatabase.Configuration) -> Void = { _ in }
    ) async throws -> PostgresDatabase {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let admin = try await PostgresDatabase(url: url())
        do {
            try await admin.withConnection { conn in try await conn.execute(sql: "CREATE DATABASE \(name)") }
            try await admin.close()
        } catch {
            try? await admin.close()
            throw error
        }
        var configuration = try PostgresDatabase.Configuration(url: url(database: String(name)))
        configure(&configuration)
        return try await PostgresDatabase(configuration: configuration)
    }

    /// Runs blocking `work` (starting, promoting a server: initdb, pg_ctl, pg_basebackup run for
    /// seconds) on a Dispatch thread, so that it does not hold one of the few threads that every
    /// test's async code shares.
    public static func offCooperativeThreads<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    // MARK: The server of a suite

    @TaskLocal static var suiteServer: PostgresTestServer?

    /// The server that ``PostgresServerTrait`` started for the running suite.
    public static func current() throws -> PostgresTestServer {
        guard let server = suiteServer else {
            throw TestServerError(message: "no PostgreSQL test server: add .postgresServer to the suite's traits")
        }
        return server
    }

    // MARK: Processes, folders, ports

    /// The folders of running servers, stopped when the test process exits.
    private static let registry: Mutex<Set<String>> = {
        atexit {
            for path in PostgresTestServer.registry.withLock({ $0 }) {
                PostgresTestServer.stop(directory: URL(fileURLWithPath: path))
            }
        }
        return Mutex([])
    }()

    /// Stops the servers of test processes that died without stopping them (a crash skips
    /// `atexit`): folders whose `owner.pid` names no running process. Once per process.
    private static let removeAbandonedServers: Void = {
        let tmp = URL(fileURLWithPath: "/tmp")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            let directory = tmp.appendingPathComponent(name)
            guard let text = try? String(contentsOf: directory.appendingPathComponent("owner.pid"), encoding: .utf8),
                let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                Glibc.kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            stop(directory: directory)
        }
    }()

    /// Whether the processes run as root, which PostgreSQL's programs refuse.
    private static var isRoot: Bool { geteuid() == 0 }

    /// The prefix of the folders under /tmp.
    private static let folderPrefix = "strata-pg-"

    /// A new folder under /tmp, owned by `postgres` when running as root, holding `owner.pid`.
    private static func makeDirectory() throws -> URL {
        removeAbandonedServers
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("\(folderPrefix)\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("\(getpid())\n".utf8).write(to: directory.appendingPathComponent("owner.pid"))
        if isRoot {
            guard let account = getpwnam("postgres") else {
                try? FileManager.default.removeItem(at: directory)
                throw TestServerError(
                    message: "the tests run as root and there is no postgres user to run initdb as (Debian's postgresql package creates it)")
            }
            guard chown(directory.path, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
                throw TestServerError(message: "chown \(directory.path) to postgres failed: errno \(errno)")
            }
        }
        return directory
    }

    /// Runs PostgreSQL's `tool` (as `postgres` under root); its output goes to `directory/tools.log`,
    /// whose end is in the error when it fails.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], in directory: URL) throws -> Int32 {
        guard let bin = binDirectory else {
            throw TestServerError(
                message: "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH) and CI=true, where the PostgreSQL tests fail rather than skip: .ci/run installs it (apt-get install postgresql)")
        }
        let executable = bin.appendingPathComponent(tool).path
        // `env -C`: the tools run in the cluster's folder (the caller's may be closed to `postgres`).
        let command = ["/usr/bin/env", "-C", directory.path, executable] + arguments
        let argv = isRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + command : command
        let log = directory.appendingPathComponent("tools.log")
        let header = "$ \(tool) \(arguments.joined(separator: " "))\n"
        let status = try spawnAndWait(argv, log: log, header: header)
        guard status == 0 else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let serverLog = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            throw TestServerError(
                message: "\(tool) exited with status \(status):\n\(output.suffix(2000))\n\(serverLog.suffix(2000))")
        }
        return status
    }

    /// Runs `argv` with its output appended to `log` and waits for it
    /// (posix_spawn and waitpid: Foundation's `Process.waitUntilExit` was seen never to return
    /// when several suites start servers at once).
    private static func spawnAndWait(_ argv: [String], log: URL, header: String) throws -> Int32 {
        let fd = open(log.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { throw TestServerError(message: "cannot open \(log.path): errno \(errno)") }
        defer { close(fd) }
        _ = header.withCString { write(fd, $0, strlen($0)) }
        if isRoot, let account = getpwnam("postgres") { _ = fchown(fd, account.pointee.pw_uid, account.pointee.pw_gid) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fd, 1)
        posix_spawn_file_actions_adddup2(&actions, fd, 2)
        // Nothing else is inherited: `pg_ctl start` leaves a server running, and a server holding
        // the write end of a pipe that another test's `Process` reads (Foundation's pipes are not
        // close-on-exec) keeps that read from ever ending: the test run hung at its last test.
        closeInheritedDescriptors(&actions)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw TestServerError(message: "posix_spawn \(argv[0]) failed: error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw TestServerError(message: "waitpid failed: errno \(errno)") }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import: a signal is reported as 128 + its number.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Adds the file actions that close every descriptor from 3 up in the child:
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+; Swift does not import it, so it is
    /// looked up), or else one `addclose` per descriptor `/proc/self/fd` lists.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") {
            let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
            if closeFrom(&actions, 3) == 0 { return }
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    private static func append(_ lines: [String], to file: URL) throws {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        handle.write(Data(lines.joined(separator: "\n").appending("\n").utf8))
    }

    /// A loopback TCP port that was free a moment ago (bound to port 0, then released).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError(message: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw TestServerError(message: "bind() to 127.0.0.1:0 failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A failure of the test server harness, with the tools' output.
public struct TestServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// The message.
    public var description: String { message }
}

/// Starts one ``PostgresTestServer`` around a whole suite and stops it afterwards.
public struct PostgresServerTrait: SuiteTrait, TestScoping {
    /// Starts the server, runs the suite's tests with it as ``PostgresTestServer/current()``, stops it.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try await PostgresTestServer.offCooperativeThreads { try PostgresTestServer.start() }
        defer { server.stop() }
        try await PostgresTestServer.$suiteServer.withValue(server) {
            try await function()
        }
    }
}

extension Trait where Self == PostgresServerTrait {
    /// One throwaway PostgreSQL cluster for the suite (see ``PostgresTestServer``).
    public static var postgresServer: Self { PostgresServerTrait() }
}

extension Trait where Self == ConditionTrait {
    /// Skips the suite with one line when PostgreSQL is not installed, except under `CI=true`,
    /// where the suite runs and fails.
    public static var postgreSQLInstalled: Self {
        .enabled(if: PostgresTestServer.isInstalled || PostgresTestServer.isCI, PostgresTestServer.skipReason)
    }
}

extension PostgresTestServer {
    /// Runs `body` with a new empty database (see ``makeDatabase(configure:)``) and closes it.
    public func withDatabase<T>(
        isolation: isolated (any Actor)? = #isolation,
        configure: (inout PostgresDatabase.Configuration) -> Void = { _ in }, _ body: (PostgresDatabase) async throws -> T
    ) async throws -> T {
        let pg = try await makeDatabase(configure: configure)
        do {
            let value = try await body(pg)
            try await pg.close()
            return value
        } catch {
            try? await pg.close()
            throw error
        }
    }
}
