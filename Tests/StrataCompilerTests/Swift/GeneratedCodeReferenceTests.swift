import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Reference tests: the Swift generated for each example schema (`schemas/*.schema.yml`) and
/// each `Fixtures/Generated/<case>.schema.yml` is compared byte for byte with the checked-in
/// `Fixtures/Generated/<Name>.swift`. A mismatch prints a unified diff;
/// `STRATA_UPDATE_FIXTURES=1` rewrites the expected files on purpose.
enum GeneratedFixtures {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let directory = testsDirectory.appendingPathComponent("Fixtures/Generated")
    static let schemasDirectory = testsDirectory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("schemas")

    static func schemaPaths() -> [String] {
        func schemas(in directory: URL) -> [String] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { $0.hasSuffix(".schema.yml") }.sorted().map { directory.appendingPathComponent($0).path }
        }
        return schemas(in: schemasDirectory) + schemas(in: directory)
    }
}

/// Every schema has its `<Name>.swift` reference and every reference has its schema: a reference
/// left behind by a removed or renamed schema is not silently kept.
@Test func everyExampleSchemaHasAReference() throws {
    let schemaStems = Set(GeneratedFixtures.schemaPaths().map { Generator.schemaStem(of: $0) })
    let references = try FileManager.default.contentsOfDirectory(atPath: GeneratedFixtures.directory.path)
        .filter { $0.hasSuffix(".swift") }
    let referenceStems = Set(references.map { String($0.dropLast(".swift".count)) })
    #expect(schemaStems.contains("Library"), "the example schema schemas/Library.schema.yml is covered")
    #expect(schemaStems.subtracting(referenceStems).isEmpty, "schemas without a reference: \(schemaStems.subtracting(referenceStems).sorted())")
    #expect(referenceStems.subtracting(schemaStems).isEmpty, "stale references without a schema: \(referenceStems.subtracting(schemaStems).sorted())")
}

@Test(arguments: GeneratedFixtures.schemaPaths())
func generatedSwiftMatchesReference(_ schemaPath: String) throws {
    let compiled = try Compiler.compile(path: schemaPath)
    let migrations = try MigrationFiles.load(schemaPath: schemaPath)
    let postgres = compiled.schema.targetsPostgres ? try PostgresMigrations.load(schemaPath: schemaPath) : []
    let actual = Generator.render(compiled, migrations: migrations, postgresMigrations: postgres, schemaPath: schemaPath)
    #expect(Generator.render(compiled, migrations: migrations, postgresMigrations: postgres, schemaPath: schemaPath) == actual, "rendering is deterministic")
    let expectedURL = GeneratedFixtures.directory.appendingPathComponent(Generator.schemaStem(of: schemaPath) + ".swift")
    if ProcessInfo.processInfo.environment["STRATA_UPDATE_FIXTURES"] == "1" {
        try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
        return
    }
    let expected = (try? String(contentsOf: expectedURL, encoding: .utf8)) ?? ""
    if actual != expected {
        Issue.record("generated Swift differs from \(expectedURL.lastPathComponent) (STRATA_UPDATE_FIXTURES=1 rewrites it):\n\(try unifiedDiff(expected, actual))")
    }
}

/// `diff -u` of two texts.
func unifiedDiff(_ expected: String, _ actual: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-diff-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let left = directory.appendingPathComponent("expected.swift")
    let right = directory.appendingPathComponent("actual.swift")
    try expected.write(to: left, atomically: true, encoding: .utf8)
    try actual.write(to: right, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/diff")
    process.arguments = ["-u", left.path, right.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
}
