import ArgumentParser
import Foundation
import Strata
import StrataCompiler

/// How long `strata migrate` waits for another process holding the write lock (another
/// `strata migrate`, or the app) before giving up.
let migrateBusyTimeout: TimeInterval = 60

/// The `<schema>` argument of the commands that work on one schema file, declared once so that
/// it reads and helps the same in each (`@OptionGroup var schemaFile: SchemaFileArgument`).
struct SchemaFileArgument: ParsableArguments {
    @Argument(help: "The schema file (<Name>.schema.yml).")
    var schema: String
}

/// A command that takes the one `<schema>` argument of ``SchemaFileArgument``.
protocol SchemaFileCommand {
    /// The `<schema>` argument.
    var schemaFile: SchemaFileArgument { get }
}

extension SchemaFileCommand {
    /// The schema file's path, as given.
    var schema: String { schemaFile.schema }
}

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

/// Runs `write`, or prints one line naming `path` and the reason and exits with 1.
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
    var posix: Int32?
    if nsError.domain == NSPOSIXErrorDomain {
        posix = Int32(nsError.code)
    } else if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error, (underlying as NSError).domain == NSPOSIXErrorDomain {
        posix = Int32((underlying as NSError).code)
    }
    let path = nsError.userInfo[NSFilePathErrorKey] as? String ?? (nsError.userInfo[NSURLErrorKey] as? URL)?.path
    var isDirectory: ObjCBool = false
    if posix == EEXIST || posix == ENOTDIR || (nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileWriteFileExistsError),
        let path, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
    {
        return "\(path) is a file, not a folder"
    }
    if let posix, let text = strerror(posix) { return String(cString: text) }
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
        return nsError.localizedDescription.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// An error's description on one line.
func oneLine(_ error: any Error) -> String {
    let text = (error as? StrataError)?.message ?? "\(error)"
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
}

/// Prints the applied migrations (with when) and the pending ones, as `strata status` lists
/// them for a SQLite file and for a PostgreSQL database alike.
func printMigrationLists(applied: [(version: Int, name: String, appliedAt: String)], pending: [Migration]) {
    print("applied:")
    if applied.isEmpty { print("  (none)") }
    for record in applied {
        print("  \(Migration(version: record.version, name: record.name, sql: "").fileName.dropLast(4))  \(record.appliedAt)")
    }
    print("pending:")
    if pending.isEmpty { print("  (none)") }
    for migration in pending { print("  \(migration.fileName.dropLast(4))") }
}
