import CSQLite
import Foundation

extension Database {
    /// Runs `body` with a reader connection inside a read transaction, off the caller's task.
    ///
    /// The work runs on one of the database's reader threads (at most
    /// ``Configuration/maximumReaderCount`` of them, plus one writer thread for writes), never
    /// on Swift's cooperative pool, whatever the number of concurrent calls.
    ///
    /// Cancelling the calling task interrupts the statement running at that moment
    /// (`sqlite3_interrupt`) and throws `CancellationError`; a call cancelled before it starts
    /// does not run `body`. A cancellation between statements stops the next long statement;
    /// Swift code in `body` is not stopped, but its result is discarded. The connection stays
    /// usable.
    ///
    /// `body` is `sending`: it may capture values that are not `Sendable` as long as the caller
    /// does not use them while it runs (a value made just before the call, say), and its result
    /// need not be `Sendable` either. It cannot use an actor's state (the main actor's
    /// included): it runs on the database's thread, not in the caller's isolation.
    public func read<T>(_ body: sending @escaping (Connection) throws -> T) async throws -> sending T {
        let work = Handover(body)
        let result: Handover<T> = try await run(on: hasReaderPool ? readerThreads : writerThread) { cancellation in
            Handover(try self.read { conn in try cancellation.watching(conn) { try work.value(conn) } })
        }
        return result.value
    }

    /// Runs `body` in a write transaction, off the caller's task (see ``write(_:)``), on the
    /// database's writer thread.
    ///
    /// Cancelling the calling task interrupts the statement running at that moment
    /// (`sqlite3_interrupt`), rolls the whole transaction back and throws `CancellationError`;
    /// so does a cancellation that arrives while Swift code in `body` runs (the transaction
    /// rolls back instead of committing when `body` returns). A call cancelled before it
    /// starts does not run `body`. The connection stays usable.
    ///
    /// `body` is `sending`, as for the async `read`: non-`Sendable` captures that the caller
    /// no longer uses, and a non-`Sendable` result, are fine.
    public func write<T>(_ body: sending @escaping (Connection) throws -> T) async throws -> sending T {
        let work = Handover(body)
        let result: Handover<T> = try await run(on: writerThread) { cancellation in
            Handover(try self.write { conn in try cancellation.watching(conn) { try work.value(conn) } })
        }
        return result.value
    }

    /// Runs `work` on one of `threads`, turning a cancellation of the calling task into an
    /// interrupt of the statement running and a `CancellationError`.
    private func run<T: Sendable>(
        on threads: WorkerThreads, _ work: @escaping @Sendable (Cancellation) throws -> T
    ) async throws -> T {
        let cancellation = Cancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                // A call cancelled while it waits in the queue returns at once.
                guard cancellation.prepare({ continuation.resume(throwing: CancellationError()) }) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                threads.submit {
                    guard cancellation.start() else { return }  // cancelled while queued: already resumed
                    do {
                        continuation.resume(returning: try work(cancellation))
                    } catch {
                        continuation.resume(throwing: cancellation.isCancelled ? CancellationError() : error)
                    }
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

/// A value handed from the caller to the database's thread and back, once: `sending` closures
/// and results, which no one else uses meanwhile (the compiler checked that at the call), cross
/// the `@Sendable` work item in this box.
struct Handover<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The cancellation state of one async call: set from any thread by the task's cancellation
/// handler, read by the thread running the call.
final class Cancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var started = false
    /// Resumes the caller with `CancellationError` when the call is cancelled before it starts.
    private var resumeIfCancelledEarly: (@Sendable () -> Void)?
    /// The connection running the call's statements, while it does.
    private var handle: OpaquePointer?

    /// Registers what to do when the call is cancelled while queued; false when it already is.
    func prepare(_ resume: @escaping @Sendable () -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !cancelled else { return false }
        resumeIfCancelledEarly = resume
        return true
    }

    /// Marks the call started; false when it was cancelled first (the caller has its error).
    func start() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !cancelled else { return false }
        started = true
        resumeIfCancelledEarly = nil
        return true
    }

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Marks the call cancelled: a queued call returns `CancellationError` at once, a running
    /// one has its statement interrupted.
    func cancel() {
        lock.lock()
        cancelled = true
        let resume = started ? nil : resumeIfCancelledEarly
        resumeIfCancelledEarly = nil
        if let handle { sqlite3_interrupt(handle) }
        lock.unlock()
        resume?()
    }

    /// Runs `body` with `conn` exposed to ``cancel()``; throws `CancellationError` when the
    /// call is cancelled before or during `body`, so a write rolls back instead of committing.
    func watching<T>(_ conn: Connection, _ body: () throws -> T) throws -> T {
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            throw CancellationError()
        }
        handle = conn.handle
        lock.unlock()
        // An interrupt stops the statement running when it arrives; a cancellation that
        // arrives between statements is seen by the progress handler of the next long one.
        sqlite3_progress_handler(conn.handle, Self.progressPeriod, cancellationProgressHandler, Unmanaged.passUnretained(self).toOpaque())
        // Unhooked under the lock: an interrupt never reaches the connection once it has
        // gone back to the pool.
        defer {
            sqlite3_progress_handler(conn.handle, 0, nil, nil)
            lock.lock()
            handle = nil
            lock.unlock()
        }
        let result = try body()
        if isCancelled { throw CancellationError() }
        return result
    }
}

