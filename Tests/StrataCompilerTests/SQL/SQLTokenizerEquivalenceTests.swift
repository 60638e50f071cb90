import Foundation
import Testing
@testable import StrataCompiler

/// The byte-scanning ``SQLTokenizer/tokenize(_:)`` yields exactly the tokens of the
/// scalar-walking tokenizer it replaced (``SQLTokenizerReference``): same kinds, the same
/// bytes of `text` and `value`, the same string indices and UTF-8 offsets, for the SQL and
/// schemas of the repository and for seeded random inputs built from the tokenizer's corners.
@Suite struct SQLTokenizerEquivalenceTests {
    /// The first difference between the two tokenizers on `sql`, nil when there is none.
    static func difference(_ sql: String) -> String? {
        let expected = SQLTokenizerReference.tokenize(sql)
        let actual = SQLTokenizer.tokenize(sql)
        func offset(_ index: String.Index) -> Int { sql.utf8.distance(from: sql.utf8.startIndex, to: index) }
        for (number, (want, got)) in zip(expected, actual).enumerated() {
            var fields: [String] = []
            if want.kind != got.kind { fields.append("kind \(got.kind), expected \(want.kind)") }
            // Bytes, not `==`: String equality is canonical equivalence (é == e + U+0301).
            if !want.text.utf8.elementsEqual(got.text.utf8) { fields.append("text \(got.text.debugDescription), expected \(want.text.debugDescription)") }
            if !want.value.utf8.elementsEqual(got.value.utf8) { fields.append("value \(got.value.debugDescription), expected \(want.value.debugDescription)") }
            if want.range != got.range || offset(want.range.lowerBound) != offset(got.range.lowerBound)
                || offset(want.range.upperBound) != offset(got.range.upperBound)
            {
                fields.append("range \(offset(got.range.lowerBound))..<\(offset(got.range.upperBound)), expected \(offset(want.range.lowerBound))..<\(offset(want.range.upperBound))")
            }
            if want.offsets != got.offsets { fields.append("offsets \(got.offsets), expected \(want.offsets)") }
            if !fields.isEmpty { return "token \(number): " + fields.joined(separator: "; ") + " in \(sql.debugDescription)" }
        }
        if expected.count != actual.count { return "\(actual.count) tokens, expected \(expected.count) in \(sql.debugDescription)" }
        return nil
    }

    /// Every file of the repository (outside build directories) whose name ends with one of `extensions`.
    static func repositoryFiles(_ extensions: Set<String>) -> [URL] {
        let root = ExternalTool.repositoryRoot
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else { return [] }
        var files: [URL] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            if name.hasPrefix(".build") || name == ".git" || name == ".swiftpm" {
                walker.skipDescendants()
                continue
            }
            if extensions.contains(url.pathExtension) { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }

    @Test func theRepositorysSQLAndSchemasTokenizeAlike() throws {
        let files = Self.repositoryFiles(["sql", "yml", "yaml", "md"])
        // The repository holds dozens of migrations and schemas: finding none means the walk broke.
        #expect(files.filter { $0.pathExtension == "sql" }.count >= 20)
        #expect(files.filter { $0.pathExtension == "yml" }.count >= 50)
        var inputs = 0
        var tokens = 0
        for file in files {
            // Decoded with repairs: a broken-fixture schema or two is not valid UTF-8.
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            // The whole file, each line, and each line's value after `key:` (a schema's SQL
            // fragments: checks, defaults, query SQL, index conditions).
            var fragments = [text]
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                fragments.append(String(line))
                if let colon = line.firstIndex(of: ":") { fragments.append(String(line[line.index(after: colon)...])) }
            }
            // Statements of a migration (or of a document's examples).
            if file.pathExtension != "yml" && file.pathExtension != "yaml" { fragments += text.split(separator: ";").map(String.init) }
            for sql in fragments {
                inputs += 1
                tokens += SQLTokenizer.tokenize(sql).count
                if let difference = Self.difference(sql) {
                    Issue.record("\(file.path): \(difference)")
                    return
                }
            }
        }
        #expect(inputs > 10_000 && tokens > 150_000, "\(inputs) inputs, \(tokens) tokens")
    }

