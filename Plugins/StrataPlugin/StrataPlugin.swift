import Foundation
import PackagePlugin

/// The Strata build tool plugin: one build command per `*.schema.yml` of a target, running
/// `strata generate` into the plugin's work directory. The schema, its migration files, its
/// `<Name>.prepared.json` and the tool are the command's inputs, so an unchanged schema reruns
/// nothing; the tool rewrites its output only when the bytes change.
@main
struct StrataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try StrataPlugin.commands(
            files: target.sourceFiles.map(\.url),
            targetDirectory: target.directoryURL,
            workDirectory: context.pluginWorkDirectoryURL,
            tool: try context.tool(named: "StrataPluginTool").url,
            usesPostgres: target.recursiveTargetDependencies.contains { $0.name == "StrataPostgres" })
    }

    /// The build commands for the schema files among `files`: shared by the SwiftPM and the
    /// Xcode entry points.
    ///
    /// `usesPostgres` says whether the target depends on StrataPostgres: when it does not, the
    /// generated file leaves out the PostgreSQL DAOs of a `dialects: [sqlite, postgres]` schema
    /// (`--no-postgres`), so whether they compile never depends on `canImport` seeing a module
    /// that another target of the package happened to build first.
    static func commands(files: [URL], targetDirectory: URL, workDirectory: URL, tool: URL, usesPostgres: Bool) throws -> [Command] {
        let schemas = files.filter { isSchema($0) }.sorted { $0.path < $1.path }
        return schemas.map { schema in
            let stem = schemaStem(schema)
            let migrationsDirectory = schema.deletingLastPathComponent().appendingPathComponent(stem + ".migrations").standardizedFileURL.path
            // The SQLite migrations and, in their `postgres` folder, the PostgreSQL ones.
            let migrationsDirectories = [migrationsDirectory, migrationsDirectory + "/postgres"]
            let migrations = files.filter {
                $0.pathExtension == "sql" && migrationsDirectories.contains($0.deletingLastPathComponent().standardizedFileURL.path)
            }.sorted { $0.path < $1.path }
            // `<Name>.prepared.json` (typed queries on PostgreSQL, written by `strata-postgres
            // prepare`): the build reads it, so editing it reruns the command.
            // (The compiler's `PreparedQueries.path(forSchemaPath:)`: `.schema.yml` replaced.)
            let preparedBase = schema.lastPathComponent.hasSuffix(".schema.yml") ? stem : schema.deletingPathExtension().lastPathComponent
            let preparedPath = schema.deletingLastPathComponent().appendingPathComponent(preparedBase + ".prepared.json").standardizedFileURL.path
            let prepared = files.filter { $0.standardizedFileURL.path == preparedPath }
            // Unique within the target: the name keeps the schema's path (see StrataOutputFileName).
            let output = workDirectory.appendingPathComponent(
                StrataOutputFileName.fileName(schema: schema, targetDirectory: targetDirectory))
            return .buildCommand(
                displayName: "Strata: generating \(stem) from \(schema.lastPathComponent)",
                executable: tool,
                arguments: ["generate", schema.path, "--output-file", output.path] + (usesPostgres ? [] : ["--no-postgres"]),
                inputFiles: [schema] + migrations + prepared,
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
            tool: try context.tool(named: "StrataPluginTool").url,
            // Xcode targets: the generated code's `#if canImport(StrataPostgres)` decides.
            usesPostgres: true)
    }
}
#endif
