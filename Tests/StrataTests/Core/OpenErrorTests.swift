import Foundation
import Strata
import StrataTestSupport
import Testing

/// A database that cannot be opened, is not SQLite, or may not be written: the error names the
/// file, and the file is left as it was.
@Suite struct OpenErrorTests {
    @Test func aFileThatIsNotSQLiteIsNamed() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("notes.txt")
        let bytes = Data(String(repeating: "not a database, just text\n", count: 200).utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        for configuration in [Database.Configuration(), .readOnly] {
            do {
                _ = try Database(path: path, configuration: configuration)
                Issue.record("a text file opened as a database")
            } catch let error as StrataError {
                #expect(error.resultCode == 26, "\(error)")  // SQLITE_NOTADB
                #expect(error.message == "\(path): file is not a database", "\(error)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aPathThatCannotBeOpenedIsNamedWithTheReason() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("missing/folder/app.sqlite")
        do {
            _ = try Database(path: path)
            Issue.record("opened a file in a missing folder")
        } catch let error as StrataError {
            #expect(error.resultCode == 14, "\(error)")  // SQLITE_CANTOPEN
            #expect(error.message == "cannot open \(path): unable to open database file (No such file or directory)", "\(error)")
        }
        do {
            _ = try Database(path: dir.path("absent.sqlite"), configuration: .readOnly)
            Issue.record("opened a missing file read-only")
        } catch let error as StrataError {
            #expect(error.message.contains(dir.path("absent.sqlite")), "\(error)")
        }
    }

    /// A name with URI metacharacters opens read-only (the fallback for a folder that cannot be
    /// written opens a `file:` URI; `StrataCLITests` runs it as a user who may not write).
    @Test func aReadOnlyDatabaseWithAnOddNameOpens() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("odd name?#%.sqlite")
        do {
            let db = try Database(path: path)
            try db.write { try $0.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (42)") }
            try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        let readOnly = try Database(path: path, configuration: .readOnly)
        #expect(try readOnly.read { try $0.fetchValue(Int.self, sql: "SELECT x FROM t") } == 42)
    }
}
