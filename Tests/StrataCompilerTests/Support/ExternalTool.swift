import Foundation
import StrataTestSupport

/// Runs programs found on `PATH` (python3, dot, swift) for tests that check Strata's output with
/// the real tools.
enum ExternalTool {
    typealias Result = StrataExecutable.Result

    /// CI sets `CI=true`: there a missing tool is a failure, locally a skipped test.
    static var isCI: Bool {
        ["true", "1"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "")
    }

    /// The full path of `name` on `PATH` (or `name` itself when it is a path), if any.
    static func find(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `name` (looked up on `PATH`) with `arguments`, feeding `input` to its standard input.
    static func run(
        _ name: String, _ arguments: [String], input: String? = nil, in directory: URL? = nil,
        environment: [String: String]? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: find(name) ?? "/usr/bin/env")
        process.arguments = find(name) == nil ? [name] + arguments : arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        // Standard input is always a pipe (closed after `input`), never the test runner's.
        return try StrataExecutable.capture(process, input: Data((input ?? "").utf8))
    }

    /// The repository's root directory (this file is Tests/StrataCompilerTests/Support/…).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
