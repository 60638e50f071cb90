import Foundation
import PackagePlugin

/// `swift package strata <subcommand> …`: the whole `strata` command (check, generate,
/// migration, migrate, status, introspect, diagram) run by SwiftPM, so nothing has to be on
/// `PATH`. The arguments go to the command unchanged, and it runs in the current directory, so
/// relative paths mean what they mean in the shell.
///
/// It declares no permission, so that `swift package strata check …` needs no flag. On Linux a
/// command plugin runs unsandboxed; on macOS, where it runs in a sandbox, the subcommands that
/// write files need `swift package --disable-sandbox strata …` (docs/CLI.md).
///
/// Its tool is the plugins' copy of `strata` (StrataPluginTool), which builds no SwiftNIO: given
/// `--url postgres://…` it prints the `swift run strata-postgres …` command that has it.
@main
struct StrataCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let process = Process()
        process.executableURL = try context.tool(named: "StrataPluginTool").url
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            // The command has said why; this line makes SwiftPM exit non-zero.
            throw StrataCommandPluginError(status: process.terminationStatus, arguments: arguments)
        }
    }
}

/// The command ended with a non-zero status.
struct StrataCommandPluginError: Error, CustomStringConvertible {
    var status: Int32
    var arguments: [String]

    var description: String {
        "strata \(arguments.first ?? "") exited with code \(status)"
    }
}
