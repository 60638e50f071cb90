import Foundation
import Testing
@testable import StrataCompiler

/// A small seeded generator (SplitMix64) so every run feeds the same variants.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct RobustnessTests {
    static func seeds() throws -> [[UInt8]] {
        var seeds = [try [UInt8](Data(contentsOf: URL(fileURLWithPath: Paths.library))), Array(HostileIdentifierTests.text.utf8)]
        for name in BrokenFixtures.names().prefix(20) {
            let url = BrokenFixtures.directory.appendingPathComponent("\(name).schema.yml")
            seeds.append(try [UInt8](Data(contentsOf: url)))
        }
        return seeds.filter { !$0.isEmpty }
    }

    /// Every input gives either a valid schema with no errors or at least one diagnostic with a
    /// sane position; nothing crashes or hangs.
    func assertHandled(_ bytes: [UInt8], _ label: String) {
        let (schema, diagnostics) = SchemaLoader.check(bytes: bytes, path: "Fuzz.schema.yml")
        let valid = schema != nil && diagnostics.isEmpty
        #expect(valid || !diagnostics.isEmpty, "\(label): neither a schema nor a diagnostic")
        #expect(schema == nil || diagnostics.allSatisfy { $0.severity != .error }, "\(label)")
        for diagnostic in diagnostics {
            #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1, "\(label): \(diagnostic)")
        }
    }

    @Test(.timeLimit(.minutes(10))) func mutatedSchemasNeverCrash() throws {
        var random = SeededGenerator(state: 0x5EED_5EED)
        let seeds = try Self.seeds()
        var variants = 0
        do {
            for round in 0..<2_000 {
                let seed = seeds[round % seeds.count]
                guard !seed.isEmpty else { continue }
                // Truncated.
                assertHandled(Array(seed.prefix(Int.random(in: 0...seed.count, using: &random))), "truncated \(round)")
                // Lines shuffled (a few swaps, or all of them).
                var lines = seed.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
                if round % 4 == 0 {
                    lines.shuffle(using: &random)
                } else {
                    for _ in 0..<3 { lines.swapAt(Int.random(in: 0..<lines.count, using: &random), Int.random(in: 0..<lines.count, using: &random)) }
                }
                assertHandled(Array(lines.joined(separator: [UInt8(ascii: "\n")])), "shuffled \(round)")
                // Bytes flipped.
                var flipped = seed
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<flipped.count, using: &random)
                    flipped[index] = round % 2 == 0 ? UInt8.random(in: 0...255, using: &random) : flipped[index] ^ (1 << UInt8.random(in: 0...7, using: &random))
                }
                assertHandled(flipped, "flipped \(round)")
                variants += 3
            }
        }
        #expect(variants == 6_000)
    }

    @Test func oddInputs() {
        for text in ["", " ", "\n\n", "---", "...", "~", "[]", "{}", "'x'", "tables:", "tables: 5", "tables: []",
                     "tables: {A: }", "tables: {A: {columns: {}}}", "tables: {A: {columns: {id: }}}",
                     "tables: {A: {columns: {id: {type: int, primaryKey: true}}, queries: {q: }}}",
                     "tables: {A: {columns: {id: {type: int, primaryKey: true}}, indexes: [5, [], {}]}}",
                     "tables: {A: {columns: {id: {type: [int]}}}}", "? [a]\n: b", "&a [*a]", "!!binary aGVsbG8=",
                     "tables: {A: {columns: {id: {type: int, primaryKey: true, default: {sql: }}}}}",
                     "\u{FEFF}tables: {A: {columns: {id: {type: int, primaryKey: true}}}}", "a: \u{0}"] {
            assertHandled(Array(text.utf8), text)
        }
    }
}
