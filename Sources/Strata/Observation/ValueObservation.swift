/// The sequence ``Database/observe(_:)-4rg1g`` returns: the observed value now, then after each
/// commit that changed what it read. Each iteration runs its own observation.
///
/// StrataPostgres's `PostgresDatabase.observe(_:)` returns the same type (as
/// `PostgresValueObservation`): what differs between the databases — how the fetch runs, which
/// tables it read, how commits are heard — is the observer each iteration starts; what this type
/// does is the same for both: the consumer gets the latest value when it was busy, a value
/// equal to the one delivered before is skipped (for an `Equatable` value; see
/// ``everyValue()``), and the observation ends when the loop is left or its task cancelled.
///
/// It is `Sendable`: make it in one task and iterate it in another.
public struct ValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    /// The observed value.
    public typealias Element = Value

    /// One iteration's observer: `start` runs once, after the stream's termination handler is
    /// in place (so an observer that finishes at once is still cancelled); `cancel` ends the
    /// observation and may be called any number of times, from any thread.
    package typealias Observer = (start: () -> Void, cancel: @Sendable () -> Void)

    /// Makes the observer of one iteration. It yields each fetched value into the continuation
    /// and finishes it (with the error, if any) when the observation ends on its own.
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

    /// The same observation delivering every fetched value, equal to the previous one or not.
    public func everyValue() -> ValueObservation<Value> {
        ValueObservation(isEqual: nil, begin: begin)
    }

    /// Starts the observation.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let observer = begin(continuation)
        let cancel = observer.cancel
        continuation.onTermination = { _ in cancel() }
        observer.start()
        return Iterator(base: stream.makeAsyncIterator(), token: ObservationToken(cancel), isEqual: isEqual)
    }

    /// Iterates the values.
    public struct Iterator: AsyncIteratorProtocol {
        private var base: AsyncThrowingStream<Value, any Error>.Iterator
        private let token: ObservationToken
        private let isEqual: (@Sendable (Value, Value) -> Bool)?
        private var last: Value?

        init(base: AsyncThrowingStream<Value, any Error>.Iterator, token: ObservationToken, isEqual: (@Sendable (Value, Value) -> Bool)?) {
            self.base = base
            self.token = token
            self.isEqual = isEqual
        }

        /// The next value: the first one at once, later ones after a commit that changed them.
        public mutating func next() async throws -> Value? {
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
