import Logging
import PostgresNIO

/// The connections of one ``PostgresDatabase``: at most `maximumConnections` open, idle ones
/// reused, and new ones made to the first host (starting from the last good one) that
/// qualifies for the configured target session attributes.
actor ConnectionPool {
    private let configuration: PostgresDatabase.Configuration
    private let logger: Logger
    private let tls: PostgresConnection.Configuration.TLS
    private var idle: [PostgresConnection] = []
    /// Connections lent out or being opened.
    private var busy = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var hostIndex = 0
    private var nextID = 0
    private var isClosed = false

    init(configuration: PostgresDatabase.Configuration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        switch configuration.tls {
        case .disable:
            tls = .disable
        case .prefer:
            tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require:
            tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }

    var currentHost: PostgresDatabase.Configuration.Host { configuration.hosts[hostIndex] }

    /// Opens the first connection, so that a bad URL or an unreachable cluster fails at once.
    func warmUp() async throws {
        let connection = try await lease()
        release(connection, broken: false)
    }

    /// Lends a connection to `body` and takes it back; a connection that failed is dropped.
    nonisolated func withConnection<T: Sendable>(_ body: (PostgresDatabase.Connection) async throws -> T) async throws -> T {
        let (underlying, host) = try await leaseWithHost()
        let connection = PostgresDatabase.Connection(underlying: underlying, logger: logger, host: host)
        do {
            let value = try await body(connection)
            await release(underlying, broken: underlying.isClosed)
            return value
        } catch {
            let mapped = StrataError.fromPostgres(error, sql: nil, host: host.description)
            let broken = underlying.isClosed || (mapped as? StrataError)?.kind == .connection
            await release(underlying, broken: broken)
            throw mapped
        }
    }

    private func leaseWithHost() async throws -> (PostgresConnection, PostgresDatabase.Configuration.Host) {
        let connection = try await lease()
        return (connection, currentHost)
    }

    private func lease() async throws -> PostgresConnection {
        while true {
            guard !isClosed else { throw StrataError.misuse("the PostgresDatabase is closed") }
            while let connection = idle.popLast() {
                if !connection.isClosed {
                    busy += 1
                    return connection
                }
            }
            if busy < configuration.maximumConnections {
                busy += 1
                do {
                    return try await connect()
                } catch {
                    busy -= 1
                    wakeOne()
                    throw error
                }
            }
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    private func release(_ connection: PostgresConnection, broken: Bool) {
        busy -= 1
        if broken || isClosed {
            if broken { logger.debug("strata: dropping the connection \(connection.id) and \(idle.count) idle ones") }
            Self.discard(connection)
            if broken {
                // The server is probably gone: its other connections are of no use either.
                idle.forEach(Self.discard)
                idle.removeAll()
            }
        } else {
            idle.append(connection)
        }
        wakeOne()
    }

    /// Closes `connection` in the background; the closure keeps it alive until it is closed
    /// (postgres-nio asserts that a connection is closed before it is freed).
    private static func discard(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    private func wakeOne() {
        if !waiters.isEmpty { waiters.removeFirst().resume() }
    }

    /// A new connection to the first host, from the last good one on, that qualifies; rounds
    /// over all hosts are repeated with a growing pause until `failoverTimeout`.
    private func connect() async throws -> PostgresConnection {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.failoverTimeout)
        var pause = Duration.milliseconds(50)
        var failures: [String] = []
        repeat {
            failures.removeAll()
            let start = hostIndex
            for step in 0..<configuration.hosts.count {
                let index = (start + step) % configuration.hosts.count
                let host = configuration.hosts[index]
                do {
                    if let connection = try await connect(to: host) {
                        if index != hostIndex {
                            logger.info("strata: now using \(host)")
                            hostIndex = index
                        }
                        return connection
                    }
                    failures.append("\(host) is in recovery (a standby)")
                } catch {
                    let mapped = StrataError.fromPostgres(error, sql: nil, host: host.description)
                    // A server that answers with an error of its own (a wrong password, no such
                    // database) gives the same answer next time: no point in waiting.
                    if let refusal = mapped as? StrataError, refusal.kind == .postgres { throw refusal }
                    failures.append("\(mapped)")
                }
            }
            guard !isClosed else { throw StrataError.misuse("the PostgresDatabase is closed") }
            try await Task.sleep(for: min(pause, deadline - clock.now))
            pause = min(pause * 2, .seconds(1))
        } while clock.now < deadline
        let wanted = configuration.targetSessionAttributes == .readWrite ? "accepts writes" : "answers"
        throw StrataError(
            kind: .connection,
            message: "no server that \(wanted) within \(configuration.failoverTimeout): \(failures.joined(separator: "; "))")
    }

    /// A connection to `host`, or nil when it is a standby and a writable server is wanted.
    ///
    /// postgres-nio bounds the TCP connect by `connectTimeout`; the startup and the recovery
    /// check that follow are not timed here: a timer of the caller's would fire spuriously when
    /// the process is busy (a loaded test run starved such connections for over ten seconds).
    private func connect(to host: PostgresDatabase.Configuration.Host) async throws -> PostgresConnection? {
        var options = PostgresConnection.Configuration(
            host: host.host, port: host.port, username: configuration.username, password: configuration.password,
            database: configuration.database, tls: tls)
        let timeout = configuration.connectTimeout.components
        options.options.connectTimeout = .nanoseconds(timeout.seconds * 1_000_000_000 + timeout.attoseconds / 1_000_000_000)
        nextID += 1
        let connection = try await PostgresConnection.connect(configuration: options, id: nextID, logger: logger)
        guard configuration.targetSessionAttributes == .readWrite else { return connection }
        do {
            // Cancelled: closing the connection fails the query, which does not watch cancellation.
            let rows = try await withTaskCancellationHandler {
                try await connection.query("SELECT pg_is_in_recovery()", logger: logger).collect()
            } onCancel: {
                connection.close().whenComplete { _ in }
            }
            if try rows.first?.decode(Bool.self) == false { return connection }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
        return nil
    }

    /// A database dropped without ``close()`` still closes its idle connections.
    deinit {
        idle.forEach(Self.discard)
    }

    /// Closes the idle connections now and the lent ones as they come back.
    func close() async throws {
        isClosed = true
        let connections = idle
        idle.removeAll()
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
        for connection in connections { try? await connection.close() }
    }
}
