import CSQLite
import Foundation

/// A record type stored in one table. Generated records conform, so that
/// ``Database/changes(to:)`` can name tables by their record types.
public protocol TableRecord {
    /// The table's SQL name, unquoted (`books`).
    static var databaseTableName: String { get }
}

extension Database {
    /// Observes a read: an `AsyncSequence` of the value `fetch` returns, now and again after
    /// every committed transaction that changed a table `fetch` read.
    ///
    /// ```swift
    /// for try await books in db.observe({ conn in try BookDAO(conn).cheaperThan(max: 10) }) {
    ///     render(books)
    /// }
    /// ```
    ///
    /// - The first value is fetched when iteration starts. The observation is registered
    ///   before that fetch, so a commit made while it runs is not lost.
    /// - Strata records which tables `fetch` read, each time it runs (SQLite's authorizer,
    ///   tables behind views included), and which tables each committed transaction wrote
    ///   (triggers and foreign-key actions included). Commits that touched only other tables,
    ///   rolled-back transactions and writes that changed no row cause no fetch.
    /// - Commits through this `Database` are seen at once (once `COMMIT` returns; a statement that
    ///   commits on its own inside `writeWithoutTransaction`, once that closure returns); commits
    ///   by other `Database` values and other processes within
    ///   ``Configuration/observationPollingInterval``.
    /// - Several commits while the consumer is busy fold into one fresh value: the latest wins.
    /// - A value equal to the previous one is not delivered again (see
    ///   ``ValueObservation/everyValue()``).
    /// - A fetch that throws ends the sequence with its error. Cancelling the consuming task,
    ///   or leaving the loop, ends the observation and frees what it held.
    ///
    /// `fetch` runs in a read transaction on a reader connection (see ``read(_:)-8r8nm``), off the
    /// caller's task.
    public func observe<Value: Sendable>(_ fetch: @escaping @Sendable (Connection) throws -> Value) -> ValueObservation<Value> {
        ValueObservation(database: self, fetch: fetch, isEqual: nil)
    }

    /// Observes a read whose value is `Equatable`: as the other `observe(_:)`, and a value equal to
    /// the one delivered before is skipped. Use ``ValueObservation/everyValue()`` to get each.
    public func observe<Value: Sendable & Equatable>(_ fetch: @escaping @Sendable (Connection) throws -> Value) -> ValueObservation<Value> {
        ValueObservation(database: self, fetch: fetch, isEqual: { $0 == $1 })
    }

    /// The row changes (table, insert/update/delete, primary key) of every transaction
    /// committed through this `Database` to the tables of `records`, in commit order.
    ///
    /// ```swift
    /// for try await change in db.changes(to: [Book.self, Loan.self]) {
    ///     cache.invalidate(change.table, key: change.primaryKey)
    /// }
    /// ```
    ///
    /// Listening starts when this method returns; changes of rolled-back transactions are
    /// never reported. See ``changes(toTables:)``.
    public func changes(to records: [any TableRecord.Type]) -> DatabaseChanges {
        changes(toTables: records.map { $0.databaseTableName })
    }

    /// The row changes of every transaction committed through this `Database` to the tables
    /// named `tables` (SQL names, case-insensitive), in commit order.
    ///
    /// Changes made by other `Database` values or other processes are not reported (SQLite
    /// reports row changes only to the connection that made them); observe a read with
    /// ``observe(_:)-4rg1g`` to see those. The sequence buffers up to
    /// ``DatabaseChanges/bufferLimit`` changes its consumer has not taken yet; past that it
    /// ends with an error rather than drop one. On a read-only database it ends at once with
    /// a ``StrataError/Kind/misuse`` error.
    public func changes(toTables tables: [String]) -> DatabaseChanges {
        let center = observationCenter
        let (stream, continuation) = AsyncThrowingStream<DatabaseChange, Error>.makeStream(
            bufferingPolicy: .bufferingOldest(DatabaseChanges.bufferLimit))
        let subscriber = ChangeSubscriber(tables: Set(tables.map { $0.lowercased() }), continuation: continuation)
        center.add(subscriber)
        let ended = Protected(false)
        let end: @Sendable () -> Void = { [weak center] in
            guard ended.withLock({ ended in defer { ended = true }; return !ended }), let center else { return }
            center.remove(subscriber)
            continuation.finish()
            center.perform(limit: self.configuration.maximumReaderCount) { try? center.reconcile(self) }
        }
        continuation.onTermination = { _ in end() }
        if configuration.readOnly {
            continuation.finish(throwing: StrataError.misuse(
                "changes(to:) reports the writes made through this Database, and \(path) is open read-only; observe a read with observe(_:) to follow other writers"))
            return DatabaseChanges(stream: stream, token: ObservationToken(end))
        }
        do {
            try center.reconcile(self)
        } catch {
            continuation.finish(throwing: error)
        }
        return DatabaseChanges(stream: stream, token: ObservationToken(end))
    }

    /// How many things observation holds right now (observers, change subscribers, hooks,
    /// the poller and its connection): zero when nothing observes. For tests.
    var observationRegistrationCount: Int { observationCenter.registrationCount }
}

/// One row change reported by ``Database/changes(to:)``.
public struct DatabaseChange: Sendable, Hashable {
    /// What happened to the row.
    public enum Kind: String, Sendable, Hashable {
        /// A row was inserted (also the new row of an `INSERT OR REPLACE`).
        case insert
        /// A row was updated in place.
        case update
        /// A row was deleted (also by a cascade, or the row an `INSERT OR REPLACE` replaced).
        case delete
    }

