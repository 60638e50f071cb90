import Foundation
import Logging
import PostgresNIO

/// What an observer hears from the ``ChangeListener``.
enum ChangeEvent: Sendable {
    /// A transaction that wrote this table committed.
    case table(String)
    /// Notifications may have been lost (the `LISTEN` connection was lost and is back): any
    /// table may have changed.
    case everything
    /// The listener gave up: no server could be reached within `failoverTimeout`.
    case failed(StrataError)
    /// The database was closed: the observation ends.
    case closed
}

/// The one `LISTEN strata_changes` connection of a ``PostgresDatabase``, shared by all its
/// observers: opened (outside the pool) when the first observer arrives, closed when the last
/// one leaves, and opened again, on whichever host now qualifies, when it is lost; after a
/// reconnection every observer hears ``ChangeEvent/everything``, since the notifications sent
/// meanwhile are gone.
actor ChangeListener {
    static let channel = "strata_changes"

    private let pool: ConnectionPool
    private let logger: Logger
    private let failoverTimeout: Duration
    private var observers: [Int: @Sendable (ChangeEvent) -> Void] = [:]
    private var nextID = 0
    /// Observers waiting for the `LISTEN` to be in place before their first fetch.
    private var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var task: Task<Void, Never>?
    /// Which run of the task is current: a stopped one's late calls are ignored.
    private var generation = 0
    private var connection: PostgresConnection?
    private var isListening = false
    private var isClosed = false

    init(pool: ConnectionPool, logger: Logger, failoverTimeout: Duration) {
        self.pool = pool
        self.logger = logger
        self.failoverTimeout = failoverTimeout
    }

    /// Adds an observer and returns once the `LISTEN` is in place: every commit after this
    /// returns reaches `onEvent`.
    func add(_ onEvent: @escaping @Sendable (ChangeEvent) -> Void) async throws -> Int {
        guard !isClosed else { throw StrataError.misuse("the PostgresDatabase is closed") }
        nextID += 1
        let id = nextID
        observers[id] = onEvent
        if task == nil {
            generation += 1
            let generation = generation
            task = Task { await self.run(generation: generation) }
        }
        if !isListening {
            try await withCheckedThrowingContinuation { waiters[id] = $0 }
        }
        return id
    }

    /// Removes an observer; the last one closes the connection.
    func remove(_ id: Int) {
        observers[id] = nil
        waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
        if observers.isEmpty { stop() }
    }

    /// Observers now, and whether the `LISTEN` connection is open (for tests).
    var state: (observers: Int, listening: Bool) { (observers.count, connection != nil) }

    /// Ends every observation and closes the connection.
    func close() {
        isClosed = true
        for (_, waiter) in waiters { waiter.resume(throwing: StrataError.misuse("the PostgresDatabase is closed")) }
        waiters.removeAll()
        for (_, observer) in observers { observer(.closed) }
        observers.removeAll()
        stop()
    }

    private func stop() {
        generation += 1
        task?.cancel()
        task = nil
        isListening = false
        if let connection {
            self.connection = nil
            connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
        }
    }

    // MARK: The task

    private nonisolated func run(generation: Int) async {
        var reconnected = false
        while !Task.isCancelled {
            let connection: PostgresConnection
            do {
                connection = try await open()
            } catch {
                await fail(generation: generation, error)
                return
            }
            guard await attach(connection, generation: generation) else {
                connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
                return
            }
            do {
                try await connection.listen(on: Self.channel) { notifications in
                    await self.listening(generation: generation, reconnected: reconnected)
                    for try await notification in notifications {
                        await self.deliver(.table(notification.payload), generation: generation)
                    }
                }
            } catch {
                logger.debug("strata: the LISTEN connection was lost: \(error)")
            }
            guard await detach(connection, generation: generation) else { return }
            reconnected = true
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A new connection, trying for `failoverTimeout` (through a restart, a server answers
    /// "the database system is starting up" for a moment: that is tried again too).
    private nonisolated func open() async throws -> PostgresConnection {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: failoverTimeout)
        while true {
            do {
                return try await pool.openDedicated().0
            } catch let error as StrataError where error.kind != .misuse && clock.now < deadline {
                logger.debug("strata: the LISTEN connection cannot connect yet: \(error)")
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private func attach(_ connection: PostgresConnection, generation: Int) -> Bool {
        guard generation == self.generation else { return false }
        self.connection = connection
        return true
    }

    /// The connection is gone: forget it; false when this run is over.
    private func detach(_ connection: PostgresConnection, generation: Int) -> Bool {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
        guard generation == self.generation else { return false }
        self.connection = nil
        isListening = false
        return true
    }

    private func listening(generation: Int, reconnected: Bool) {
        guard generation == self.generation else { return }
        isListening = true
        for (_, waiter) in waiters { waiter.resume() }
        waiters.removeAll()
        if reconnected { deliver(.everything, generation: generation) }
    }

    private func deliver(_ event: ChangeEvent, generation: Int) {
        guard generation == self.generation else { return }
        for (_, observer) in observers { observer(event) }
    }

    private func fail(generation: Int, _ error: any Error) {
        guard generation == self.generation else { return }
        let failure = error as? StrataError ?? StrataError(kind: .connection, message: "\(error)")
        for (_, waiter) in waiters { waiter.resume(throwing: failure) }
        waiters.removeAll()
        deliver(.failed(failure), generation: generation)
        observers.removeAll()
        task = nil
        self.generation += 1
    }
}
