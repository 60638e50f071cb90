import Foundation
import PostgresNIO

/// Runs `operation` in a task of its own and returns what it returns, unless `timeout` passes
/// first: then the caller gets `timedOut()` at once, and a result that comes later goes to
/// `lateResult` (which closes a connection that was opened too late, say).
///
/// The caller never waits for the operation itself: postgres-nio 1.33 can leave a statement
/// unanswered forever (one written to a channel that has just closed is dropped without failing
/// its promise), and then only the timer ends the wait. The timer runs on `eventLoop`.
func withDeadline<R: Sendable>(
    _ timeout: Duration, on eventLoop: any EventLoop,
    timedOut: @escaping @Sendable () -> any Error,
    lateResult: @escaping @Sendable (R) -> Void = { _ in },
    _ operation: @escaping @Sendable () async throws -> R
) async throws -> R {
    let race = Race<R>()
    return try await withCheckedThrowingContinuation { continuation in
        race.start(continuation)
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            race.finish(.failure(timedOut()))
        }
        Task {
            let result: Result<R, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            timer.cancel()
            if !race.finish(result), case .success(let value) = result { lateResult(value) }
        }
    }
}

/// A continuation resumed by whichever comes first: the operation's result or its timer.
private final class Race<R: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<R, any Error>?

    func start(_ continuation: CheckedContinuation<R, any Error>) {
        lock.withLock { self.continuation = continuation }
    }

    /// Resumes the caller with `result`; false when it was resumed already.
    @discardableResult
    func finish(_ result: Result<R, any Error>) -> Bool {
        let continuation = lock.withLock {
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(with: result)
        return continuation != nil
    }
}
