import CSQLite
import Foundation

/// What a committed transaction touched, as an observer sees it.
enum ObservedEvent: Sendable {
    /// Rows of these tables (lowercased names) changed.
    case tables(Set<String>)
    /// Something changed that cannot be narrowed to tables: another connection or process
    /// committed, or the schema changed.
    case everything

    /// True when the event may change what a fetch that read `region` returns (nil: unknown).
    func touches(_ region: Set<String>?) -> Bool {
        guard let region else { return true }
        switch self {
        case .everything: return true
        case .tables(let tables): return !tables.isDisjoint(with: region)
        }
    }
}

/// One running observation, as the center sees it.
protocol DatabaseObserver: AnyObject, Sendable {
    /// Called (on any thread, quickly) after a commit.
    func databaseChanged(_ event: ObservedEvent)
}

/// One `changes(to:)` subscriber, as the center sees it.
final class ChangeSubscriber: Sendable {
    /// Lowercased names of the tables it listens to.
    let tables: Set<String>
    let continuation: AsyncThrowingStream<DatabaseChange, Error>.Continuation

    init(tables: Set<String>, continuation: AsyncThrowingStream<DatabaseChange, Error>.Continuation) {
        self.tables = tables
        self.continuation = continuation
    }

    func deliver(_ changes: [DatabaseChange]) {
        for change in changes where tables.contains(change.table.lowercased()) {
            if case .dropped = continuation.yield(change) {
                continuation.finish(throwing: StrataError.misuse(
                    "changes(to:) fell more than \(DatabaseChanges.bufferLimit) changes behind its consumer; the sequence ended so that no change is lost silently"))
                return
            }
        }
    }
}

/// The observation machinery of one ``Database``: the registered observers and change
/// subscribers, the hooks on its writer connection, and the poller that notices commits made
/// by other connections and processes. Hooks and the poller exist only while something is
/// registered.
final class ObservationCenter: @unchecked Sendable {
    private struct State {
        var observers: [ObjectIdentifier: any DatabaseObserver] = [:]
        var subscribers: [ObjectIdentifier: ChangeSubscriber] = [:]
        /// What each SQL text reads and writes (nil: it does not prepare on a reader).
        var accessBySQL: [String: StatementAccess?] = [:]
        /// The writer hooks, while installed.
        var hooks: WriterHooks?
        /// The poller, while running.
        var poller: DispatchSourceTimer?
        /// The poller's private connection (read-only databases only).
        var pollConnection: Connection?
    }

    private let state = Protected(State())
    /// Serializes installing and removing hooks.
    private let reconcileLock = NSLock()
    /// Analyses SQL texts met for the first time, off the writer's thread.
    private let analysisQueue = DispatchQueue(label: "Strata.Observation.analysis")
    /// Runs the poller.
    private let pollQueue = DispatchQueue(label: "Strata.Observation.poll")
    /// Work waiting for a worker, and how many workers run.
    private let work = Protected<(pending: [@Sendable () -> Void], workers: Int)>(([], 0))

    init() {}

    /// Runs `job` off the caller's thread, with at most `limit` jobs at once (one per reader
    /// connection: a hundred observers refreshing after one commit take a few threads, not a
    /// hundred blocked ones).
    func perform(limit: Int, _ job: @escaping @Sendable () -> Void) {
        let startWorker = work.withLock { work -> Bool in
            work.pending.append(job)
            guard work.workers < max(1, limit) else { return false }
            work.workers += 1
            return true
        }
        guard startWorker else { return }
        // A serial queue of its own, as `Database`'s async calls use: serial queues run on
        // Dispatch's overcommitting threads, which grow when threads block, unlike concurrent
        // queues (limited to the number of cores), so blocked fetches elsewhere cannot starve it.
        DispatchQueue(label: "Strata.Observation.work").async { [self] in
            while let next = work.withLock({ work -> (@Sendable () -> Void)? in
                if work.pending.isEmpty {
                    work.workers -= 1
                    return nil
                }
                return work.pending.removeFirst()
            }) {
                next()
            }
        }
    }

    // MARK: - Registration

