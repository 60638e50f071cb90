#ifndef STRATA_CSQLITE_SHIM_H
#define STRATA_CSQLITE_SHIM_H

// The session extension (changesets, Database+Changesets.swift) is compiled into Debian's
// libsqlite3 (PRAGMA compile_options lists ENABLE_SESSION and ENABLE_PREUPDATE_HOOK), but its
// declarations are behind these macros in sqlite3.h.
#ifndef SQLITE_ENABLE_SESSION
#define SQLITE_ENABLE_SESSION 1
#endif
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif

#include <sqlite3.h>

/// Binds text that SQLite copies at once (SQLITE_TRANSIENT cannot be spelled in Swift).
static inline int strata_bind_text(sqlite3_stmt *statement, int index, const char *bytes, int length) {
    return sqlite3_bind_text(statement, index, bytes, length, SQLITE_TRANSIENT);
}

/// Binds a blob that SQLite copies at once.
static inline int strata_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

/// Sets an integer option of `sqlite3_db_config` (a C variadic function, which Swift cannot call).
static inline int strata_db_config_int(sqlite3 *db, int option, int value) {
    return sqlite3_db_config(db, option, value, (int *)0);
}

/// Turns off SQLite's memory statistics for the whole process (`sqlite3_config`, a C variadic
/// function): each of SQLite's allocations then takes no mutex. Only before SQLite initializes
/// (the first connection); later it returns SQLITE_MISUSE and changes nothing.
static inline int strata_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
