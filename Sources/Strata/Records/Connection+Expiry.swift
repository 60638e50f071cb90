import Foundation

/// The clock of expiring rows (`expires: true` in a schema, docs/Expiry.md), as generated code
/// uses it.
extension Connection {
    /// The current time by the database's clock, ``Database/Configuration/now``: generated
    /// reads of an expiring table leave out the rows whose `expiresAt` is not after it.
    ///
    /// ```swift
    /// let stillValid = try db.read { conn in conn.now < session.expiresAt ?? .distantFuture }
    /// ```
    public var now: Date { clock() }

    /// The time `duration` from now by the database's clock: the `expiresAt` of a row inserted
    /// with `expiresIn: duration`.
    ///
    /// ```swift
    /// let expiresAt = conn.date(in: .seconds(90))
    /// ```
    public func date(in duration: Duration) -> Date {
        let (seconds, attoseconds) = duration.components
        return clock().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
}
