import Foundation

/// A value guarded by a lock, shared between test threads and tasks: the one lock box of the
/// test targets.
///
/// ```swift
/// let seen = Locked<[Int]>([])
/// seen.withLock { $0.append(1) }
/// #expect(seen.withLock { $0 } == [1])
/// ```
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value while holding the lock.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