extension Cancellation {
    /// How many virtual machine instructions run between two looks at the cancellation flag.
    static let progressPeriod: Int32 = 1_000
}

/// SQLite's progress callback while an async call runs: non-zero (stop the statement, which
/// fails with `SQLITE_INTERRUPT`) once the call is cancelled.
private func cancellationProgressHandler(_ context: UnsafeMutableRawPointer?) -> Int32 {
    guard let context else { return 0 }
    return Unmanaged<Cancellation>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
}

/// A bounded set of threads that run blocking database work in submission order: at most
/// `maximum` threads, started on demand and ended after a while without work.
///
/// The async API blocks a thread per running call (SQLite calls block). Dispatch queues would
/// start a new thread for each blocked call (hundreds under load); the cooperative pool must
/// not block at all. These threads are the database's own: calls beyond `maximum` wait in
/// the queue, not on a thread.
final class WorkerThreads: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [(@Sendable () -> Void)?] = []
    private var head = 0
    private var threadCount = 0
    private var idleCount = 0
    /// Signals sent to idle threads that have not woken yet.
    private var wakeups = 0
    private var isShutDown = false
    private let maximum: Int
    private let name: String
    /// How long an idle thread waits for work before it ends.
    private let idleLifetime: TimeInterval = 10

    init(maximum: Int, name: String) {
        self.maximum = max(1, maximum)
        self.name = name
    }

    /// Queues `job`; starts a thread when none is idle and fewer than `maximum` run.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        if idleCount > wakeups {
            wakeups += 1
            condition.signal()
        } else if threadCount < maximum {
            threadCount += 1
            let thread = Thread { [self] in work() }
            thread.name = name
            thread.start()
        }
        // Else every thread is busy: the first to finish takes the job.
    }

    /// Lets the threads end once the queue is empty.
    func shutDown() {
        condition.lock()
        isShutDown = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            if head < jobs.count {
                let job = jobs[head]
                jobs[head] = nil  // what it captured goes when it is done
                head += 1
                if head == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                }
                condition.unlock()
                job?()
                condition.lock()
                continue
            }
            if isShutDown { break }
            idleCount += 1
            let signalled = condition.wait(until: Date(timeIntervalSinceNow: idleLifetime))
            idleCount -= 1
            wakeups = max(0, wakeups - 1)
            if !signalled, head >= jobs.count { break }
        }
        threadCount -= 1
        condition.unlock()
    }
}
