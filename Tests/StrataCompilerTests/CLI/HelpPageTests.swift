import Foundation
import StrataTestSupport
import Testing

/// Every `--help` page of `strata` starts with examples, and the shell completion script that
/// docs/CLI.md documents knows every subcommand.
@Suite struct HelpPageTests {
    static let commands: [[String]] = [
        [], ["check"], ["generate"], ["migration"], ["migration", "new"], ["migration", "verify"], ["migrate"],
        ["status"], ["prepare"], ["introspect"], ["diagram"],
    ]

    @Test(arguments: commands)
    func helpStartsWithExamples(_ command: [String]) throws {
        let directory = FileManager.default.temporaryDirectory
        let result = try StrataCLITests().strata(command + ["--help"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let page = result.stdout
        let examples = try #require(page.range(of: "EXAMPLES:\n  strata \(command.joined(separator: " "))"),
                                    "strata \(command.joined(separator: " ")) --help has no examples:\n\(page)")
        let usage = try #require(page.range(of: "USAGE:"))
        #expect(examples.lowerBound < usage.lowerBound, "examples come before the usage line")
        let discussion = page[..<usage.lowerBound]
        #expect(!discussion.split(separator: "\n").contains { $0.count > 80 }, "examples fit in 80 columns:\n\(page)")
    }

    @Test func completionScriptKnowsEverySubcommand() throws {
        let directory = FileManager.default.temporaryDirectory
        for shell in ["bash", "zsh", "fish"] {
            let result = try StrataCLITests().strata(["--generate-completion-script", shell], in: directory)
            #expect(result.status == 0, "\(shell): \(result.stderr)")
            for subcommand in ["check", "generate", "migration", "migrate", "status", "prepare", "diagram"] {
                #expect(result.stdout.contains(subcommand), "the \(shell) script lacks \(subcommand)")
            }
        }
        let cliDoc = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
        #expect(cliDoc.contains("strata --generate-completion-script"))
    }
}

extension StrataCLITests {
    /// `strata` with an argument list (the variadic form's twin).
    func strata(_ arguments: [String], in directory: URL) throws -> Result {
        try StrataExecutable.run(arguments, in: directory)
    }
}
