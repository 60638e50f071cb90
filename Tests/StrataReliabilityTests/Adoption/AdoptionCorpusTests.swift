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

    /// An evolution of `yaml` written as a person would: in the first table that has a column no
    /// view, trigger, check or index names, that column renamed and a column added at the end.
    /// Returns the YAML to migrate to (with `renamedFrom:`) and the YAML introspect should then give.
    static func evolve(_ yaml: String) -> (migrateTo: String, expected: String)? {
        let lines = yaml.components(separatedBy: "\n")
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
        // Everything but the plain column lines: views, triggers, checks, indexes, keys, comments.
        var isColumnLine = Array(repeating: false, count: lines.count)
        for columnsLine in lines.indices where lines[columnsLine] == "    columns:" {
            var index = columnsLine + 1
            while index < lines.count, lines[index].hasPrefix("      ") {
                isColumnLine[index] = !lines[index].hasPrefix("      #") && !lines[index].contains("check:")
                index += 1
            }
        }
        let elsewhere = lines.indices.filter { !isColumnLine[$0] }.map { lines[$0].lowercased() }.joined(separator: "\n")
        for columnsLine in lines.indices where lines[columnsLine] == "    columns:" {
            var end = columnsLine + 1
            while end < lines.count, lines[end].hasPrefix("      ") { end += 1 }
            let columnLines = (columnsLine + 1..<end).filter { isColumnLine[$0] }
            let candidate = columnLines.reversed().first { index in
                guard let (name, value) = parse(lines[index]) else { return false }
                let sql = sqlName(name, value)
                let plain = ["primaryKey", "references", "unique", "values", "default"].allSatisfy { !value.contains($0) }
                return plain && !sql.contains("\"") && !elsewhere.contains(sql.lowercased()) && !elsewhere.contains(name.lowercased())
            }
            guard let index = candidate, let (name, value) = parse(lines[index]) else { continue }
            let old = sqlName(name, value)
            var kept = value
            if let range = kept.range(of: "column: \(SchemaYAMLWriter.scalar(old)), ") { kept.removeSubrange(range) }
            if let range = kept.range(of: ", column: \(SchemaYAMLWriter.scalar(old)) }") { kept.replaceSubrange(range, with: " }") }
            if kept.hasPrefix("{ type: "), kept.hasSuffix(" }"), !kept.contains(", ") { kept = String(kept.dropFirst(8).dropLast(2)) }
            let hint =
                kept.hasPrefix("{ ")
                ? String(kept.dropLast(2)) + ", renamedFrom: \(SchemaYAMLWriter.scalar(old)) }"
                : "{ type: \(kept), renamedFrom: \(SchemaYAMLWriter.scalar(old)) }"
            var migrateTo = lines
            var expected = lines
            migrateTo[index] = "      renamedField: \(hint)"
            expected[index] = "      renamedField: \(kept)"
            migrateTo.insert("      addedNote: text?", at: end)
            expected.insert("      addedNote: text?", at: end)
            return (migrateTo.joined(separator: "\n"), expected.joined(separator: "\n"))
        }
        // A shape whose every column is named by a view, trigger, check or index (the catalog):
        // it still gains a column, in its first table.
        guard let columnsLine = lines.firstIndex(of: "    columns:") else { return nil }
        var end = columnsLine + 1
        while end < lines.count, lines[end].hasPrefix("      ") { end += 1 }
        var evolved = lines
        evolved.insert("      addedNote: text?", at: end)
        return (evolved.joined(separator: "\n"), evolved.joined(separator: "\n"))
    }

    /// A database to adopt: one of the styles whose checked-in schema the build plugin compiles
    /// into this target, or a shape of the corpus (whose introspected schema the compile corpus,
    /// `CompileCorpusTests`, builds through the plugin in a package of its own: their record
    /// names meet the styles' ones).
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var schemaName: String
        var sql: String
        var checkedIn: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] =
        AdoptionStyle.allCases.map { Case(name: $0.rawValue, schemaName: $0.schemaName, sql: $0.sql, checkedIn: true) }
        + AdoptionCorpus.Shape.allCases.map { Case(name: $0.rawValue, schemaName: $0.schemaName, sql: $0.sql, checkedIn: false) }

    @Test(arguments: cases)
    func adoptAndEvolveWithoutAHandEdit(_ adoptionCase: Case) throws {
        try adoptAndEvolve(adoptionCase)
    }

    /// Builds the database of `adoptionCase` in a fresh directory (rollback journal).
    static func makeDatabase(_ adoptionCase: Case) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let db = try Database(path: directory.appendingPathComponent("\(adoptionCase.name).sqlite").path)
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: adoptionCase.sql)
            try conn.execute(sql: "PRAGMA journal_mode = DELETE")
        }
        return directory
    }

    func adoptAndEvolve(_ adoptionCase: Case) throws {
        let directory = try Self.makeDatabase(adoptionCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = adoptionCase.schemaName
        let schema = "\(name).schema.yml"
        let database = "\(adoptionCase.name).sqlite"

        let introspect = try strata("introspect", database, "--output", schema, "--database", name, in: directory)
        #expect(introspect.status == 0, "\(introspect.stderr)")
        let yaml = try String(contentsOf: directory.appendingPathComponent(schema), encoding: .utf8)
        if adoptionCase.checkedIn {
            // The same file the build plugin compiles into this test target.
            #expect(yaml == (try String(contentsOf: AdoptionTests.directory.appendingPathComponent(schema), encoding: .utf8)))
        }
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
            Issue.record("\(name) has no table to evolve")
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
