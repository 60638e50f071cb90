#ifndef CSQLITERAW_SHIM_H
#define CSQLITERAW_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT cannot be spelled in Swift.
static inline int raw_bind_text(sqlite3_stmt *statement, int index, const char *bytes, int length) {
    return sqlite3_bind_text(statement, index, bytes, length, SQLITE_TRANSIENT);
}
#endif
