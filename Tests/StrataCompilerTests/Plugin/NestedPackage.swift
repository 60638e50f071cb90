import Foundation

/// A fresh package whose targets depend on this one by path and use the build plugin, built in a
/// subprocess: the documentation's examples (`DocSnippetTests`) and the compile corpus
/// (`CompileCorpusTests`) are targets of ONE such package, built once per test run (Strata and
/// the plugin's tool compile once for both), and each test reads the build's output for its
/// own targets.
enum NestedPackage {
    /// What the one build said.
    struct Build: Sendable {
        var status: Int32
        var lines: [String]
        /// The executables of the top-level targets (``DocSnippetTests``), copied out of the
        /// package (which is removed) into a folder of their own: name → file.
        var executables: [String: URL] = [:]

        /// The lines about one of `targets` (their sources and their generated files are in a
        /// folder named after the target).
        func lines(about targets: [String], containing marker: String) -> [String] {
            lines.filter { line in line.contains(marker) && targets.contains { line.contains("/\($0)/") } }
        }

        /// Every line containing `marker`.
        func lines(containing marker: String) -> [String] { lines.filter { $0.contains(marker) } }
    }

    /// The build of this run: the targets of every enabled suite, built once, on first use.
    static let shared = Task<Build, any Error> {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("strata-nested-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var targets: [String] = []
        var postgresTargets: Set<String> = []
        var executableTargets: Set<String> = []
        if DocSnippetTests.enabled {
            targets += try DocSnippetTests.addTargets(to: root)
            postgresTargets = try DocSnippetTests.postgresTargetNames()
            executableTargets = try DocSnippetTests.executableTargetNames()
        }
        if CompileCorpusTests.buildEnabled { targets += try CompileCorpusTests.addTargets(to: root) }
        try manifest(name: "StrataNested", targets: targets, postgresTargets: postgresTargets, executableTargets: executableTargets)
            .write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let result = try await build(root, scratch: ".build-nested")
        var executables: [String: URL] = [:]
        if result.status == 0, !executableTargets.isEmpty {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-nested-bin-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in executableTargets {
                let built = root.appendingPathComponent(".build-nested/debug/\(name)")
                guard FileManager.default.fileExists(atPath: built.path) else { continue }
                try FileManager.default.copyItem(at: built, to: folder.appendingPathComponent(name))
                executables[name] = folder.appendingPathComponent(name)
            }
        }
        return Build(status: result.status, lines: (result.stdout + result.stderr).components(separatedBy: "\n"), executables: executables)
    }

    /// The manifest of package `name` with one target per name in `targets`; those in
    /// `postgresTargets` also depend on StrataPostgres, those in `executableTargets` are
    /// executables (top-level code in `main.swift`).
    static func manifest(name: String, targets: [String], postgresTargets: Set<String> = [], executableTargets: Set<String> = []) -> String {
        let identity = MigrationPluginTests.literal(ExternalTool.repositoryRoot.lastPathComponent)
        let targetList = targets.map {
            """
                    .\(executableTargets.contains($0) ? "executableTarget" : "target")(
                        name: "\($0)",
                        dependencies: [.product(name: "Strata", package: \(identity))\(postgresTargets.contains($0) ? ", .product(name: \"StrataPostgres\", package: \(identity))" : "")],
                        plugins: [.plugin(name: "StrataPlugin", package: \(identity))]
                    ),
            """
        }.joined(separator: "\n")
        return """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "\(name)",
                platforms: [.macOS(.v13)],
                dependencies: [.package(path: \(MigrationPluginTests.literal(ExternalTool.repositoryRoot.path)))],
                targets: [
            \(targetList)
                ]
            )

            """
    }

    /// `swift build` in `package`, with its own scratch directory (so it never waits for the
    /// lock of the build running these tests), at the lowest priority, waiting on a thread of
    /// its own rather than on one of Swift Testing's few cooperative threads.
    static func build(_ package: URL, scratch: String) async throws -> ExternalTool.Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result {
                    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SWIFTPM_") }
                    environment["CI"] = nil
                    return try ExternalTool.run("nice", ["-n", "19", "swift", "build", "--scratch-path", package.appendingPathComponent(scratch).path],
                                                in: package, environment: environment)
                })
            }
            thread.start()
        }
    }
}
