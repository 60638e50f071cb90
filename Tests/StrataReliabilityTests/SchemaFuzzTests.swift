import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// The schema front end fed a seeded stream of hostile inputs: mutations of real schemas and
/// YAML edge cases (deep nesting, huge scalars, alias bombs, invalid UTF-8, random bytes,
/// mutated keys and values). Every input must give a valid schema or a diagnostic, quickly,
/// without crashing; every valid schema must render to Swift and to DDL that SQLite runs.
@Suite struct SchemaFuzzTests {
    /// Where the example schemas live, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func seeds() throws -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        let files = [
            "schemas/Library.schema.yml",
            "Tests/StrataCompilerTests/Fixtures/Generated/Edge.schema.yml",
            "Tests/StrataReliabilityTests/Vault.schema.yml",
        ]
        for file in files {
            seeds.append(try [UInt8](Data(contentsOf: repository.appendingPathComponent(file))))
        }
        let broken = repository.appendingPathComponent("Tests/StrataCompilerTests/Fixtures/Broken")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: broken.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".schema.yml") {
            seeds.append(try [UInt8](Data(contentsOf: broken.appendingPathComponent(name))))
        }
        seeds.append(Array(CrashSafetyTests.v2.utf8))
        return seeds.filter { !$0.isEmpty }
    }

    /// Tokens spliced in by the key/value mutations.
    static let dictionary: [String] = [
        // YAML syntax
        "&a", "*a", "<<: *a", "!!binary", "!!str", "!!int", "!custom", "? ", "- ", "{", "}", "[", "]", "|", ">-", "'", "\"",
        "~", "null", "true", "no", "0x10", "0o7", "1e400", "-0", ".nan", ".inf", "---", "...", "%YAML 1.2", "#", "\t",
        // schema keywords
        "database", "tables", "options", "strict", "foreignKeys", "table", "columns", "column", "type", "primaryKey",
        "autoincrement", "references", "onDelete", "onUpdate", "cascade", "setNull", "restrict", "unique", "default",
        "check", "doc", "indexes", "where", "queries", "orderBy", "limit", "returns", "one", "count", "exists", "params",
        "renamedFrom", "optional", "values", "swiftType", "sql", "now",
        "int", "text", "double", "bool", "date", "uuid", "json", "blob", "enum", "int?", "text?",
        // SQL and Swift that should stay data
        "'; DROP TABLE x; --", "\"; DROP TABLE x; --", "\\(fatalError())", "\"\"\"", "#\"", "/*", "*/", "--",
        "SELECT", "NULL", ":x", "?", "$x", "@x", "Self", "class", "init", "_", "0abc", "é", "名前", "🙂",
    ]

    /// Hand-made hostile documents, parameterized by size.
    static func edgeCase(_ kind: Int, size: Int, random: inout SeededGenerator) -> [UInt8] {
        switch kind % 12 {
        case 0:  // deep flow nesting
            return Array(("tables: " + String(repeating: "[", count: size) + String(repeating: "]", count: size)).utf8)
        case 1:  // deep block nesting
            var text = "tables:\n"
            for depth in 0..<size { text += String(repeating: " ", count: 2 * depth + 2) + "k\(depth):\n" }
            return Array(text.utf8)
        case 2:  // a huge scalar
            return Array(("database: " + String(repeating: "x", count: size * 500) + "\ntables: {}\n").utf8)
        case 3:  // an alias bomb
            var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
            for level in 1..<max(2, size % 12 + 2) {
                text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
            }
            return Array(("tables:\n  T:\n    columns:\n      id: { type: int, primaryKey: true }\n" + text).utf8)
        case 4:  // invalid UTF-8 in a key and a value
            let bad: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFE, 0xFF]]
            let pick = bad[size % bad.count]
            return Array("tables:\n  T".utf8) + pick + Array(":\n    columns:\n      id: { type: int, primaryKey: true }\n      x: \"".utf8) + pick + Array("\"\n".utf8)
        case 5:  // random bytes
            return (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 6:  // random printable soup of YAML punctuation
            let alphabet = Array(":-[]{},&*!|>'\"%@`#? \n\tab0".utf8)
            return (0..<size).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
        case 7:  // many tables
            var text = "database: Many\ntables:\n"
            // A schema of 300 tables takes about a second to check, render and migrate.
            for i in 0..<min(size, Reliability.isLong ? 100 : 40) { text += "  T\(i):\n    columns:\n      id: { type: int, primaryKey: true }\n      ref: { type: int?, references: T\(max(0, i - 1)).id }\n" }
            return Array(text.utf8)
        case 8:  // many columns and a long key
            var text = "tables:\n  Wide:\n    columns:\n      id: { type: int, primaryKey: true }\n"
            for i in 0..<size { text += "      c\(i): text?\n" }
            text += "      " + String(repeating: "k", count: size * 10) + ": int\n"
            return Array(text.utf8)
        case 9:  // NUL bytes and a BOM in the middle
            return Array("tables:\n  T:\n    columns:\n      id: { type: int, primaryKey: true }\n      x: { type: text, default: \"a\0b\" }\n".utf8)
                + [0, 0xEF, 0xBB, 0xBF] + Array("  U: {}\n".utf8)
        case 10:  // duplicate keys, merge keys and tags everywhere
            return Array("""
                base: &base { type: int, primaryKey: true }
                tables:
                  T:
                    columns:
                      id: { <<: *base, type: !!str int }
                      id: text
                  T: !!map {}
                """.utf8)
        default:  // hostile names that parse
            let name = dictionary.randomElement(using: &random) ?? "x"
            let quoted = "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            return Array("""
                database: Fuzz
                tables:
                  T:
                    table: \(quoted)
                    columns:
                      id: { type: int, primaryKey: autoincrement, column: \(quoted) }
                      v: { type: text, default: \(quoted), column: "v\\n\(size)" }
                    queries:
                      q: { where: "v = :v" }
                """.utf8)
        }
    }

    /// One mutation of a seed.
    static func mutate(_ seeds: [[UInt8]], _ round: Int, random: inout SeededGenerator) -> (bytes: [UInt8], kind: String) {
        let seed = seeds[Int.random(in: 0..<seeds.count, using: &random)]
        var bytes = seed
        let operation = Int.random(in: 0..<9, using: &random)
        switch operation {
        case 0:  // flip bytes
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] = Bool.random(using: &random) ? UInt8.random(in: 0...255, using: &random) : bytes[index] ^ (1 << UInt8.random(in: 0...7, using: &random))
            }
        case 1:  // truncate
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
        case 2:  // swap, duplicate or delete lines
            var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let a = Int.random(in: 0..<lines.count, using: &random)
                let b = Int.random(in: 0..<lines.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: lines.swapAt(a, b)
                case 1: lines.insert(lines[a], at: b)
                default: if lines.count > 1 { lines.remove(at: a) }
                }
            }
            bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        case 3, 4:  // replace a word (a key or a value) with a dictionary token
            var text = String(decoding: bytes, as: UTF8.self)
            let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" })
            if let word = words.randomElement(using: &random), let token = dictionary.randomElement(using: &random) {
                text.replaceSubrange(word.startIndex..<word.endIndex, with: token)
            }
            bytes = Array(text.utf8)
        case 5:  // insert a dictionary token at a random place
            let token = Array((dictionary.randomElement(using: &random) ?? "").utf8)
            bytes.insert(contentsOf: token, at: Int.random(in: 0...bytes.count, using: &random))
        case 6:  // splice two seeds
            let other = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random))) + Array(other.suffix(Int.random(in: 0...other.count, using: &random)))
        case 7:  // insert random bytes
            let chunk = (0..<Int.random(in: 1...32, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes.insert(contentsOf: chunk, at: Int.random(in: 0...bytes.count, using: &random))
        default:  // re-indent a line (tabs, odd spaces)
            var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
            let index = Int.random(in: 0..<lines.count, using: &random)
            lines[index] = Array((Bool.random(using: &random) ? "\t" : " ").utf8) + lines[index]
            bytes = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        }
        return (bytes, "mutation \(operation)")
    }

    struct Counts {
        var inputs = 0
        var valid = 0
        var diagnosed = 0
        var rendered = 0
        var slowest: Duration = .zero
        var slowestLabel = ""
        var largest = 0
        var timeByKind: [String: Duration] = [:]
    }

    /// Checks one input; returns whether it was a valid schema.
    static func check(_ bytes: [UInt8], kind: String, label: @autoclosure () -> String, counts: inout Counts) {
        let clock = ContinuousClock()
        let start = clock.now
        let (compiled, diagnostics) = Compiler.check(bytes: bytes, path: "Fuzz.schema.yml")
        counts.inputs += 1
        counts.largest = max(counts.largest, bytes.count)
        let errors = diagnostics.filter { $0.severity == .error }
        if let compiled, errors.isEmpty {
            let schema = compiled.schema
            counts.valid += 1
            // A valid schema renders (its DDL ran in SQLite and its statements prepared in
            // the validation stage), and its first migration runs.
            _ = Generator.render(compiled, migrations: [], schemaPath: "Fuzz.schema.yml")
            if let plan = try? MigrationPlanner.plan(schema: schema, migrations: []) {
                let sql = MigrationRenderer.render(plan, version: 1, name: "initial", schemaFile: "Fuzz.schema.yml")
                do {
                    let db = try Database.inMemory()
                    try Migrator(migrations: [Migration(version: 1, name: "initial", sql: sql)]).migrate(db)
                } catch {
                    Issue.record("\(label()): the first migration of a valid schema fails: \(error) — input \(String(decoding: bytes.prefix(2_000), as: UTF8.self))")
                }
            }
            counts.rendered += 1
        } else {
            counts.diagnosed += 1
            #expect(!errors.isEmpty, "\(label()): neither a schema nor an error")
            for diagnostic in diagnostics {
                #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1, "\(label()): \(diagnostic)")
            }
        }
        let elapsed = clock.now - start
        counts.timeByKind[kind, default: .zero] += elapsed
        if elapsed > counts.slowest {
            counts.slowest = elapsed
            counts.slowestLabel = "\(label()) (\(kind), \(bytes.count) bytes)"
        }
    }

    @Test(.timeLimit(.minutes(20))) func hostileInputsGiveASchemaOrADiagnostic() throws {
        let total = Reliability.size("STRATA_FUZZ_INPUTS", fast: 5_000, long: 100_000)
        let largest = Reliability.size("STRATA_FUZZ_LARGEST", fast: 300, long: 2_000)
        let seeds = try Self.seeds()
        var random = SeededGenerator(state: 0xF022_5EED)
        var counts = Counts()
        let clock = ContinuousClock()
        let memoryBefore = Reliability.peakMemoryMiB()
        let elapsed = clock.measure {
            for round in 0..<total {
                let bytes: [UInt8]
                let kind: String
                if round % 10 == 0 {
                    // Sizes: up to 2,000 (tables, nesting levels, KB of scalar) in the long run.
                    let size = Int.random(in: 1...(round % 20 == 0 ? largest : 300), using: &random)
                    bytes = Self.edgeCase(round / 10, size: size, random: &random)
                    kind = "edge \(round / 10 % 12)"
                } else {
                    (bytes, kind) = Self.mutate(seeds, round, random: &random)
                }
                Self.check(bytes, kind: kind, label: "input \(round)", counts: &counts)
            }
        }
        let memoryAfter = Reliability.peakMemoryMiB()
        for (kind, time) in counts.timeByKind.sorted(by: { $0.value > $1.value }) {
            Reliability.figure("fuzz time by kind: \(kind): \(time)")
        }
        #expect(counts.inputs == total)
        #expect(counts.valid + counts.diagnosed == total)
        if let memoryAfter { #expect(memoryAfter < 1_024, "peak memory \(memoryAfter) MiB") }
        Reliability.figure(
            "fuzz: \(counts.inputs) inputs (seed 0xF0225EED, \(seeds.count) seed files + 12 edge-case generators) in \(elapsed); \(counts.valid) valid schemas rendered, migrated and prepared, \(counts.diagnosed) diagnosed; crashes 0; slowest input \(counts.slowest) (\(counts.slowestLabel)); largest input \(counts.largest) bytes; peak RSS \(memoryBefore.map(String.init) ?? "?") → \(memoryAfter.map(String.init) ?? "?") MiB")
    }
}
