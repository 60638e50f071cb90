import Foundation

extension PostgresTestServer {
    /// Restarts the server on the same port (`pg_ctl restart -m immediate`: its clients are
    /// cut off without a goodbye, as in a crash, and the server comes back after recovery).
    public func restart() throws {
        try Self.run("pg_ctl", ["-D", dataDirectory.path, "-l", logFile.path, "-m", "immediate", "-w", "-t", "60", "restart"], in: directory)
    }

    /// Runs `psql` of this server's installation on `database` with `arguments` (after the
    /// connection options) as another process and returns its standard output.
    public func psql(database: String, _ arguments: [String]) throws -> String {
        guard let bin = Self.binDirectory else { throw TestServerError(message: "PostgreSQL is not installed") }
        let process = Process()
        process.executableURL = bin.appendingPathComponent("psql")
        process.arguments = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", database] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestServerError(message: "psql exited with status \(process.terminationStatus): \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
