import Foundation
import Logging
import PostgresNIO

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The connections of one ``PostgresDatabase``: at most `maximumConnections` open, idle ones
/// reused, and new ones made to the first host (starting from the last good one) that
/// qualifies for the configured target session attributes.
///
/// Every lease is paired with one ``release(_:broken:)``, whatever the call did (the slot
/// count is what ``PostgresDatabase`` gives back in `defer`-like code on every path); a
/// waiter for a slot gives up after `failoverTimeout`.
actor ConnectionPool {
    private let configuration: PostgresDatabase.Configuration
    private let logger: Logger
    private let tls: PostgresConnection.Configuration.TLS
    private var idle: [PostgresConnection] = []
    /// Connections lent out or being opened.
    private var busy = 0
    private var waiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextWaiterID = 0
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

    /// Slots in use (lent out or being opened), for tests: 0 once every call has returned.
    var busyCount: Int { busy }

    /// How long the client waits for one statement's answer: the server's `statement_timeout`
    /// and one second more, so that a slow statement on a live server is the server's to cancel.
    var answerTimeout: Duration { configuration.queryTimeout + .seconds(1) }

    /// Opens the first connection, so that a bad URL or an unreachable cluster fails at once.
    func warmUp() async throws {
        let connection = try await lease()
        release(connection.underlying, broken: false)
    }

    /// A connection for one call; give it back with ``release(_:broken:)`` on every path.
    func lease() async throws -> PostgresDatabase.Connection {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.failoverTimeout)
        while true {
            guard !isClosed else { throw StrataError.misuse("the PostgresDatabase is closed") }
            while let connection = idle.popLast() {
                if !connection.isClosed {
                    busy += 1
                    return PostgresDatabase.Connection(underlying: connection, logger: logger, host: currentHost, answerTimeout: answerTimeout, clock: configuration.now)
                }
            }
            if busy < configuration.maximumConnections {
                busy += 1
                do {
                    let (connection, host) = try await connect(until: deadline)
                    return PostgresDatabase.Connection(underlying: connection, logger: logger, host: host, answerTimeout: answerTimeout, clock: configuration.now)
                } catch {
                    busy -= 1
                    wakeOne()
                    throw error
                }
            }
            guard clock.now < deadline else {
                throw StrataError(
                    kind: .connection,
                    message: "no connection became free within \(configuration.failoverTimeout): all \(configuration.maximumConnections) are in use")
            }
            await waitForSlot(until: deadline)
        }
    }

    /// A connection of its own, outside the pool's count and never lent (the observers'
    /// `LISTEN` connection): to the first host that qualifies, trying for `failoverTimeout`.
    func openDedicated() async throws -> (PostgresConnection, PostgresDatabase.Configuration.Host) {
        guard !isClosed else { throw StrataError.misuse("the PostgresDatabase is closed") }
        return try await connect(until: ContinuousClock().now.advanced(by: configuration.failoverTimeout))
    }

    /// Waits until a slot may be free, the pool closes, or `deadline`.
    private func waitForSlot(until deadline: ContinuousClock.Instant) async {
        nextWaiterID += 1
        let id = nextWaiterID
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            await self?.timeOut(waiter: id)
        }
        await withCheckedContinuation { waiters.append((id, $0)) }
        timer.cancel()
    }

    private func timeOut(waiter id: Int) {
        if let index = waiters.firstIndex(where: { $0.id == id }) {
            waiters.remove(at: index).continuation.resume()
        }
    }

    /// Takes back a lent connection; a broken one is closed, with the idle ones.
    func release(_ connection: PostgresConnection, broken: Bool) {
        busy -= 1
        if broken || isClosed || connection.isClosed {
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
        if !waiters.isEmpty { waiters.removeFirst().continuation.resume() }
    }

    /// A new connection to the first host, from the last good one on, that qualifies; rounds
    /// over all hosts are repeated with a growing pause until `deadline` (the call's
    /// `failoverTimeout`, counted from its start).
    private func connect(until deadline: ContinuousClock.Instant) async throws -> (PostgresConnection, PostgresDatabase.Configuration.Host) {
        let clock = ContinuousClock()
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
                        return (connection, host)
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
            try await Task.sleep(for: max(.zero, min(pause, deadline - clock.now)))
            pause = min(pause * 2, .seconds(1))
        } while clock.now < deadline
        let wanted = configuration.targetSessionAttributes == .readWrite ? "accepts writes" : "answers"
        throw StrataError(
            kind: .connection,
            message: "no server that \(wanted) within \(configuration.failoverTimeout): \(failures.joined(separator: "; "))")
    }

    /// A connection to `host`, or nil when it is a standby and a writable server is wanted.
    ///
    /// The TCP connect is bounded by `connectTimeout`; the start-up and the recovery check
    /// that follow by `connectTimeout` + `queryTimeout` + 1 s together (a frozen server's
    /// kernel still accepts the connection, and then nothing answers). The bound is generous
    /// because a busy process can starve a connection's start-up for seconds.
    private func connect(to host: PostgresDatabase.Configuration.Host) async throws -> PostgresConnection? {
        nextID += 1
        let id = nextID
        let eventLoop = PostgresConnection.defaultEventLoopGroup.any()
        let configuration = self.configuration
        let tls = self.tls
        let logger = self.logger
        let limit = configuration.connectTimeout + answerTimeout
        return try await withDeadline(
            limit, on: eventLoop,
            timedOut: {
                StrataError(kind: .connection, message: "\(host) accepted the connection but did not complete its start-up within \(limit)")
            },
            lateResult: { connection in connection?.close().whenComplete { _ in withExtendedLifetime(connection) {} } }
        ) {
            try await Self.open(host, id: id, on: eventLoop, configuration: configuration, tls: tls, logger: logger)
        }
    }

    private static func open(
        _ host: PostgresDatabase.Configuration.Host, id: Int, on eventLoop: any EventLoop,
        configuration: PostgresDatabase.Configuration, tls: PostgresConnection.Configuration.TLS, logger: Logger
    ) async throws -> PostgresConnection? {
        // The channel is made here, not by postgres-nio, for its TCP keepalive.
        let channel: any Channel
        do {
            channel = try await keepalive(ClientBootstrap(group: eventLoop), idle: configuration.keepaliveIdle)
                .connectTimeout(TimeAmount(configuration.connectTimeout))
                .connect(host: host.host, port: host.port).get()
        } catch {
            throw StrataError(kind: .connection, message: "cannot connect to \(host): \(error)")
        }
        var options = PostgresConnection.Configuration(
            establishedChannel: channel, tls: tls, username: configuration.username, password: configuration.password,
            database: configuration.database)
        if !host.isIPAddress { options.options.tlsServerName = host.host }
        // The server cancels a statement that runs longer than `queryTimeout`.
        let milliseconds = configuration.queryTimeout.components.seconds * 1000 + configuration.queryTimeout.components.attoseconds / 1_000_000_000_000_000
        options.options.additionalStartupParameters = [("statement_timeout", "\(milliseconds)")]
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(on: eventLoop, configuration: options, id: id, logger: logger)
        } catch {
            try? await channel.close()
            throw error
        }
        guard configuration.targetSessionAttributes == .readWrite else { return connection }
        do {
            let rows = try await connection.query("SELECT pg_is_in_recovery()", logger: logger).collect()
            if try rows.first?.decode(Bool.self) == false { return connection }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
        return nil
    }

    /// `bootstrap` with TCP keepalive on: on Linux the first probe after `idle` without
    /// traffic, then three probes two seconds apart before the system closes the connection
    /// (elsewhere the system's timings).
    private static func keepalive(_ bootstrap: ClientBootstrap, idle: Duration) -> ClientBootstrap {
        let bootstrap = bootstrap.channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
        #if os(Linux)
        let seconds = max(1, Int(clamping: idle.components.seconds))
        return bootstrap
            .channelOption(ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPIDLE)), value: seconds)
            .channelOption(ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPINTVL)), value: 2)
            .channelOption(ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: TCP_KEEPCNT)), value: 3)
        #else
        return bootstrap
        #endif
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
        for waiter in waiters { waiter.continuation.resume() }
        waiters.removeAll()
        for connection in connections { try? await connection.close() }
    }
}

extension PostgresDatabase.Configuration.Host {
    /// Whether ``host`` is an IPv4 or IPv6 address rather than a name (no TLS server name then).
    var isIPAddress: Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." })
    }
}
