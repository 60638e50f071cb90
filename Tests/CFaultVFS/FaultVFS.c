#include "FaultVFS.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

typedef struct FaultFile {
    sqlite3_file base;   /* must be first: methods point at faultIo */
    sqlite3_file *real;  /* the wrapped file, allocated right after this struct */
} FaultFile;

static sqlite3_vfs faultVfs;
static sqlite3_vfs *realVfs = 0;
static sqlite3_io_methods faultIo;

static int failAt = 0;
static int failCode = 0;
static int failPersistent = 0;
static int counted = 0;
static int failures = 0;
static int failedKind = 0;
static int skipSync = 0;

/* Counts one operation of kind `kind`; returns the error to report, or SQLITE_OK. */
static int tick(int kind, int defaultCode) {
    int n = __atomic_add_fetch(&counted, 1, __ATOMIC_SEQ_CST);
    int at = __atomic_load_n(&failAt, __ATOMIC_SEQ_CST);
    if (at > 0 && (n == at || (failPersistent && n > at))) {
        if (__atomic_fetch_add(&failures, 1, __ATOMIC_SEQ_CST) == 0) failedKind = kind;
        return failCode != 0 ? failCode : defaultCode;
    }
    return SQLITE_OK;
}

#define REAL(f) (((FaultFile *)(f))->real)

static int fClose(sqlite3_file *f) {
    int rc = SQLITE_OK;
    if (REAL(f)->pMethods) rc = REAL(f)->pMethods->xClose(REAL(f));
    return rc;
}
static int fRead(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off) {
    return REAL(f)->pMethods->xRead(REAL(f), buf, amt, off);
}
static int fWrite(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off) {
    int rc = tick('w', SQLITE_IOERR_WRITE);
    if (rc != SQLITE_OK) return rc;
    return REAL(f)->pMethods->xWrite(REAL(f), buf, amt, off);
}
static int fTruncate(sqlite3_file *f, sqlite3_int64 size) {
    int rc = tick('t', SQLITE_IOERR_TRUNCATE);
    if (rc != SQLITE_OK) return rc;
    return REAL(f)->pMethods->xTruncate(REAL(f), size);
}
static int fSync(sqlite3_file *f, int flags) {
    int rc = tick('s', SQLITE_IOERR_FSYNC);
    if (rc != SQLITE_OK) return rc;
    if (__atomic_load_n(&skipSync, __ATOMIC_SEQ_CST)) return SQLITE_OK;
    return REAL(f)->pMethods->xSync(REAL(f), flags);
}
static int fFileSize(sqlite3_file *f, sqlite3_int64 *size) {
    return REAL(f)->pMethods->xFileSize(REAL(f), size);
}
static int fLock(sqlite3_file *f, int level) { return REAL(f)->pMethods->xLock(REAL(f), level); }
static int fUnlock(sqlite3_file *f, int level) { return REAL(f)->pMethods->xUnlock(REAL(f), level); }
static int fCheckReservedLock(sqlite3_file *f, int *out) {
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}
static int fFileControl(sqlite3_file *f, int op, void *arg) {
    return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}
