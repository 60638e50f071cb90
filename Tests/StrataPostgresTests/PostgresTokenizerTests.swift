import Testing

@testable import StrataPostgres

/// The one PostgreSQL lexer that the statement splitter and observation's table-name scanner walk.
struct PostgresTokenizerTests {
    /// The tokens of `sql` other than white space, as (kind, text).
    private func tokens(_ sql: String) -> [(PostgresToken.Kind, String)] {
        let tokenizer = PostgresTokenizer(sql)
        return tokenizer.filter { $0.kind != .whitespace }.map { ($0.kind, tokenizer.text(of: $0)) }
    }

    private func expectTokens(_ sql: String, _ expected: [(PostgresToken.Kind, String)], sourceLocation: SourceLocation = #_sourceLocation) {
        let found = tokens(sql)
        #expect(found.map(\.0) == expected.map(\.0), "kinds of \(sql)", sourceLocation: sourceLocation)
        #expect(found.map(\.1) == expected.map(\.1), "texts of \(sql)", sourceLocation: sourceLocation)
    }

    @Test func dollarQuotesWithTagsEndOnlyAtTheirOwnTag() {
        expectTokens(
            "SELECT $fn$ a $$ b $other$ ; $fn$, $$x$y$$;",
            [(.identifier, "SELECT"), (.dollarQuoted, "$fn$ a $$ b $other$ ; $fn$"), (.symbol, ","), (.dollarQuoted, "$$x$y$$"), (.semicolon, ";")])
        // A tag is a name (no leading digit); `$1` is a parameter, `a$b$` one name, `$` alone a symbol.
        expectTokens(
            "x = $1 AND a$b$ = $ 2 $_t9$body$_t9$",
            [(.identifier, "x"), (.symbol, "="), (.number, "$1"), (.identifier, "AND"), (.identifier, "a$b$"), (.symbol, "="),
             (.symbol, "$"), (.number, "2"), (.dollarQuoted, "$_t9$body$_t9$")])
        // An unclosed dollar quote runs to the end.
        expectTokens("DO $x$ BEGIN; END", [(.identifier, "DO"), (.dollarQuoted, "$x$ BEGIN; END")])
    }

    @Test func blockCommentsNestAndLineCommentsEndAtTheLine() {
        expectTokens(
            "a /* one /* two; */ still; */ b -- rest; 'x'\nc",
            [(.identifier, "a"), (.comment, "/* one /* two; */ still; */"), (.identifier, "b"), (.comment, "-- rest; 'x'"), (.identifier, "c")])
        expectTokens("/* open /* */ never closed", [(.comment, "/* open /* */ never closed")])
        // A single `-` or `/` is an operator.
        expectTokens("1 - 2 / 3", [(.number, "1"), (.symbol, "-"), (.number, "2"), (.symbol, "/"), (.number, "3")])
    }

    @Test func escapeStringsTakeBackslashesAndStandardOnesDoNot() {
        expectTokens(
            #"E'it\'s; \\' e'x' 'a\' ; 'b''c'"#,
            [(.string, #"E'it\'s; \\'"#), (.string, "e'x'"), (.string, #"'a\'"#), (.semicolon, ";"), (.string, "'b''c'")])
        // Only a lone E opens an escape string; in `somE'…'` the E ends a name.
        expectTokens(
            #"somE'a\' x"#,
            [(.identifier, "somE"), (.string, #"'a\'"#), (.identifier, "x")])
        expectTokens("'never closed; ", [(.string, "'never closed; ")])
    }

    @Test func quotedIdentifiersKeepTheirCaseAndUndoubleQuotes() {
        let tokenizer = PostgresTokenizer(#"SELECT "We""ird;" , Plain, "unclosed"#)
        let names = tokenizer.compactMap { tokenizer.name(of: $0) }
        #expect(names == ["select", #"We"ird;"#, "plain", "unclosed"])
        expectTokens(#""a""b" . "c""#, [(.quotedIdentifier, #""a""b""#), (.symbol, "."), (.quotedIdentifier, #""c""#)])
        // Strings, comments and numbers have no name.
        let other = PostgresTokenizer("'s' -- c\n1 $$d$$")
        #expect(other.compactMap { other.name(of: $0) }.isEmpty)
    }

    @Test func tokensCoverTheTextWithoutGapsOrOverlaps() {
        let texts = [
            "", " ", "$", "$$", "'", "\"", "E'", "e'\\", "/*", "--", "-", "/", "a$", "$1$", "$a$$a$",
            "SELECT $x$ ' \" $x$, E'\\'' \"\"\"\" /* /* */ */ -- end\n;;",
            "ünïcode \"ñ\" 'ß' $ü$ é $ü$ 1e5 x1$2",
        ]
        for text in texts {
            let tokenizer = PostgresTokenizer(text)
            var end = 0
            for token in tokenizer {
                #expect(token.range.lowerBound == end && !token.range.isEmpty, "token at \(token.range) of \(text)")
                end = token.range.upperBound
            }
            #expect(end == tokenizer.scalars.count, "the tokens of \(text) end at \(end)")
        }
    }
}
