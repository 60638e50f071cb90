import ArgumentParser
import Foundation
import StrataCompiler

extension StrataCommand {
    /// `strata generate <schema> --output <dir>`: writes the Swift code of a schema.
    struct Generate: ParsableCommand, SchemaFileCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate the Swift code of a schema file.",
            discussion: HelpText.generate + """
                Writes one Swift file per schema: records, DAOs, named queries, the database namespace and the \
                embedded migrations. The file is rewritten only when its bytes change. Problems are printed to \
                standard error as `path:line:column: error: message` and the exit code is 1.
                """
        )

        @OptionGroup var schemaFile: SchemaFileArgument

        @Option(name: .long, help: "The directory to write <Name>.swift into.")
        var output: String?

        @Option(name: .long, help: "The exact file to write (the build plugin uses this).")
        var outputFile: String?

        @Flag(name: .long, help: "Leave the PostgreSQL DAOs out (the build plugin passes it for a target that does not depend on StrataPostgres).")
        var noPostgres = false

        func validate() throws {
            if (output == nil) == (outputFile == nil) {
                throw ValidationError("pass exactly one of --output <dir> and --output-file <file>")
            }
        }

        func run() throws {
            let swift: String
            do {
                swift = try Generator.generate(schemaPath: schema, postgresCode: !noPostgres)
            } catch let error as DiagnosticsError {
                for diagnostic in error.diagnostics {
                    FileHandle.standardError.write(Data((diagnostic.rendered + "\n").utf8))
                }
                throw ExitCode(1)
            }
            let path = outputFile ?? URL(fileURLWithPath: output ?? ".").appendingPathComponent(Generator.schemaStem(of: schema) + ".swift").path
            var wrote = false
            try writeOrExit({ wrote = try Generator.writeIfChanged(swift, to: path) }, path: path)
            if outputFile == nil {  // the build plugin passes --output-file and wants a quiet build log
                FileHandle.standardError.write(Data("\(wrote ? "wrote" : "unchanged") \(path)\n".utf8))
            }
        }
    }
}
