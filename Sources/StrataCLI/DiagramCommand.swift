import ArgumentParser
import Foundation
import StrataCompiler

extension DiagramFormat: ExpressibleByArgument {}

extension StrataCommand {
    /// `strata diagram <schema> [--format mermaid|dot] [--output FILE]`.
    struct Diagram: ParsableCommand, SchemaFileCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw a schema as an entity-relationship diagram (Mermaid or Graphviz DOT).",
            discussion: HelpText.diagram
        )

        @OptionGroup var schemaFile: SchemaFileArgument

        @Option(name: .long, help: "mermaid (an erDiagram for Markdown) or dot (for Graphviz).")
        var format: DiagramFormat = .mermaid

        @Option(name: .long, help: "Write the diagram to this file instead of standard output.")
        var output: String?

        func run() throws {
            let declared = try loadSchemaOrExit(schema)
            let text = DiagramRenderer.render(declared, format: format)
            guard let output else {
                FileHandle.standardOutput.write(Data(text.utf8))
                return
            }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                printError("error: cannot write \(output): \(error.localizedDescription)")
                throw ExitCode(1)
            }
            printError("wrote \(output)")
        }
    }
}
