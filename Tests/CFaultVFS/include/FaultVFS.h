#ifndef STRATA_FAULT_VFS_H
#define STRATA_FAULT_VFS_H

/// A test-only SQLite VFS that wraps the default one and makes the Nth write, sync or
/// truncate (counted across every file it opened: database, WAL, journal) fail, for Strata's
/// reliability tests. Not thread-safe against concurrent re-arming; counting is atomic.

/// Registers the VFS under `name` (not as the default). Idempotent. Returns SQLITE_OK.
int strata_fault_vfs_register(const char *name);

/// Starts counting I/O operations from zero and fails the `failAt`-th one (1-based) with
/// `errorCode` (0: an SQLITE_IOERR_* code matching the operation). `persistent`: every later
/// operation fails too, as on a device that went away. `failAt` 0 only counts.
void strata_fault_vfs_arm(int failAt, int errorCode, int persistent);

/// Stops failing (counting goes on).
void strata_fault_vfs_disarm(void);

/// Operations counted since the last arm.
int strata_fault_vfs_count(void);

/// How many operations were failed since the last arm.
int strata_fault_vfs_failures(void);

/// The kind of the first failed operation since the last arm: 'w' write, 's' sync,
/// 't' truncate, 0 none.
int strata_fault_vfs_failed_kind(void);

/// When `skip` is non-zero, a sync that does not fail returns at once without reaching the
/// disk: it still counts, and can still be failed. Faults are about how SQLite and Strata handle
/// an error, not about power loss, so the page cache holds the same bytes either way; skipping
/// the real fsync only makes the thousands of trials fast.
void strata_fault_vfs_skip_sync(int skip);

#endif
