/// The `AsyncSequence` plumbing of an observed read, one for both databases: SQLite's
/// ``ValueObservation`` and StrataPostgres's `PostgresValueObservation` are thin public wrappers
/// around it.
///
/// What differs between the databases — how the fetch runs, which tables it read, how commits
/// are heard — is the observer that `begin` makes; it yields each fetched value into the
/// continuation it is given and finishes it (with the error, if any) when it ends on its own.
/// What is the same is here: one buffered value (a consumer that is busy gets the latest),
/// a value equal to the one delivered before skipped when the sequence has an `isEqual`
/// (``everyValue()`` drops it), and the observation cancelled when the stream terminates or
/// the last copy of its iterator goes away.
package struct ObservedValues<Value: Sendable>: Sendable {
    /// One observation's two steps: `start` runs once, after the stream's termination handler
    /// is in place (so an observer that finishes at once is still cancelled); `cancel` ends the
    /// observation and may be called any number of times, from any thread.
    package typealias Observer = (start: () -> Void, cancel: @Sendable () -> Void)

    /// Makes the observer of one iteration, yielding into the given continuation.
    private let begin: @Sendable (AsyncThrowingStream<Value, any Error>.Continuation) -> Observer
    private let isEqual: (@Sendable (Value, Value) -> Bool)?

    /// A sequence whose iterations each run an observer made by `begin`; with `isEqual`, a value
    /// equal to the one delivered before is skipped.
    package init(
        isEqual: (@Sendable (Value, Value) -> Bool)?,
        begin: @escaping @Sendable (AsyncThrowingStream<Value, any Error>.Continuation) -> Observer
    ) {
        self.begin = begin
        self.isEqual = isEqual
    }

    /// The same sequence delivering every fetched value, equal to the previous one or not.
    package func everyValue() -> ObservedValues<Value> {
        ObservedValues(isEqual: nil, begin: begin)
    }

    /// Starts one observation and returns its iterator.
    package func makeIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let observer = begin(continuation)
        let cancel = observer.cancel
        continuation.onTermination = { _ in cancel() }
        observer.start()
        return Iterator(base: stream.makeAsyncIterator(), token: ObservationToken(cancel), isEqual: isEqual)
    }

    /// Iterates the values of one observation, skipping repeats when the sequence has an `isEqual`.
    package struct Iterator {
        private var base: AsyncThrowingStream<Value, any Error>.Iterator
        private let token: ObservationToken
        private let isEqual: (@Sendable (Value, Value) -> Bool)?
        private var last: Value?

        init(base: AsyncThrowingStream<Value, any Error>.Iterator, token: ObservationToken, isEqual: (@Sendable (Value, Value) -> Bool)?) {
            self.base = base
            self.token = token
            self.isEqual = isEqual
        }

        /// The next value that differs from the one delivered before (any next value without
        /// `isEqual`); nil when the observation ended.
        package mutating func next() async throws -> Value? {
            while let value = try await base.next() {
                if let isEqual, let last, isEqual(last, value) { continue }
                last = value
                return value
            }
            return nil
        }
    }
}

/// Ends an observation when the last copy of its sequence or iterator goes away.
package final class ObservationToken: Sendable {
    private let end: @Sendable () -> Void

    /// A token that calls `end` when it goes away (and on ``cancel()``).
    package init(_ end: @escaping @Sendable () -> Void) {
        self.end = end
    }

    /// Ends the observation now.
    package func cancel() { end() }

    deinit { end() }
}
