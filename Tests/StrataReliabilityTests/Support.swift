import Foundation
import Strata
import StrataTestSupport
import Testing

/// Reliability tests run in two sizes. The default (`swift test`) is a short smoke run of every
/// test; `STRATA_LONG_TESTS=1` runs the sizes whose figures `docs/Reliability.md` publishes.
/// `scripts/reliability.sh` runs the long ones.
enum Reliability {
    static let environment = ProcessInfo.processInfo.environment

    /// True when `STRATA_LONG_TESTS=1`.
    static let isLong = environment["STRATA_LONG_TESTS"] == "1"

    /// `fast` normally, `long` with `STRATA_LONG_TESTS=1`; an environment variable `name`
    /// overrides both.
    static func size(_ name: String, fast: Int, long: Int) -> Int {
        if let text = environment[name], let value = Int(text), value > 0 { return value }
        return isLong ? long : fast
    }

    /// Prints a figure (one line starting `FIGURE`) and appends it to `$STRATA_FIGURES_FILE`
    /// when that is set, so a long run leaves a record of its numbers.
    static func figure(_ text: String) {
        let line = "FIGURE \(text)\n"
        FileHandle.standardError.write(Data(line.utf8))
        guard let path = environment["STRATA_FIGURES_FILE"] else { return }
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        if let handle = FileHandle(forWritingAtPath: path) {
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            try? handle.close()
        }
    }

    /// The peak resident memory of this process, in MiB (`VmHWM` of `/proc/self/status`), or
    /// nil where that file does not exist.
    static func peakMemoryMiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.filter(\.isNumber)
            return Int(digits).map { $0 / 1024 }
        }
        return nil
    }

    /// The `strata` executable in the build products directory that holds this test bundle.
    static var executable: URL? { StrataExecutable.url }

    typealias ProcessResult = StrataExecutable.Result

    /// Runs `executable` with `arguments` in `directory` to completion.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL, input: URL? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        return try StrataExecutable.capture(process)
    }

    /// Runs the real `strata` command.
    static func strata(_ arguments: String..., in directory: URL) throws -> ProcessResult {
        let executable = try #require(executable, "the strata executable was not found beside the test bundle")
        return try run(executable, arguments, in: directory)
    }
}

/// A small seeded generator (SplitMix64) so every run makes the same choices.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Database {
    /// The first column of the first row of `sql`, read in a read transaction.
    func value<T: DatabaseValueConvertible>(_ type: T.Type = T.self, _ sql: String) throws -> T? {
        try read { conn in try conn.fetchValue(T.self, sql: sql) }
    }
}

/// A summary of a table's content that changes when any row is lost or altered.
struct Fingerprint: Hashable, CustomStringConvertible {
    var rows: Int
    var sums: [String]

    /// `count(*)` plus each of `expressions` (aggregates, e.g. `sum(id)`), rendered as text so
    /// integers and reals compare exactly.
    init(_ conn: Connection, table: String, expressions: [String]) throws {
        rows = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM \(table)") ?? -1
        let list = expressions.map { "CAST(\($0) AS TEXT)" }.joined(separator: ", ")
        let row = try conn.fetchOne(sql: "SELECT \(list) FROM \(table)")
        sums = try expressions.indices.map { index in try row?.get(index, as: String?.self) ?? "NULL" }
    }

    var description: String { "\(rows) rows, " + sums.joined(separator: ", ") }
}
