import Foundation
import PackagePlugin

/// The Strata build tool plugin: one build command per `*.schema.yml` of a target, running
/// `strata generate` into the plugin's work directory. The schema, its migration files and the
/// tool are the command's inputs, so an unchanged schema reruns nothing; the tool rewrites its
/// output only when the bytes change.
@main
struct StrataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try StrataPlugin.commands(
            files: target.sourceFiles.map(\.url),
            targetDirectory: target.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "StrataPluginTool").url)
    }

    /// The build commands for the schema files among `files`: shared by the SwiftPM and the
    /// Xcode entry points.
    static func commands(files: [URL], targetDirectory: URL, workDirectory: URL, tool: URL) throws -> [Command] {
        let schemas = files.filter { isSchema($0) }.sorted { $0.path < $1.path }
        return schemas.map { schema in
            let stem = schemaStem(schema)
            let migrationsDirectory = schema.deletingLastPathComponent().appendingPathComponent(stem + ".migrations").standardizedFileURL.path
            let migrations = files.filter {
                $0.pathExtension == "sql" && $0.deletingLastPathComponent().standardizedFileURL.path == migrationsDirectory
            }.sorted { $0.path < $1.path }
            // Unique within the target: the name keeps the schema's path (see StrataOutputFileName).
            let output = workDirectory.appendingPathComponent(
                StrataOutputFileName.fileName(schema: schema, targetDirectory: targetDirectory))
            return .buildCommand(
                displayName: "Strata: generating \(stem) from \(schema.lastPathComponent)",
                executable: tool,
                arguments: ["generate", schema.path, "--output-file", output.path],
                inputFiles: [schema] + migrations,
                outputFiles: [output])
        }
    }

    static func isSchema(_ url: URL) -> Bool {
        url.lastPathComponent.hasSuffix(".schema.yml") || url.lastPathComponent.hasSuffix(".schema.yaml")
    }

    static func schemaStem(_ url: URL) -> String {
        let name = url.lastPathComponent
        for suffix in [".schema.yml", ".schema.yaml"] where name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count))
        }
        return name
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension StrataPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try StrataPlugin.commands(
            files: target.inputFiles.map(\.url),
            targetDirectory: context.xcodeProject.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "StrataPluginTool").url)
    }
}
#endif
