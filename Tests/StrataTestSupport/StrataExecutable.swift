import Foundation

/// The `strata` executable the package built beside the test bundle, run as a user runs it,
/// and the one way the test targets run a program and read what it printed
/// (StrataCompilerTests, StrataReliabilityTests, StrataPostgresIntegrationTests).
public enum StrataExecutable {
    /// What one run printed and how it ended.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// The `strata` executable in the build products directory that holds this test bundle, or nil.
    public static let url: URL? = find("strata")

    /// The `strata-postgres` executable (the command with `--url`) beside the test bundle, or nil.
    public static let postgresURL: URL? = find("strata-postgres")

    /// The executable `name` in the build products directory that holds this test bundle, or nil.
    static func find(_ name: String) -> URL? {
        var starts = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])]
        starts += Bundle.allBundles.map(\.bundleURL)
        for start in starts {
            var directory = start
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }

    /// Runs `strata` (or, with `postgres`, `strata-postgres`) with `arguments` (in `directory`
    /// when given) to completion.
    public static func run(_ arguments: [String], in directory: URL? = nil, postgres: Bool = false) throws -> Result {
        let name = postgres ? "strata-postgres" : "strata"
        guard let url = postgres ? postgresURL : url else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the \(name) executable was not found beside the test bundle"])
        }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        return try capture(process)
    }

    /// Runs a configured `process` to completion and returns what it printed; `input`, when
    /// given, is written to its standard input, which is then closed.
    public static func capture(_ process: Process, input: Data? = nil) throws -> Result {
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inPipe = input == nil ? nil : Pipe()
        if let inPipe { process.standardInput = inPipe }
        try process.run()
        // Drain stderr on a thread of its own, so a chatty program cannot fill one pipe and stall.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let inPipe, let input {
            // A program that exits without reading all its input (one that is missing, say)
            // must fail its test, not end the test process: SIGPIPE is ignored and the write's
            // EPIPE is dropped; the exit status and stderr tell what happened.
            ignoreBrokenPipe()
            try? inPipe.fileHandleForWriting.write(contentsOf: input)
            try? inPipe.fileHandleForWriting.close()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Sets SIGPIPE to be ignored in the test process, once.
private let brokenPipeIgnored: Void = {
    _ = signal(SIGPIPE, SIG_IGN)
}()

private func ignoreBrokenPipe() {
    brokenPipeIgnored
}
