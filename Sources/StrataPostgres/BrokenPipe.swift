#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps a lost server connection from killing the process.
///
/// On Linux, writing to a socket whose peer has gone (a primary that crashed, a server that
/// was restarted) raises `SIGPIPE`, whose default action ends the process, and SwiftNIO's
/// gathering writes cannot suppress it per call (apple/swift-nio#3479). Servers built on NIO
/// ignore the signal at start-up; ``PostgresDatabase`` does the same the first time one is
/// created, so that such a write fails with an error (which Strata reports as
/// `StrataError.Kind.connection`) instead. A handler the application installed is left in
/// place: only the default disposition is changed. On Darwin, NIO sets `SO_NOSIGPIPE` on
/// every socket and nothing is changed.
enum BrokenPipe {
    /// Evaluated once per process.
    static let ignored: Void = {
        #if os(Linux)
        let previous = signal(SIGPIPE, SIG_IGN)
        if previous != nil {
            // Not the default disposition: the application's handler (or SIG_IGN) stays.
            _ = signal(SIGPIPE, previous)
        }
        #endif
    }()
}