    /// How many things observation holds on to right now: observers, change subscribers, the
    /// writer hooks, the poller and its connection. Zero when nothing observes (tests check it).
    var registrationCount: Int {
        state.withLock { state in
            state.observers.count + state.subscribers.count + (state.hooks == nil ? 0 : 1)
                + (state.poller == nil ? 0 : 1) + (state.pollConnection == nil ? 0 : 1)
        }
    }

    func add(_ observer: any DatabaseObserver) {
        state.withLock { $0.observers[ObjectIdentifier(observer)] = observer }
    }

    func remove(_ observer: any DatabaseObserver) {
        state.withLock { $0.observers[ObjectIdentifier(observer)] = nil }
    }

    func add(_ subscriber: ChangeSubscriber) {
        state.withLock { $0.subscribers[ObjectIdentifier(subscriber)] = subscriber }
    }

    func remove(_ subscriber: ChangeSubscriber) {
        state.withLock { $0.subscribers[ObjectIdentifier(subscriber)] = nil }
    }

    /// Installs or removes the writer hooks and the poller so they exist exactly while
    /// something is registered, and updates the tables whose row changes are reported.
    ///
    /// Locks are taken in one order, the writer connection first and then `reconcileLock`, and
    /// `reconcileLock` is never held while waiting for the writer: a caller that holds the
    /// writer (inside `write`) fails fast as a nested write instead of deadlocking.
    func reconcile(_ db: Database) throws {
        let polls = db.path != ":memory:" && db.configuration.observationPollingInterval != nil
        var writerVersion: Int?
        if !db.configuration.readOnly {
            try db.writeWithoutTransaction { conn in
                reconcileLock.lock()
                defer { reconcileLock.unlock() }
                let (needed, changeTables) = registrations()
                let current = state.withLock { $0.hooks }
                if needed {
                    let hooks = current ?? WriterHooks(connection: conn, center: self, database: db)
                    if current == nil {
                        state.withLock { $0.hooks = hooks }
                        hooks.install(on: conn)
                    }
                    try hooks.setChangeTables(changeTables, on: conn)
                    // The poller's first `data_version`, read before the first fetch.
                    if polls { writerVersion = try conn.fetchValue(Int.self, sql: "PRAGMA data_version") }
                } else if let current {
                    current.uninstall(from: conn)
                    state.withLock { $0.hooks = nil }
                }
            }
        }
        reconcileLock.lock()
        defer { reconcileLock.unlock() }
        if registrations().needed, polls, let interval = db.configuration.observationPollingInterval {
            try startPolling(db, interval: interval, writerVersion: writerVersion)
        } else {
            stopPolling()
        }
    }

    /// Whether anything is registered, and the tables change subscribers listen to.
    private func registrations() -> (needed: Bool, changeTables: Set<String>) {
        state.withLock { state in
            (!state.observers.isEmpty || !state.subscribers.isEmpty,
             state.subscribers.values.reduce(into: Set<String>()) { $0.formUnion($1.tables) })
        }
    }

    /// The writer hooks when they are installed on `connection`.
    func writerHooks(on connection: Connection) -> WriterHooks? {
        guard let hooks = state.withLock({ $0.hooks }), hooks.handle == connection.handle else { return nil }
        return hooks
    }

    // MARK: - Polling for other connections and processes

