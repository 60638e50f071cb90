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
    /// sane position inside the input; nothing crashes or hangs. Returns whether it was accepted.
    @discardableResult
    func assertHandled(_ bytes: [UInt8], _ label: String) -> Bool {
        let (schema, diagnostics) = SchemaLoader.check(bytes: bytes, path: "Fuzz.schema.yml")
        #expect(schema != nil || diagnostics.contains { $0.severity == .error }, "\(label): rejected without an error")
        #expect(schema == nil || diagnostics.allSatisfy { $0.severity != .error }, "\(label): a schema despite an error")
        // libyaml reports the end of an input that does not end in a line break on the line after it.
        let lineCount = bytes.count { $0 == UInt8(ascii: "\n") } + 2
        for diagnostic in diagnostics {
            #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1, "\(label): \(diagnostic)")
            #expect(diagnostic.location.line <= lineCount, "\(label): line past the end of the input: \(diagnostic)")
        }
        return schema != nil
    }

    @Test(.timeLimit(.minutes(10))) func mutatedSchemasNeverCrash() throws {
        var random = SeededGenerator(state: 0x5EED_5EED)
        let seeds = try Self.seeds()
        var accepted = 0
        var rejected = 0
        func handle(_ bytes: [UInt8], _ label: String) {
            if assertHandled(bytes, label) { accepted += 1 } else { rejected += 1 }
        }
        do {
            for round in 0..<2_000 {
                let seed = seeds[round % seeds.count]
                guard !seed.isEmpty else { continue }
                // Truncated.
                handle(Array(seed.prefix(Int.random(in: 0...seed.count, using: &random))), "truncated \(round)")
                // Lines shuffled (a few swaps, or all of them).
                var lines = seed.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
                if round % 4 == 0 {
                    lines.shuffle(using: &random)
                } else {
                    for _ in 0..<3 { lines.swapAt(Int.random(in: 0..<lines.count, using: &random), Int.random(in: 0..<lines.count, using: &random)) }
                }
                handle(Array(lines.joined(separator: [UInt8(ascii: "\n")])), "shuffled \(round)")
                // Bytes flipped.
                var flipped = seed
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<flipped.count, using: &random)
                    flipped[index] = round % 2 == 0 ? UInt8.random(in: 0...255, using: &random) : flipped[index] ^ (1 << UInt8.random(in: 0...7, using: &random))
                }
                handle(flipped, "flipped \(round)")
            }
        }
        // The mutations reach both outcomes: some variants still load, most are rejected.
        #expect(accepted > 0, "no mutated variant was accepted")
        #expect(rejected > accepted, "fewer variants rejected (\(rejected)) than accepted (\(accepted))")
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