    @Test func theGeneratedGoldenFixturesTokenizeAlike() throws {
        // Swift source full of SQL string literals, escapes and `"` quotes: nasty input.
        let directory = ExternalTool.repositoryRoot.appendingPathComponent("Tests/StrataCompilerTests/Fixtures/Generated")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
        #expect(files.count >= 3)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for sql in [text] + text.split(separator: "\n").map(String.init) {
                if let difference = Self.difference(sql) {
                    Issue.record("\(file.path): \(difference)")
                    return
                }
            }
        }
    }

    /// Pieces the random inputs are made of: every corner of the tokenizer.
    static let pieces: [String] = [
        // Words, numbers, keywords.
        "a", "Z", "_x", "$1", "name", "CREATE", "TABLE", "x", "X", "1", "42", "1.5", "1.5e3", "1e-3", "1.", ".5", "1..2", "0x1F", "9.z",
        // Unicode letters, marks, emoji, a BOM (not whitespace).
        "é", "e\u{0301}", "\u{0301}", "日本", "Ω", "ß", "😀", "👩\u{200D}👩\u{200D}👧", "🇫🇷", "\u{FEFF}", "\u{200B}", "\u{10FFFF}", "\u{E000}",
        // Whitespace, ASCII and Unicode.
        " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{00A0}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{1680}", "\u{0085}", "\u{2003}", "\u{202F}", "\u{205F}",
        // Quotes, doubled quotes, brackets.
        "'", "\"", "`", "[", "]", "''", "\"\"", "``", "]]", "'it''s'", "\"a\"\"b\"", "`c``d`", "[x]", "[a]]b]", "x'00'", "X'FF'",
        // Comments, whole and broken.
        "--", "-- c\n", "/*", "*/", "/* c */", "/*/", "/**/", "-", "/", "*",
        // Operators and punctuation.
        "<", ">", "=", "!", "|", "<=", "<>", "||", "!=", "==", "::", ":", ":p", "?", "?1", "@a", ",", "(", ")", ";", ".", "+", "%", "~", "&", "#", "^", "{", "}", "\\",
        // Control characters.
        "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
    ]

    /// A random scalar from one of the UTF-8 lengths (2, 3 or 4 bytes), or ASCII.
    static func randomScalar(_ random: inout SQLExpressionTreeRenderingTests.SplitMix) -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [0x00...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x1_0000...0x10_FFFF]
        let range = ranges[random.next(ranges.count)]
        let value = range.lowerBound + UInt32(random.next(Int(range.upperBound - range.lowerBound) + 1))
        return Unicode.Scalar(value) ?? "?"
    }

    @Test(arguments: [UInt64(32), 0x5EED, 20_261_126])
    func seededRandomInputsTokenizeAlike(seed: UInt64) {
        var random = SQLExpressionTreeRenderingTests.SplitMix(seed: seed)
        for number in 0..<2_000 {
            var sql = ""
            for _ in 0..<random.next(40) {
                if random.next(8) == 0 {
                    sql.unicodeScalars.append(Self.randomScalar(&random))
                } else {
                    sql += Self.pieces[random.next(Self.pieces.count)]
                }
            }
            if let difference = Self.difference(sql) {
                Issue.record("seed \(seed), case \(number): \(difference)")
                return
            }
        }
    }

    @Test func everyUnicodeWhitespaceScalarTokenizesAlike() {
        // Skipped at a token's start, part of a word within one (as the reference does).
        let spaces = (0x80...0x3000).compactMap(Unicode.Scalar.init).filter(\.properties.isWhitespace)
        #expect(spaces.count >= 17, "\(spaces.count) non-ASCII whitespace scalars")
        for space in spaces.map(String.init) {
            for sql in [space, "a\(space)b", "\(space)a", "a\(space)", "(\(space))", "1.\(space)5", "'\(space)'", "\(space)--\(space)\n\(space)x"] {
                if let difference = Self.difference(sql) { Issue.record("\(difference)") }
            }
        }
    }

    @Test func someTokensAsTheyAre() {
        // Not only alike: right. The reference's answers, written down.
        // A word that starts with a letter stops at `.`; one that starts with a digit takes one.
        let tokens = SQLTokenizer.tokenize("\u{00A0}é1.5 1.5e3 \"a\"\"b\" [c]]d] 'x''y' <=> /* z */ -- w")
        #expect(tokens.map(\.text) == ["é1", ".", "5", "1.5e3", "\"a\"\"b\"", "[c]", "]", "d", "]", "'x''y'", "<=>"])
        #expect(tokens.map(\.value) == ["é1", ".", "5", "1.5e3", "a\"b", "c", "]", "d", "]", "'x''y'", "<=>"])
        #expect(tokens.map(\.offsets) == [2..<5, 5..<6, 6..<7, 8..<13, 14..<20, 21..<24, 24..<25, 25..<26, 26..<27, 28..<34, 35..<38])
        #expect(SQLTokenizer.tokenize("\"open").map(\.value) == ["open"])
        #expect(SQLTokenizer.tokenize("/* open").isEmpty)
    }
}