    private func startPolling(_ db: Database, interval: TimeInterval, writerVersion: Int?) throws {
        let running = state.withLock { $0.poller != nil }
        guard !running else { return }
        var connection: Connection?
        if db.configuration.readOnly {
            connection = try Connection(path: db.path, readOnly: true, create: false, busyTimeout: db.configuration.busyTimeout)
        }
        // The writer's `data_version` changes only for commits of other connections, so the
        // writer's own commits (already reported by its hooks) do not count twice.
        let readVersion: @Sendable (Database, Connection?) throws -> Int? = { db, connection in
            if let connection { return try connection.fetchValue(Int.self, sql: "PRAGMA data_version") }
            return try db.writeWithoutTransaction { conn in try conn.fetchValue(Int.self, sql: "PRAGMA data_version") }
        }
        // The first value is read now (the writer's, in `reconcile`), before the caller's first
        // fetch: a commit made between that fetch and the first tick is a change, not the
        // baseline.
        let first: Int?
        if let connection {
            first = try readVersion(db, connection)
        } else {
            first = writerVersion
        }
        let version = Protected<Int?>(first)
        let poll: @Sendable () -> Void = { [weak self, weak db] in
            guard let self, let db else { return }
            let connection = self.state.withLock { $0.pollConnection }
            guard let current = try? readVersion(db, connection) else { return }
            let previous = version.withLock { value -> Int? in
                defer { value = current }
                return value
            }
            if let previous, previous != current {
                self.notifyObservers(.everything)
            }
        }
        let timer = DispatchSource.makeTimerSource(queue: pollQueue)
        let nanoseconds = max(1_000_000, Int((interval * 1_000_000_000).rounded()))
        timer.schedule(deadline: .now(), repeating: .nanoseconds(nanoseconds), leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler(handler: poll)
        state.withLock {
            $0.poller = timer
            $0.pollConnection = connection
        }
        timer.resume()
    }

    private func stopPolling() {
        let timer = state.withLock { state -> DispatchSourceTimer? in
            defer {
                state.poller = nil
            }
            return state.poller
        }
        timer?.cancel()
        // Close the poll connection on the poll queue, after any poll in progress.
        pollQueue.sync {
            state.withLock { $0.pollConnection = nil }
        }
    }

    // MARK: - Commits

    /// Called by the writer hooks on the writer's thread, after COMMIT returned: `sql` are the
    /// texts of the statements of the committed transactions that may write.
    func didCommit(_ db: Database?, sql: Set<String>, rowsChanged: Int64, changes: [DatabaseChange]) {
        if !changes.isEmpty {
            let subscribers = state.withLock { Array($0.subscribers.values) }
            for subscriber in subscribers { subscriber.deliver(changes) }
        }
        let known = state.withLock { state -> [StatementAccess?]? in
            var accesses: [StatementAccess?] = []
            for text in sql {
                guard let access = state.accessBySQL[text] else { return nil }
                accesses.append(access)
            }
            return accesses
        }
        if let known {
            process(known, rowsChanged: rowsChanged)
            return
        }
        analysisQueue.async { [self] in
            let accesses: [StatementAccess?]
            if let db {
                accesses = (try? db.read { conn in sql.map { accessOfSQL($0, on: conn) } }) ?? [nil]
            } else {
                accesses = [nil]
            }
            process(accesses, rowsChanged: rowsChanged)
        }
    }

    private func process(_ accesses: [StatementAccess?], rowsChanged: Int64) {
        var tables = Set<String>()
        var everything = false
        for access in accesses {
            guard let access else {
                everything = true
                continue
            }
            tables.formUnion(access.writes)
            if access.changesSchema {
                everything = true
                state.withLock { $0.accessBySQL.removeAll() }
            }
        }
        if rowsChanged == 0 && !everything { return }
        notifyObservers(everything ? .everything : .tables(tables))
    }

    func notifyObservers(_ event: ObservedEvent) {
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer.databaseChanged(event) }
    }

    // MARK: - Reads

    /// What `sql` reads and writes, remembered per text.
    func accessOfSQL(_ sql: String, on conn: Connection) -> StatementAccess? {
        if let known = state.withLock({ $0.accessBySQL[sql] }) { return known }
        let access = conn.analyzeAccess(sql: sql)
        state.withLock { state in
            // SQL built at run time (literals in conditions) must not grow this without bound.
            if state.accessBySQL.count >= Connection.statementCacheLimit { state.accessBySQL.removeAll(keepingCapacity: true) }
            state.accessBySQL[sql] = .some(access)
        }
        return access
    }

    /// The tables the statements `sql` read; nil when one of them cannot be analysed.
    func region(of sql: Set<String>, on conn: Connection) -> Set<String>? {
        var region = Set<String>()
        for text in sql {
            guard let access = accessOfSQL(text, on: conn) else { return nil }
            if access.changesSchema { return nil }
            region.formUnion(access.reads)
            // A closure that writes (on an in-memory database) depends on what it writes too.
            region.formUnion(access.writes)
        }
        return region
    }
}
