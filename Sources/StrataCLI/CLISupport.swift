import ArgumentParser
import Foundation
import Strata
import StrataCompiler

/// How long `strata migrate` waits for another process holding the write lock (another
/// `strata migrate`, or the app) before giving up.
let migrateBusyTimeout: TimeInterval = 60

/// Prints what `status.drift` found, one indented line per difference between the file and
/// the structure the applied migrations build (replayed in memory).
func printDriftDetails(_ db: Database, migrations: [Migration], status: Migrator.Status) {
    guard let drift = status.drift else { return }
    let found: [String]
    do {
        found = try db.read { conn in
            try SchemaDrift.differences(in: conn, migrations: migrations, version: drift.version)
        }
    } catch {
        printError("  (the differences could not be listed: \(oneLine(error)))")
        return
    }
    if found.isEmpty { return }
    printError("differences from the structure of version \(drift.version):")
    for difference in found { printError("  \(difference)") }
}

/// Writes `text` to `path` (creating its folder when `createFolder`), or prints one line
/// naming the path and the reason and exits with 1.
func writeOrExit(_ write: () throws -> Void, path: String) throws {
    do {
        try write()
    } catch {
        printError("error: cannot write \(path): \(reason(of: error))")
        throw ExitCode(1)
    }
}

/// The short reason of a file-system error ("Permission denied", "Not a directory"), not the
/// whole NSError description.
func reason(of error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
        let text = strerror(Int32(underlying.code))
    {
        return String(cString: text)
    }
    if nsError.domain == NSPOSIXErrorDomain, let text = strerror(Int32(nsError.code)) {
        return String(cString: text)
    }
    switch (nsError.domain, nsError.code) {
    case (NSCocoaErrorDomain, NSFileWriteNoPermissionError), (NSCocoaErrorDomain, NSFileReadNoPermissionError):
        return "Permission denied"
    case (NSCocoaErrorDomain, NSFileWriteOutOfSpaceError):
        return "No space left on device"
    case (NSCocoaErrorDomain, NSFileWriteVolumeReadOnlyError):
        return "Read-only file system"
    case (NSCocoaErrorDomain, NSFileNoSuchFileError), (NSCocoaErrorDomain, NSFileReadNoSuchFileError):
        return "No such file or directory"
    default:
        return oneLine(error)
    }
}

/// An error's description on one line.
func oneLine(_ error: any Error) -> String {
    let text = (error as? StrataError)?.message ?? "\(error)"
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
}
