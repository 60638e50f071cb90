import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory strata-migration new <schema> --name <name>`
/// (and `verify <schema>`; SwiftPM asks for the permission whatever the verb): the
/// migration commands of `strata` as a SwiftPM command plugin, for users who prefer plugin
/// commands to `swift run strata migration …`. When the schema path is left out and the
/// package has exactly one `*.schema.yml`, that one is used.
@main
struct StrataMigrationPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "StrataPluginTool").url
        let schemas = context.package.targets
            .compactMap { $0 as? SourceModuleTarget }
            .flatMap { $0.sourceFiles.map(\.url) }
            .filter { $0.lastPathComponent.hasSuffix(".schema.yml") || $0.lastPathComponent.hasSuffix(".schema.yaml") }
        let arguments = try Self.resolve(arguments, schemas: schemas.map(\.path))
        let process = Process()
        process.executableURL = tool
        process.arguments = ["migration"] + arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("strata migration \(arguments.joined(separator: " ")) failed (exit code \(process.terminationStatus))")
            throw MigrationPluginError.failed(process.terminationStatus)
        }
    }

    /// Inserts the package's only schema when the arguments name none.
    static func resolve(_ arguments: [String], schemas: [String]) throws -> [String] {
        guard let subcommand = arguments.first, ["new", "verify"].contains(subcommand) else {
            throw MigrationPluginError.usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains(where: { $0.hasSuffix(".schema.yml") || $0.hasSuffix(".schema.yaml") }) {
            return arguments
        }
        guard schemas.count == 1, let schema = schemas.first else {
            throw MigrationPluginError.whichSchema(schemas)
        }
        return [subcommand, schema] + rest
    }
}

enum MigrationPluginError: Error, CustomStringConvertible {
    case usage
    case whichSchema([String])
    case failed(Int32)

    var description: String {
        switch self {
        case .usage:
            "usage: swift package --allow-writing-to-package-directory strata-migration new [<schema>] --name <name> [--dry-run] [--allow-destructive]\n"
                + "       swift package --allow-writing-to-package-directory strata-migration verify [<schema>]"
        case .whichSchema(let schemas):
            schemas.isEmpty
                ? "the package has no *.schema.yml in its targets"
                : "the package has several schemas; name one: \(schemas.joined(separator: ", "))"
        case .failed(let code):
            "strata exited with code \(code)"
        }
    }
}
