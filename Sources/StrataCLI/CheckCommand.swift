import ArgumentParser
import Foundation
import StrataCompiler

extension StrataCommand {
    /// `strata check <file>...`: validates schema files and reports every problem.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check schema files and report every problem.",
            discussion: HelpText.check + """
                Prints one line per problem to standard error, as `path:line:column: error: message (hint)`;
                an error inside a `sql:` scalar is followed by that one SQL line, a caret under its column.
                Exits with 1 when any file has an error, 0 otherwise.
                """
        )

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text
            case json
        }

        @Option(name: .long, help: "Output format: text (to standard error) or json (an array to standard output).")
        var format: Format = .text

        @Argument(help: "The schema files (<Name>.schema.yml).")
        var files: [String]

        func run() throws {
            var all: [Diagnostic] = []
            for file in files {
                all += Compiler.check(path: file).diagnostics
            }
            switch format {
            case .text:
                for diagnostic in all {
                    FileHandle.standardError.write(Data((diagnostic.rendered + "\n").utf8))
                }
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let data = try encoder.encode(all.map(JSONDiagnostic.init))
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            }
            if all.contains(where: { $0.severity == .error }) {
                throw ExitCode(1)
            }
        }
    }
}

/// The JSON form of a diagnostic for `--format json`.
struct JSONDiagnostic: Encodable {
    var file: String
    var line: Int
    var column: Int
    var severity: String
    var message: String
    var hint: String?

    init(_ diagnostic: Diagnostic) {
        file = diagnostic.location.file
        line = diagnostic.location.line
        column = diagnostic.location.column
        severity = diagnostic.severity.rawValue
        message = diagnostic.message
        hint = diagnostic.hint
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
        try container.encode(severity, forKey: .severity)
        try container.encode(message, forKey: .message)
        try container.encode(hint, forKey: .hint)
    }

    enum CodingKeys: String, CodingKey {
        case file, line, column, severity, message, hint
    }
}
