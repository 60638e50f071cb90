import CSQLite

/// Process-wide settings of the SQLite library, for Strata's own executables.
package enum SQLiteLibrary {
    /// Turns off SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`), which take a mutex at
    /// every allocation SQLite makes; `sqlite3_memory_used()` then reports nothing. Works only
    /// before the process opens its first connection; returns whether SQLite took it. The
    /// `strata` tool calls it first thing: it compiles many thousands of statements.
    @discardableResult
    package static func disableMemoryStatistics() -> Bool {
        strata_disable_memory_statistics() == SQLITE_OK
    }
}
