import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCompiler

/// The adoption corpus, end to end through the real CLI, with no hand edit at any step:
/// introspect → check → first migration → baseline → (the checked-in schema, compiled by the
/// build plugin, reads every row: the per-style tests) → add a column and rename one →
/// `migration new` → migrate → introspecting again gives the evolved schema.
@Suite struct AdoptionCorpusTests {
    func strata(_ arguments: String..., in directory: URL) throws -> StrataExecutable.Result {
        try StrataExecutable.run(arguments, in: directory)
    }

    /// The YAML without its comment lines (the header names the source file and lists warnings).
    static func withoutComments(_ yaml: String) -> String {
        yaml.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(separator: "\n")
    }

    /// An evolution of `yaml` written as a person would: a column added at the end of the first
    /// table, and a column of it renamed (one no view, trigger, check or index names). Returns
    /// the YAML to migrate to (with `renamedFrom:`) and the YAML introspect should then give.
    static func evolve(_ yaml: String) -> (migrateTo: String, expected: String)? {
        let lines = yaml.components(separatedBy: "\n")
        guard let columnsLine = lines.firstIndex(of: "    columns:") else { return nil }
        var end = columnsLine + 1
        while end < lines.count, lines[end].hasPrefix("      ") { end += 1 }
        // Column lines: `      name: value`.
        let columnLines = (columnsLine + 1..<end).filter { !lines[$0].hasPrefix("      #") }
        func parse(_ line: String) -> (name: String, value: String)? {
            let body = line.dropFirst(6)
            guard let colon = body.range(of: ": ") else { return nil }
            return (String(body[..<colon.lowerBound]), String(body[colon.upperBound...]))
        }
        func sqlName(_ name: String, _ value: String) -> String {
            guard let range = value.range(of: "column: ") else { return name }
            let rest = value[range.upperBound...]
            return String(rest.prefix { $0 != "," && $0 != " " && $0 != "}" }).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        func mentions(_ word: String) -> Int {
            yaml.lowercased().components(separatedBy: word.lowercased()).count - 1
        }
        let candidate = columnLines.reversed().first { index in
            guard let (name, value) = parse(lines[index]) else { return false }
            let sql = sqlName(name, value)
            let plain = !value.contains("primaryKey") && !value.contains("references") && !value.contains("unique") && !value.contains("check")
            return plain && mentions(sql) == (sql.lowercased() == name.lowercased() ? 1 : 2) && (sql == name || mentions(name) == 1) && !sql.contains("\"")
        }
        guard let index = candidate, let (name, value) = parse(lines[index]) else { return nil }
        let old = sqlName(name, value)
        var kept = value
        if let range = kept.range(of: "column: \(SchemaYAMLWriter.scalar(old)), ") { kept.removeSubrange(range) }
        if let range = kept.range(of: ", column: \(SchemaYAMLWriter.scalar(old)) }") { kept.replaceSubrange(range, with: " }") }
        if kept.hasPrefix("{ type: "), kept.hasSuffix(" }"), !kept.contains(", ") { kept = String(kept.dropFirst(8).dropLast(2)) }
        let renamed = "renamedField"
        let hint = kept.hasPrefix("{ ") ? String(kept.dropLast(2)) + ", renamedFrom: \(SchemaYAMLWriter.scalar(old)) }" : "{ type: \(kept), renamedFrom: \(SchemaYAMLWriter.scalar(old)) }"
        var migrateTo = lines
        var expected = lines
        migrateTo[index] = "      \(renamed): \(hint)"
        expected[index] = "      \(renamed): \(kept)"
        migrateTo.insert("      addedNote: text?", at: end)
        expected.insert("      addedNote: text?", at: end)
        return (migrateTo.joined(separator: "\n"), expected.joined(separator: "\n"))
    }

    @Test(arguments: AdoptionStyle.allCases)
    func adoptAndEvolveWithoutAHandEdit(_ style: AdoptionStyle) throws {
        let (directory, _) = try AdoptionTests.makeDatabase(style)
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = style.schemaName
        let schema = "\(name).schema.yml"
        let database = "\(style.rawValue).sqlite"

        let introspect = try strata("introspect", database, "--output", schema, "--database", name, in: directory)
        #expect(introspect.status == 0, "\(introspect.stderr)")
        let yaml = try String(contentsOf: directory.appendingPathComponent(schema), encoding: .utf8)
        // The same file the build plugin compiles into this test target.
        #expect(yaml == (try String(contentsOf: AdoptionTests.directory.appendingPathComponent(schema), encoding: .utf8)))
        let check = try strata("check", schema, in: directory)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let first = try strata("migration", "new", schema, "--name", "initial", in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        let dryRun = try strata("migrate", schema, "--database", database, "--baseline", "--dry-run", in: directory)
        #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
        let baseline = try strata("migrate", schema, "--database", database, "--baseline", in: directory)
        #expect(baseline.status == 0, "\(baseline.stderr)")
        guard baseline.status == 0 else { return }

        guard let (migrateTo, expected) = Self.evolve(yaml) else {
            Issue.record("no column of \(name)'s first table to rename")
            return
        }
        try migrateTo.write(to: directory.appendingPathComponent(schema), atomically: true, encoding: .utf8)
        let second = try strata("migration", "new", schema, "--name", "evolve", in: directory)
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)\n\(migrateTo)")
        let migrate = try strata("migrate", schema, "--database", database, in: directory)
        #expect(migrate.status == 0, "\(migrate.stdout)\(migrate.stderr)")
        #expect(migrate.stdout.contains("is at version 2"), "\(migrate.stdout)")

        let again = try strata("introspect", database, "--output", "Again.schema.yml", "--database", name, in: directory)
        #expect(again.status == 0, "\(again.stderr)")
        let evolved = try String(contentsOf: directory.appendingPathComponent("Again.schema.yml"), encoding: .utf8)
        #expect(Self.withoutComments(evolved) == Self.withoutComments(expected))
    }
}
