import Foundation
import StrataCompiler
import StrataTestSupport
import Testing

/// The text `strata prepare` sends PostgreSQL: `:name` → `$n`, list parameters as one array,
/// and the map from the sent text back to the query as written.
struct PostgresStatementTextTests {
    @Test func eachDistinctNameOnceInOrderOfFirstAppearance() {
        let text = PostgresStatementText(sql: "SELECT * FROM t WHERE a = :b OR c = :a OR d = :b", listParameters: [])
        #expect(text.sql == "SELECT * FROM t WHERE a = $1 OR c = $2 OR d = $1")
        #expect(text.parameters.map(\.name) == ["b", "a"])
        #expect(text.parameters.allSatisfy { !$0.isList })
    }

    @Test func stringsCommentsQuotedNamesAndCastsAreLeftAlone() {
        let sql = """
            SELECT ':x' AS s, ":y" AS q, n::int AS i, n :: text AS t -- :z
            FROM t /* :w */ WHERE n = :n::int8
            """
        let text = PostgresStatementText(sql: sql, listParameters: [])
        #expect(text.sql == sql.replacingOccurrences(of: "= :n::int8", with: "= $1::int8"))
        #expect(text.parameters.map(\.name) == ["n"])
    }

    @Test func aListParameterIsOneArray() {
        let text = PostgresStatementText(
            sql: "SELECT id FROM t WHERE id IN (:ids) AND kind NOT IN ( :kinds ) AND x IN (:one) AND y = ANY(:ids)",
            listParameters: ["ids", "kinds"])
        #expect(text.sql == "SELECT id FROM t WHERE id = ANY($1) AND kind <> ALL( $2 ) AND x IN ($3) AND y = ANY($1)")
        #expect(text.parameters.map(\.name) == ["ids", "kinds", "one"])
        #expect(text.parameters.map(\.isList) == [true, true, false])
    }

    @Test func aDeclaredTypeIsACastWhereTheParameterFirstAppears() {
        let text = PostgresStatementText(
            sql: "SELECT :a AS a, :a + :b AS c WHERE x IN (:ids) OR y IN (:ids)", listParameters: ["ids"],
            declaredTypes: ["a": "BIGINT", "ids": "TEXT"])
        #expect(text.sql == "SELECT $1::BIGINT AS a, $1 + $2 AS c WHERE x = ANY($3::TEXT[]) OR y = ANY($3)")
    }

    @Test func offsetsMapBackToTheTextAsWritten() throws {
        let original = "SELECT 'café', :long_name, nme FROM t WHERE id IN (:ids)"
        let text = PostgresStatementText(sql: original, listParameters: ["ids"])
        #expect(text.sql == "SELECT 'café', $1, nme FROM t WHERE id = ANY($2)")
        func originalOffset(of needle: String, in haystack: String) throws -> Int {
            let range = try #require(haystack.range(of: needle))
            return haystack.utf8.distance(from: haystack.startIndex, to: range.lowerBound)
        }
        // A copied byte maps to itself, shifted by what the placeholders changed.
        #expect(text.originalOffset(ofUTF8Offset: try originalOffset(of: "nme", in: text.sql)) == (try originalOffset(of: "nme", in: original)))
        // Inside a placeholder: the start of the `:name` it replaced.
        #expect(text.originalOffset(ofUTF8Offset: try originalOffset(of: "$1", in: text.sql) + 1) == (try originalOffset(of: ":long_name", in: original)))
        #expect(text.originalOffset(ofUTF8Offset: try originalOffset(of: "$2", in: text.sql)) == (try originalOffset(of: ":ids", in: original)))
        #expect(text.originalOffset(ofUTF8Offset: try originalOffset(of: "= ANY(", in: text.sql)) == (try originalOffset(of: "IN (", in: original)))
        // The server's position counts characters from 1: `é` is one character, two bytes.
        let characters = text.sql.distance(from: text.sql.startIndex, to: try #require(text.sql.range(of: "nme")).lowerBound) + 1
        #expect(text.originalOffset(ofServerPosition: characters) == (try originalOffset(of: "nme", in: original)))
        // Past the end (`syntax error at end of input`): the end of the text as written.
        #expect(text.originalOffset(ofServerPosition: text.sql.count + 1) == original.utf8.count)
    }

    @Test func aQueryRewritesItsPostgresVariant() throws {
        // Compiled as `strata-postgres prepare` compiles it: without a `Notes.prepared.json` to read.
        let directory = try TemporaryDirectory()
        let path = directory.path("Notes.schema.yml")
        try """
            options: { dialects: [sqlite, postgres] }
            tables:
              Note:
                columns:
                  id: { type: int, primaryKey: true }
                  body: text
            queries:
              some:
                sql:
                  sqlite: "SELECT body FROM Note WHERE id IN (:ids) LIMIT :n"
                  postgres: "SELECT body FROM Note WHERE id = ANY(:ids) LIMIT :n"
                params: { ids: "[int]" }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let compiled = try Compiler.compile(path: path, preparedQueries: false)
        let query = try #require(compiled.schema.queries.first)
        let text = PostgresStatementText(query)
        // `params:` types are cast where the parameter first appears.
        #expect(text.sql == "SELECT body FROM Note WHERE id = ANY($1::BIGINT[]) LIMIT $2")
        #expect(text.parameters.map(\.isList) == [true, false])
        #expect(text.original == query.postgresText)
    }
}
