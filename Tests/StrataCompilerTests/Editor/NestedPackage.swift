import Foundation

/// A fresh package whose targets depend on this one by path and use the build plugin, built in a
/// subprocess: the documentation's examples (`DocSnippetTests`) and the compile corpus
/// (`CompileCorpusTests`) each compile in ONE such build.
enum NestedPackage {
    /// The manifest of package `name` with one target per name in `targets`.
    static func manifest(name: String, targets: [String]) -> String {
        let identity = MigrationPluginTests.literal(ExternalTool.repositoryRoot.lastPathComponent)
        let targetList = targets.map {
            """
                    .target(
                        name: "\($0)",
                        dependencies: [.product(name: "Strata", package: \(identity))],
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
