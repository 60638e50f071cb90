import Testing
@testable import StrataCompiler

/// The one SQL tokenizer: its expression tokens, which the query parameters, the typed-query
/// typer and the PostgreSQL renderer all read.
@Suite struct SQLTokenizerTests {
    func kinds(_ sql: String) -> [String] {
        SQLTokenizer.expressionTokens(of: sql).map { token in
            switch token.kind {
            case .word: "word \(token.text)"
            case .identifier: "identifier \(token.value)"
            case .string: "string \(token.text)"
            case .number: "number \(token.text)"
            case .blob: "blob \(token.text)"
            case .parameter(let name): "parameter \(name)"
            case .otherParameter: "other \(token.text)"
            case .symbol: "symbol \(token.text)"
            }
        }
    }

    @Test func literalsAndParametersAreTokensOfTheirOwn() {
        #expect(kinds("x = x'00' OR X'FF' <> :x") == ["word x", "symbol =", "blob x'00'", "word OR", "blob X'FF'", "symbol <>", "parameter x"])
        #expect(kinds("?1 @a ?x $b : 'it''s' 1.5 1e-3 0x1F") == [
            "other ?1", "other @a", "other ?x", "other $b", "other :", "string 'it''s'", "number 1.5", "number 1e-3", "number 0x1F",
        ])
        #expect(kinds("x 'a'") == ["word x", "string 'a'"])
        #expect(kinds("a::text") == ["word a", "symbol ::", "word text"])
    }

    @Test func quotedNamesAndCommentsHideNothingThatIsNotThere() {
        #expect(kinds("\"a:b\" = [c d] -- :e\n AND `f` = :g /* :h */") == [
            "identifier a:b", "symbol =", "identifier c d", "word AND", "identifier f", "symbol =", "parameter g",
        ])
    }

    @Test func aBlobLiteralMentionsNoColumn() {
        #expect(!SQLTokenizer.mentions("length(y) > 0 AND y <> x'00' AND y <> @x", name: "x"))
        #expect(SQLTokenizer.mentions("length(\"X\") > 0", name: "x"))
    }
}