static int fSectorSize(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int fDeviceCharacteristics(sqlite3_file *f) {
    return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}
static int fShmMap(sqlite3_file *f, int page, int size, int extend, void volatile **out) {
    return REAL(f)->pMethods->xShmMap(REAL(f), page, size, extend, out);
}
static int fShmLock(sqlite3_file *f, int offset, int n, int flags) {
    return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags);
}
static void fShmBarrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int fShmUnmap(sqlite3_file *f, int deleteFlag) {
    return REAL(f)->pMethods->xShmUnmap(REAL(f), deleteFlag);
}
static int fFetch(sqlite3_file *f, sqlite3_int64 off, int amt, void **pp) {
    return REAL(f)->pMethods->xFetch(REAL(f), off, amt, pp);
}
static int fUnfetch(sqlite3_file *f, sqlite3_int64 off, void *p) {
    return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

static int vOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    FaultFile *wrapper = (FaultFile *)file;
    wrapper->real = (sqlite3_file *)(wrapper + 1);
    memset(wrapper->real, 0, (size_t)realVfs->szOsFile);
    int rc = realVfs->xOpen(realVfs, name, wrapper->real, flags, outFlags);
    /* SQLite calls xClose when pMethods is set, even after a failed open. */
    wrapper->base.pMethods = wrapper->real->pMethods ? &faultIo : 0;
    return rc;
}
static int vDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    (void)vfs;
    return realVfs->xDelete(realVfs, name, syncDir);
}
static int vAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return realVfs->xAccess(realVfs, name, flags, out);
}
static int vFullPathname(sqlite3_vfs *vfs, const char *name, int n, char *out) {
    (void)vfs;
    return realVfs->xFullPathname(realVfs, name, n, out);
}
static void *vDlOpen(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return realVfs->xDlOpen(realVfs, name);
}
static void vDlError(sqlite3_vfs *vfs, int n, char *out) {
    (void)vfs;
    realVfs->xDlError(realVfs, n, out);
}
static void (*vDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return realVfs->xDlSym(realVfs, handle, symbol);
}
static void vDlClose(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    realVfs->xDlClose(realVfs, handle);
}
static int vRandomness(sqlite3_vfs *vfs, int n, char *out) {
    (void)vfs;
    return realVfs->xRandomness(realVfs, n, out);
}
static int vSleep(sqlite3_vfs *vfs, int micro) {
    (void)vfs;
    return realVfs->xSleep(realVfs, micro);
}
static int vCurrentTime(sqlite3_vfs *vfs, double *out) {
    (void)vfs;
    return realVfs->xCurrentTime(realVfs, out);
}
static int vGetLastError(sqlite3_vfs *vfs, int n, char *out) {
    (void)vfs;
    return realVfs->xGetLastError ? realVfs->xGetLastError(realVfs, n, out) : 0;
}
static int vCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return realVfs->xCurrentTimeInt64(realVfs, out);
}

int strata_fault_vfs_register(const char *name) {
    static int registered = 0;
    if (__atomic_exchange_n(&registered, 1, __ATOMIC_SEQ_CST)) return SQLITE_OK;
    realVfs = sqlite3_vfs_find(0);
    if (!realVfs) return SQLITE_ERROR;
    faultIo = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = fClose, .xRead = fRead, .xWrite = fWrite, .xTruncate = fTruncate, .xSync = fSync,
        .xFileSize = fFileSize, .xLock = fLock, .xUnlock = fUnlock, .xCheckReservedLock = fCheckReservedLock,
        .xFileControl = fFileControl, .xSectorSize = fSectorSize, .xDeviceCharacteristics = fDeviceCharacteristics,
        .xShmMap = fShmMap, .xShmLock = fShmLock, .xShmBarrier = fShmBarrier, .xShmUnmap = fShmUnmap,
        .xFetch = fFetch, .xUnfetch = fUnfetch,
    };
    faultVfs = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(FaultFile) + realVfs->szOsFile,
        .mxPathname = realVfs->mxPathname,
        .zName = strdup(name),
        .xOpen = vOpen, .xDelete = vDelete, .xAccess = vAccess, .xFullPathname = vFullPathname,
        .xDlOpen = vDlOpen, .xDlError = vDlError, .xDlSym = vDlSym, .xDlClose = vDlClose,
        .xRandomness = vRandomness, .xSleep = vSleep, .xCurrentTime = vCurrentTime,
        .xGetLastError = vGetLastError, .xCurrentTimeInt64 = vCurrentTimeInt64,
    };
    return sqlite3_vfs_register(&faultVfs, 0);
}

void strata_fault_vfs_arm(int at, int errorCode, int persistent) {
    __atomic_store_n(&failAt, 0, __ATOMIC_SEQ_CST);
    failCode = errorCode;
    failPersistent = persistent;
    failedKind = 0;
    __atomic_store_n(&failures, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&counted, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&failAt, at, __ATOMIC_SEQ_CST);
}

void strata_fault_vfs_disarm(void) { __atomic_store_n(&failAt, 0, __ATOMIC_SEQ_CST); }

int strata_fault_vfs_count(void) { return __atomic_load_n(&counted, __ATOMIC_SEQ_CST); }

int strata_fault_vfs_failures(void) { return __atomic_load_n(&failures, __ATOMIC_SEQ_CST); }

int strata_fault_vfs_failed_kind(void) { return failedKind; }

void strata_fault_vfs_skip_sync(int skip) { __atomic_store_n(&skipSync, skip, __ATOMIC_SEQ_CST); }
