import Testing
@testable import StrataCompiler

@Suite struct YAMLLoaderTests {
    func load(_ text: String) -> YAMLLoader.Result { YAMLLoader.load(contents: text, file: "t.yml") }

    @Test func positionsAndStyles() throws {
        let result = load("""
            a: true
            b: "true"
            list:
              - 1
              - 'x'
            """)
        #expect(result.diagnostics.isEmpty)
        let root = try #require(result.root)
        let pairs = try #require(root.pairs)
        #expect(pairs.map { $0.key.scalarText } == ["a", "b", "list"])
        #expect(pairs[0].key.location == SourceLocation(file: "t.yml", line: 1, column: 1))
        #expect(pairs[0].value.bool == true)
        #expect(pairs[1].value.bool == nil && pairs[1].value.string == "true")
        #expect(pairs[1].value.location == SourceLocation(file: "t.yml", line: 2, column: 4))
        let items = try #require(root["list"]?.items)
        #expect(items[0].int == 1 && items[0].location.line == 4 && items[0].location.column == 5)
        #expect(items[1].string == "x")
    }

    @Test func scalars() throws {
        let root = try #require(load("[~, null, '', -12, 0x1F, 1.5e3, .inf, yes, 'no']").root?.items)
        #expect(root[0].isNull && root[1].isNull && !root[2].isNull)
        #expect(root[3].int == -12 && root[4].int == 31 && root[5].double == 1500)
        #expect(root[6].double == nil && root[6].string == ".inf")
        #expect(root[7].bool == nil && root[7].string == "yes")
    }

    /// How each plain scalar reads: null, boolean, integer, double or string (exactly one).
    @Test(arguments: [
        ("", "null"), ("~", "null"), ("Null", "null"), ("nULL", "string"), ("TRUE", "bool"), ("tRUE", "string"),
        ("42", "int 42"), ("-0", "int 0"), ("+7", "int 7"), ("0x1F", "int 31"), ("0o17", "int 15"), ("0b1", "string"),
        ("-9223372036854775808", "int -9223372036854775808"), ("9223372036854775808", "double 9.223372036854776e+18"),
        ("1.5", "double 1.5"), ("-.5", "double -0.5"), ("1e3", "double 1000.0"), ("1E-2", "double 0.01"),
        ("1.2.3", "string"), (".", "string"), ("+", "string"), ("e", "string"), ("1e999", "string"), ("١٢", "string"),
        ("1\u{301}", "string"), ("12a", "string"), ("- 1", "string"), ("1_000", "string"), (".inf", "string"),
    ])
    func plainScalarTypes(_ text: String, _ expected: String) throws {
        let node = YAMLNode(.scalar(text, .plain), at: SourceLocation(file: "t.yml", line: 1, column: 1))
        var read: [String] = []
        if node.isNull { read.append("null") }
        if node.bool != nil { read.append("bool") }
        if let int = node.int { read.append("int \(int)") }
        if node.int == nil, let double = node.double { read.append("double \(double)") }
        if let string = node.string { read.append(string == text ? "string" : "string \(string)") }
        #expect(read == [expected], "\(text)")
        let quoted = YAMLNode(.scalar(text, .quoted), at: node.location)
        #expect(quoted.string == text && quoted.int == nil && quoted.double == nil && !quoted.isNull)
    }

    @Test func anchorsAliasesAndMerge() throws {
        let root = try #require(load("""
            base: &base { type: text, unique: true }
            copy: *base
            merged:
              <<: *base
              type: int
            """).root)
        #expect(root["copy"]?["unique"]?.bool == true)
        #expect(root["copy"]?.location.line == 2)
        let merged = try #require(root["merged"]?.pairs)
        // Merged keys take the place of `<<`; explicit keys win.
        #expect(merged.map { $0.key.scalarText } == ["unique", "type"])
        #expect(root["merged"]?["type"]?.string == "int")
    }

    @Test func duplicateKeysKeepTheFirst() throws {
        let result = load("a: 1\nb: 2\na: 3\n")
        #expect(result.diagnostics.map(\.description) == ["t.yml:3:1: error: duplicate key 'a' (first defined at line 1)"])
        #expect(result.root?["a"]?.int == 1)
    }

    @Test func multipleDocuments() {
        let result = load("a: 1\n---\nb: 2\n")
        #expect(result.root == nil)
        #expect(result.diagnostics.first?.location.line == 2)
    }

    @Test func tabsAndEncoding() {
        #expect(load("a:\n\tb: 1\n").diagnostics.first?.message == "tabs are not allowed in indentation")
        #expect(load("a: \"x\ty\"\n").diagnostics.isEmpty)
        let bad = YAMLLoader.load(bytes: Array("a: ".utf8) + [0xFF] + Array("\n".utf8), file: "t.yml")
        #expect(bad.diagnostics.first?.location == SourceLocation(file: "t.yml", line: 1, column: 4))
        // Overlong encodings and surrogates are not UTF-8 either.
        #expect(!YAMLLoader.load(bytes: [0x61, 0xC0, 0x80], file: "t").diagnostics.isEmpty)
        #expect(!YAMLLoader.load(bytes: [0x61, 0xED, 0xA0, 0x80], file: "t").diagnostics.isEmpty)
        #expect(YAMLLoader.load(bytes: Array("名前: é\n".utf8), file: "t").diagnostics.isEmpty)
    }

    @Test func unicodeColumnsCountCharacters() throws {
        let root = try #require(load("é: [x, y]").root)
        #expect(root["é"]?.items?[1].location.column == 8)
    }

    @Test(.timeLimit(.minutes(10))) func aliasBombIsAnErrorQuickly() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...30 {
            let previous = "*a\(level - 1)"
            text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        let result: YAMLLoader.Result? = load(text)
        #expect(result?.root == nil)
        #expect(result?.diagnostics.first?.message.contains("aliases expand") == true)
        let (schema, diagnostics) = SchemaLoader.check(bytes: Array(text.utf8), path: "Bomb.schema.yml")
        #expect(schema == nil && !diagnostics.isEmpty)
    }

    @Test(.timeLimit(.minutes(10))) func deepNestingIsAnErrorQuickly() {
        for text in [
            String(repeating: "[", count: 10_000),
            String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
            String(repeating: "{a: ", count: 5_000) + "1" + String(repeating: "}", count: 5_000),
            (0..<300).map { String(repeating: " ", count: $0) + "k:\n" }.joined(),
        ] {
            let diagnostics = SchemaLoader.check(bytes: Array(text.utf8), path: "Deep.schema.yml").diagnostics
            #expect(!diagnostics.isEmpty)
        }
        let nested = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(load(nested).diagnostics.first?.message == "nesting is deeper than \(YAMLLoader.maximumDepth) levels")
    }
}
