import Foundation
import StrataTestSupport
import Testing
@testable import StrataCompiler

/// Which table features combine (issue 25, docs/Combining.md): the schema of the combination
/// test loads, and each pair that cannot work is refused at its line with the reason, by the
/// loader and by the real `strata check`.
@Suite struct FeatureCombinationTests {
    /// The schema of StrataReliabilityTests' CompositionTests: search + expires + setNull,
    /// WITHOUT ROWID + strict: false + composite key + cascade, search on a text key + expires,
    /// restrict, setDefault, noAction, a view, a trigger and a typed query.
    static let composeSchema = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StrataReliabilityTests/Composition/Compose.schema.yml")

    /// A schema with an expiring `Session` and a `Message` whose `sessionId` references it
    /// with `reference` (the YAML of its column).
    static func expiringParent(_ reference: String) -> String {
        """
        tables:
          Session:
            columns:
              id: { type: int, primaryKey: true }
            expires: true
          Message:
            columns:
              id: { type: int, primaryKey: true }
              sessionId: \(reference)
        """
    }

    static let searchWithoutRowid = """
        tables:
          Article:
            withoutRowid: true
            columns:
              slug: { type: text, primaryKey: true }
              title: text
            search: { columns: [title] }
        """

    func errors(_ yaml: String) -> [String] {
        do {
            _ = try SchemaLoader.load(contents: yaml, path: "C.schema.yml")
            return []
        } catch let error as DiagnosticsError {
            return error.diagnostics.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test func theCombinationTestSchemaLoads() throws {
        let schema = try SchemaLoader.load(contents: String(contentsOf: Self.composeSchema, encoding: .utf8), path: "Compose.schema.yml")
        let note = try #require(schema.table(named: "Note"))
        #expect(note.expires && note.search != nil)
        let tag = try #require(schema.table(named: "Tag"))
        #expect(tag.isWithoutRowid && tag.primaryKey.count == 2 && tag.expires)
        let page = try #require(schema.table(named: "Page"))
        #expect(page.expires && page.search != nil)
    }

    @Test func aReferenceToAnExpiringTableMustLetPurgeDelete() {
        for (reference, action) in [
            ("{ type: int, references: Session.id, onDelete: restrict }", "onDelete: restrict"),
            ("{ type: int, references: Session.id, onDelete: noAction }", "onDelete: noAction"),
            ("{ type: int, references: Session.id }", "no onDelete (SQLite's default, noAction)"),
        ] {
            let found = errors(Self.expiringParent(reference))
            #expect(found.count == 1, "\(found)")
            let line = found.first ?? ""
            // At the `onDelete:` value when there is one, else at the `references:` value.
            let column = reference.contains("onDelete") ? 65 : 43
            #expect(line.hasPrefix("C.schema.yml:9:\(column): error: foreign key 'sessionId' references 'Session', whose rows expire"), "\(line)")
            #expect(line.contains("with \(action): purgeExpired could not delete an expired 'Session'"), "\(line)")
            #expect(line.contains("add 'onDelete: cascade' (or setNull or setDefault)"), "\(line)")
        }
        for reference in [
            "{ type: int, references: Session.id, onDelete: cascade }",
            "{ type: int?, references: Session.id, onDelete: setNull }",
            "{ type: int, default: 0, references: Session.id, onDelete: setDefault }",
        ] {
            #expect(errors(Self.expiringParent(reference)).isEmpty, "\(reference)")
        }
    }

    @Test func searchNeedsARowidTable() {
        let found = errors(Self.searchWithoutRowid)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("C.schema.yml:7:13: error: 'search' of table 'Article': full-text search needs a rowid table") == true, "\(found)")
    }

    /// The same refusals through the real `strata check`, as a user meets them.
    @Test func strataCheckRefusesEachPairAtItsLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-combine-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = [
            ("Expiring.schema.yml", Self.expiringParent("{ type: int, references: Session.id, onDelete: restrict }"),
             "Expiring.schema.yml:9:65: error: foreign key 'sessionId' references 'Session', whose rows expire"),
            ("Search.schema.yml", Self.searchWithoutRowid,
             "Search.schema.yml:7:13: error: 'search' of table 'Article': full-text search needs a rowid table"),
        ]
        for (name, yaml, expected) in cases {
            try ("database: C\n" + yaml).write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            let result = try StrataExecutable.run(["check", name], in: directory)
            #expect(result.status != 0)
            let shifted = expected.replacingOccurrences(of: ":9:", with: ":10:").replacingOccurrences(of: ":7:", with: ":8:")
            #expect(result.stderr.contains(shifted), "\(result.stderr)")
        }
        try String(contentsOf: Self.composeSchema, encoding: .utf8).write(
            to: directory.appendingPathComponent("Compose.schema.yml"), atomically: true, encoding: .utf8)
        let accepted = try StrataExecutable.run(["check", "Compose.schema.yml"], in: directory)
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }
}
