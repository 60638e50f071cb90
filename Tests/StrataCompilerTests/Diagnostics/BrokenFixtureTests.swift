import Foundation
import Testing
@testable import StrataCompiler

/// The catalogue of broken schemas: each `Fixtures/Broken/<case>.schema.yml` has a
/// `<case>.expected` with the exact diagnostics. `STRATA_UPDATE_FIXTURES=1` rewrites them.
enum BrokenFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Broken")

    static func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".schema.yml") }.map { String($0.dropLast(".schema.yml".count)) }.sorted()
    }
}

/// The catalogue is complete both ways: every broken schema has its `.expected` diagnostics and
/// every `.expected` file belongs to a schema (no stale expectations), and nothing else lives there.
@Test func catalogueHasAtLeastFortyCases() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: BrokenFixtures.directory.path)
    let schemas = Set(files.filter { $0.hasSuffix(".schema.yml") }.map { String($0.dropLast(".schema.yml".count)) })
    let expectations = Set(files.filter { $0.hasSuffix(".expected") }.map { String($0.dropLast(".expected".count)) })
    #expect(schemas.count >= 40)
    #expect(schemas.subtracting(expectations).isEmpty, "schemas without .expected: \(schemas.subtracting(expectations).sorted())")
    #expect(expectations.subtracting(schemas).isEmpty, "stale .expected without a schema: \(expectations.subtracting(schemas).sorted())")
    #expect(files.filter { !$0.hasSuffix(".schema.yml") && !$0.hasSuffix(".expected") }.isEmpty, "unexpected files: \(files)")
}

@Test(arguments: BrokenFixtures.names())
func brokenSchema(_ name: String) throws {
    let schemaURL = BrokenFixtures.directory.appendingPathComponent("\(name).schema.yml")
    let expectedURL = BrokenFixtures.directory.appendingPathComponent("\(name).expected")
    let bytes = try [UInt8](Data(contentsOf: schemaURL))
    let (schema, diagnostics) = SchemaLoader.check(bytes: bytes, path: "\(name).schema.yml")
    let actual = diagnostics.map(\.description).joined(separator: "\n") + "\n"
    #expect(schema == nil, "a broken schema must not produce a model")
    #expect(!diagnostics.isEmpty, "a broken schema must produce diagnostics")
    if ProcessInfo.processInfo.environment["STRATA_UPDATE_FIXTURES"] == "1" {
        try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
        return
    }
    let expected = (try? String(contentsOf: expectedURL, encoding: .utf8)) ?? "<missing \(name).expected>\n"
    #expect(actual == expected, "diagnostics differ for \(name)\n--- expected\n\(expected)--- actual\n\(actual)")
}
