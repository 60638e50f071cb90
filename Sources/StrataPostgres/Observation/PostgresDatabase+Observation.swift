import Foundation
import PostgresNIO

extension PostgresDatabase {
    /// Observes a read: an `AsyncSequence` of the value `fetch` returns, now and again after
    /// every committed transaction, from any client, that changed a table `fetch` read.
    ///
    /// ```swift
    /// for try await count in pg.observe({ conn in
    ///     try await conn.query(sql: "SELECT count(*) FROM book")[0].decode(Int.self)
    /// }) {
    ///     render(count)
    /// }
    /// ```
    ///
    /// - Commits are heard through PostgreSQL's `LISTEN`/`NOTIFY`: each table needs the
    ///   statement-level trigger that notifies its name on the `strata_changes` channel, which
    ///   Strata's PostgreSQL migrations create for every table (see docs/PostgreSQL.md). A
    ///   table without it is never seen to change.
    /// - The first value is fetched when iteration starts, once the `LISTEN` is in place, so a
    ///   commit made while the first fetch runs is not lost. All observations of one database
    ///   share one `LISTEN` connection of their own, outside the pool; it closes when the last
    ///   observation ends.
    /// - Which tables `fetch` read is found from the SQL of the statements it ran through its
    ///   `Connection` (the identifiers they name, and the tables behind any view among them):
    ///   statements run on ``Connection/underlying`` directly, and tables read inside SQL
    ///   functions, are not seen.
    /// - Commits to other tables and rolled-back transactions cause no fetch. Several commits
    ///   while a fetch runs, or while the consumer is busy, fold into one fresh value.
    /// - A value equal to the previous one is not delivered again (for an `Equatable` value;
    ///   see `ValueObservation.everyValue()`).
    /// - When the `LISTEN` connection is lost (a restart, a failover), it is opened again, on
    ///   whichever host now accepts writes, and every observation fetches once: notifications
    ///   sent meanwhile are lost. A fetch that fails because its connection was lost is tried
    ///   again until ``Configuration/failoverTimeout``; any other error of `fetch`, or no server
    ///   within `failoverTimeout`, ends the sequence with that error.
    /// - Cancelling the consuming task, or leaving the loop, ends the observation.
    ///
    /// `fetch` runs in a read-only `REPEATABLE READ` transaction (one snapshot for all its
    /// statements) on a pooled connection, off the caller's task.
    public func observe<Value: Sendable>(
        _ fetch: @escaping @Sendable (Connection) async throws -> Value
    ) -> PostgresValueObservation<Value> {
        PostgresValueObservation(database: self, fetch: fetch, isEqual: nil)
    }

    /// Observes a read whose value is `Equatable`: as the other `observe(_:)`, and a value equal
    /// to the one delivered before is skipped. Use `ValueObservation.everyValue()` to get each.
    public func observe<Value: Sendable & Equatable>(
        _ fetch: @escaping @Sendable (Connection) async throws -> Value
    ) -> PostgresValueObservation<Value> {
        PostgresValueObservation(database: self, fetch: fetch, isEqual: { $0 == $1 })
    }

    /// How many observations share the `LISTEN` connection, and whether it is open (for tests).
    var observationState: (observers: Int, listening: Bool) {
        get async { await changeListener.state }
    }
}

/// The sequence `PostgresDatabase.observe(_:)` returns: the observed value now, then after each
/// commit that changed what it read. Each iteration runs its own observation. It is Strata's
/// `ValueObservation`, whose iterations here run a PostgreSQL observer.
public typealias PostgresValueObservation<Value: Sendable> = ValueObservation<Value>

extension ValueObservation {
    /// The observation of `fetch` on `database`: each iteration runs a `PostgresValueObserver`.
    init(database: PostgresDatabase, fetch: @escaping @Sendable (PostgresDatabase.Connection) async throws -> Value, isEqual: (@Sendable (Value, Value) -> Bool)?) {
        self.init(isEqual: isEqual) { continuation in
            let observer = PostgresValueObserver(database: database, fetch: fetch, continuation: continuation)
            let task = Task { await observer.run() }
            return (start: {}, cancel: { task.cancel() })
        }
    }
}