    /// The table's SQL name, as its `CREATE TABLE` spells it.
    public var table: String
    /// Insert, update or delete.
    public var kind: Kind
    /// The values of the primary key columns, in key order (the new key for an update that
    /// changed it); the rowid for a table without a declared key. Empty when this SQLite lacks
    /// the preupdate hook and the key is not the rowid (then ``rowID`` identifies the row).
    public var primaryKey: [DatabaseValue]
    /// The row's rowid; nil for a WITHOUT ROWID table.
    public var rowID: Int64?

    /// A change.
    public init(table: String, kind: Kind, primaryKey: [DatabaseValue], rowID: Int64?) {
        self.table = table
        self.kind = kind
        self.primaryKey = primaryKey
        self.rowID = rowID
    }
}

/// The sequence ``Database/changes(to:)`` returns: each ``DatabaseChange`` of each committed
/// transaction, in commit order. Iterate it once.
public struct DatabaseChanges: AsyncSequence, Sendable {
    public typealias Element = DatabaseChange

    /// How many changes the sequence holds for a consumer that does not keep up before it
    /// ends with an error.
    public static let bufferLimit = 100_000

    let stream: AsyncThrowingStream<DatabaseChange, Error>
    let token: ObservationToken

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), token: token)
    }

    /// Iterates the changes.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<DatabaseChange, Error>.Iterator
        let token: ObservationToken

        public mutating func next() async throws -> DatabaseChange? {
            try await base.next()
        }
    }
}

extension ValueObservation {
    /// The observation of `fetch` on `database`: each iteration runs a ``ValueObserver``.
    init(database: Database, fetch: @escaping @Sendable (Connection) throws -> Value, isEqual: (@Sendable (Value, Value) -> Bool)?) {
        self.init(isEqual: isEqual) { continuation in
            let observer = ValueObserver(database: database, fetch: fetch, continuation: continuation)
            return (start: observer.start, cancel: { [weak observer] in observer?.cancel() })
        }
    }
}

/// One running observation: fetches, remembers what the fetch read, refetches after the
/// commits that touched it.
final class ValueObserver<Value: Sendable>: DatabaseObserver, @unchecked Sendable {
    private struct State {
        /// What the last fetch read; nil when unknown (before the first fetch, or when a
        /// statement could not be analysed).
        var region: Set<String>?
        var fetching = false
        /// Commits seen while a fetch ran: it may or may not have seen them.
        var missedTables = Set<String>()
        var missedEverything = false
        var cancelled = false
    }

    private let database: Database
    private let fetch: @Sendable (Connection) throws -> Value
    private let continuation: AsyncThrowingStream<Value, Error>.Continuation
    private let state = Protected(State())

    init(database: Database, fetch: @escaping @Sendable (Connection) throws -> Value, continuation: AsyncThrowingStream<Value, Error>.Continuation) {
        self.database = database
        self.fetch = fetch
        self.continuation = continuation
    }

    private var center: ObservationCenter { database.observationCenter }

    func start() {
        state.withLock { $0.fetching = true }
        // Registered before the first fetch: a commit made during it counts as missed.
        center.add(self)
        center.perform(limit: database.configuration.maximumReaderCount) { [self] in
            do {
                try center.reconcile(database)
            } catch {
                continuation.finish(throwing: error)
                return
            }
            run()
        }
    }

    func cancel() {
        let first = state.withLock { state -> Bool in
            defer { state.cancelled = true }
            return !state.cancelled
        }
        guard first else { return }
        continuation.finish()
        let center = center
        let database = database
        center.remove(self)
        center.perform(limit: database.configuration.maximumReaderCount) { try? center.reconcile(database) }
    }

    func databaseChanged(_ event: ObservedEvent) {
        let start = state.withLock { state -> Bool in
            if state.cancelled { return false }
            if state.fetching {
                switch event {
                case .everything: state.missedEverything = true
                case .tables(let tables): state.missedTables.formUnion(tables)
                }
                return false
            }
            guard event.touches(state.region) else { return false }
            state.fetching = true
            return true
        }
        if start {
            center.perform(limit: database.configuration.maximumReaderCount) { [self] in run() }
        }
    }

    /// Fetches until no commit that touches the fetched region arrived meanwhile.
    private func run() {
        while true {
            let go = state.withLock { state -> Bool in
                state.missedTables = []
                state.missedEverything = false
                return !state.cancelled
            }
            guard go else { return }
            let center = center
            let result = Result {
                try database.read { conn -> (Value, Set<String>?) in
                    let (value, sql) = try conn.recordingStatements {
                        try fetch(conn)
                    }
                    return (value, center.region(of: sql, on: conn))
                }
            }
            switch result {
            case .failure(let error):
                continuation.finish(throwing: error)
                cancel()
                return
            case .success(let (value, region)):
                continuation.yield(value)
                let again = state.withLock { state -> Bool in
                    state.region = region
                    let missed: ObservedEvent = state.missedEverything ? .everything : .tables(state.missedTables)
                    let again = !state.cancelled && (state.missedEverything || !state.missedTables.isEmpty) && missed.touches(region)
                    if !again { state.fetching = false }
                    return again
                }
                if !again { return }
            }
        }
    }
}