/// The commits an observer heard and has not looked at yet.
private final class PendingChanges: @unchecked Sendable {
    private let lock = NSLock()
    private var tables = Set<String>()
    private var everything = false
    private var failure: StrataError?
    private var closed = false

    func add(_ event: ChangeEvent) {
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case .table(let table): tables.insert(table)
        case .everything: everything = true
        case .failed(let error): failure = error
        case .closed: closed = true
        }
    }

    /// Takes what was heard: a failure, or whether any of it touches `region`. Throws
    /// `CancellationError` when the database was closed.
    func take(touching region: Set<String>) throws -> Bool {
        lock.lock()
        defer {
            tables.removeAll()
            everything = false
            lock.unlock()
        }
        if let failure { throw failure }
        if closed { throw CancellationError() }
        return everything || !tables.isDisjoint(with: region)
    }
}

/// One running observation: fetches, remembers the tables the fetch read, refetches after
/// the commits that touched them.
private struct PostgresValueObserver<Value: Sendable>: Sendable {
    let database: PostgresDatabase
    let fetch: @Sendable (PostgresDatabase.Connection) async throws -> Value
    let continuation: AsyncThrowingStream<Value, any Error>.Continuation

    func run() async {
        let pending = PendingChanges()
        let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let listener = database.changeListener
        let id: Int
        do {
            id = try await listener.add { event in
                pending.add(event)
                wake.yield()
            }
        } catch {
            continuation.finish(throwing: Task.isCancelled ? nil : error)
            return
        }
        var iterator = wakeups.makeAsyncIterator()
        var region = Set<String>()
        var views: [Set<String>: Set<String>] = [:]
        do {
            // What arrived before the first fetch is in it.
            _ = try pending.take(touching: [])
            while !Task.isCancelled {
                let (value, read) = try await fetchRetrying(views: &views)
                region = read
                continuation.yield(value)
                // Waits for a commit that touched the region; several fold into one fetch.
                var again = false
                while await iterator.next() != nil {
                    if try pending.take(touching: region) {
                        again = true
                        break
                    }
                }
                if !again { break }
            }
            continuation.finish()
        } catch {
            continuation.finish(throwing: Task.isCancelled || error is CancellationError ? nil : error)
        }
        wake.finish()
        await listener.remove(id)
    }

    /// ``fetchOnce(views:)``, tried again while the connection is lost (a restart or a
    /// failover in progress), for up to `failoverTimeout`.
    private func fetchRetrying(views: inout [Set<String>: Set<String>]) async throws -> (Value, Set<String>) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: database.configuration.failoverTimeout)
        while true {
            do {
                return try await fetchOnce(views: &views)
            } catch let error as StrataError where Self.isTransient(error) && clock.now < deadline && !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// A lost connection, or a server shutting down or starting up (SQLSTATE class 57P).
    private static func isTransient(_ error: StrataError) -> Bool {
        error.kind == .connection || (error.sqlState?.hasPrefix("57P") ?? false)
    }

    /// Runs `fetch` in a read-only transaction and returns its value and the names it read.
    private func fetchOnce(views: inout [Set<String>: Set<String>]) async throws -> (Value, Set<String>) {
        let fetch = self.fetch
        let known = views
        let (value, names, expanded) = try await database.withConnection { conn -> (Value, Set<String>, Set<String>?) in
            try await conn.run(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do {
                var recording = conn
                let recorder = StatementRecorder()
                recording.recorder = recorder
                let value = try await fetch(recording)
                let names = recorder.recorded.reduce(into: Set<String>()) { $0.formUnion(ReadTables.identifiers(in: $1)) }
                var expanded: Set<String>?
                if known[names] == nil {
                    var bindings = PostgresBindings()
                    bindings.append(Array(names).sorted())
                    expanded = Set(try await conn.query(sql: ReadTables.viewTablesSQL, bindings).map { try $0.decode(String.self) })
                }
                try await conn.run(sql: "COMMIT")
                return (value, names, expanded)
            } catch {
                if (error as? StrataError)?.kind != .connection, !conn.underlying.isClosed {
                    _ = try? await conn.run(sql: "ROLLBACK")
                }
                throw error
            }
        }
        if let expanded { views[names] = expanded }
        return (value, names.union(views[names] ?? []))
    }
}
