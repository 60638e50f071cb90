import Foundation
import StrataPostgres
import StrataPostgresTestSupport
import Testing

/// A row with one column of every type Strata maps to PostgreSQL.
struct Item: Sendable, Equatable {
    var id: Int
    var score: Double?
    var flag: Bool?
    var name: String?
    var data: Data?
    var at: Date?
    var key: UUID?
    var tags: [String]?

    static let createTable = """
        CREATE TABLE item (
          id BIGINT PRIMARY KEY, score DOUBLE PRECISION, flag BOOLEAN, name TEXT, data BYTEA,
          at TIMESTAMPTZ, key UUID, tags JSONB
        )
        """
}

struct InsertItem: PostgresPreparedStatement {
    static let sql = "INSERT INTO item (id, score, flag, name, data, at, key, tags) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    typealias Row = ()
    var item: Item

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 8)
        bindings.append(item.id)
        bindings.append(item.score)
        bindings.append(item.flag)
        bindings.append(item.name)
        try bindings.append(item.data)
        bindings.append(item.at)
        bindings.append(item.key)
        try bindings.append(item.tags.map(PostgresJSON.init))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}

struct FetchItems: PostgresPreparedStatement {
    static let sql = "SELECT id, score, flag, name, data, at, key, tags FROM item WHERE id >= $1 ORDER BY id"
    typealias Row = Item
    var fromID: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(fromID)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Item {
        let (id, score, flag, name, data, at, key, tags) = try row.decode(
            (Int, Double?, Bool?, String?, Data?, Date?, UUID?, PostgresJSON<[String]>?).self)
        return Item(id: id, score: score, flag: flag, name: name, data: data, at: at, key: key, tags: tags?.value)
    }
}

struct RenameItems: PostgresPreparedStatement {
    static let sql = "UPDATE item SET name = $1 WHERE id <= $2"
    typealias Row = ()
    var name: String
    var upToID: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(name)
        bindings.append(upToID)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}

@Suite(.postgreSQLInstalled, .postgresServer)
struct PostgresRuntimeTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.current()
    }

    @Test func everyMappedTypeRoundTripsThroughPreparedStatements() async throws {
        try await server.withDatabase { pg in
            try await pg.write { conn in try await conn.execute(sql: Item.createTable) }
            let full = Item(
                id: 1, score: -2.5e-300, flag: true, name: "Zoë ‘quoted’ 🚀", data: Data([0, 1, 2, 255, 0]),
                at: Date(timeIntervalSince1970: 1_700_000_000.25), key: UUID(), tags: ["swift", "sql", ""])
            let empty = Item(id: 2, score: nil, flag: nil, name: nil, data: nil, at: nil, key: nil, tags: nil)
            let extremes = Item(
                id: Int.max, score: .greatestFiniteMagnitude, flag: false, name: "", data: Data(), at: Date(timeIntervalSince1970: -86_400 * 365 * 100),
                key: UUID(uuidString: "00000000-0000-0000-0000-000000000000"), tags: [])
            let inserted = try await pg.write { conn in
                var count = 0
                for item in [full, empty, extremes] { count += try await conn.execute(InsertItem(item: item)) }
                return count
            }
            #expect(inserted == 3)
            let items = try await pg.read { conn in try await conn.fetchAll(FetchItems(fromID: 0)) }
            #expect(items == [full, empty, extremes])
            let none = try await pg.read { conn in try await conn.fetchOne(FetchItems(fromID: 3)) }
            #expect(none?.id == Int.max)
            let renamed = try await pg.write { conn in try await conn.execute(RenameItems(name: "x", upToID: 2)) }
            #expect(renamed == 2)
        }
    }

    @Test func writeCommitsAndRollsBackWhenTheClosureThrows() async throws {
        struct Abort: Error {}
        try await server.withDatabase { pg in
            try await pg.write { conn in try await conn.execute(sql: "CREATE TABLE t (id BIGINT PRIMARY KEY)") }
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO t VALUES (1)") }
            await #expect(throws: Abort.self) {
                try await pg.write { conn in
                    try await conn.execute(sql: "INSERT INTO t VALUES (2)")
                    throw Abort()
                }
            }
            // A statement error caught inside the closure aborts the transaction: it does not commit.
            let error = await #expect(throws: StrataError.self) {
                try await pg.write { conn in
                    try await conn.execute(sql: "INSERT INTO t VALUES (3)")
                    _ = try? await conn.execute(sql: "INSERT INTO t VALUES (1)")
                }
            }
            #expect(error?.sqlState == "25P02")
            let ids = try await pg.read { conn in try await conn.query(sql: "SELECT id FROM t ORDER BY id").map { try $0.decode(Int.self) } }
            #expect(ids == [1])
        }
    }

    @Test func constraintViolationsCarrySQLStateKindAndMessage() async throws {
        try await server.withDatabase { pg in
            try await pg.write { conn in
                try await conn.execute(
                    sql: """
                        CREATE TABLE parent (id BIGINT PRIMARY KEY);
                        CREATE TABLE child (
                          id BIGINT PRIMARY KEY,
                          parent_id BIGINT NOT NULL REFERENCES parent (id),
                          email TEXT UNIQUE,
                          age BIGINT CONSTRAINT age_positive CHECK (age > 0)
                        );
                        INSERT INTO parent VALUES (1);
                        INSERT INTO child VALUES (1, 1, 'a@x', 5);
                        """)
            }
            let cases: [(sql: String, state: String, kind: StrataError.ConstraintKind, mentions: String)] = [
                ("INSERT INTO child VALUES (2, 1, 'a@x', 5)", "23505", .unique, "child_email_key"),
                ("INSERT INTO child VALUES (1, 1, 'b@x', 5)", "23505", .unique, "child_pkey"),
                ("INSERT INTO child VALUES (3, 9, 'c@x', 5)", "23503", .foreignKey, "child_parent_id_fkey"),
                ("INSERT INTO child VALUES (4, 1, 'd@x', -1)", "23514", .check, "age_positive"),
                ("INSERT INTO child VALUES (5, NULL, 'e@x', 5)", "23502", .notNull, "parent_id"),
                ("DELETE FROM parent", "23503", .foreignKey, "child_parent_id_fkey"),
            ]
            for (sql, state, kind, mentions) in cases {
                let error = await #expect(throws: StrataError.self) {
                    try await pg.write { conn in _ = try await conn.query(sql: sql) }
                }
                #expect(error?.kind == .postgres, "\(sql)")
                #expect(error?.sqlState == state, "\(sql)")
                #expect(error?.constraint == kind, "\(sql)")
                #expect(error?.sql == sql)
                #expect(error?.message.contains(mentions) == true, "\(error?.message ?? "") should mention \(mentions)")
            }
            let syntax = await #expect(throws: StrataError.self) {
                try await pg.read { conn in _ = try await conn.query(sql: "SELEC 1") }
            }
            #expect(syntax?.sqlState == "42601")
            #expect(syntax?.constraint == nil)
            #expect(syntax?.description.hasPrefix("PostgreSQL error 42601: syntax error") == true)
        }
    }

    @Test func executeRunsSeveralStatementsWithQuotesCommentsAndFunctionBodies() async throws {
        try await server.withDatabase { pg in
            try await pg.write { conn in
                try await conn.execute(
                    sql: """
                        -- a comment; with a semicolon
                        CREATE TABLE note (id BIGINT PRIMARY KEY, body TEXT NOT NULL); /* another; one */
                        CREATE FUNCTION note_body_upper() RETURNS trigger AS $body$
                        BEGIN
                          NEW.body := upper(NEW.body); -- ; inside the body
                          RETURN NEW;
                        END;
                        $body$ LANGUAGE plpgsql;
                        CREATE TRIGGER note_upper BEFORE INSERT ON note FOR EACH ROW EXECUTE FUNCTION note_body_upper();
                        INSERT INTO note VALUES (1, 'a;b ''c'' "d"');
                        INSERT INTO note VALUES (2, E'e\\'f;');
                        """)
            }
            let bodies = try await pg.read { conn in
                try await conn.query(sql: "SELECT body FROM note ORDER BY id").map { try $0.decode(String.self) }
            }
            #expect(bodies == ["A;B 'C' \"D\"", "E'F;"])
        }
    }

    @Test func aConnectionThatCannotBeMadeIsAConnectionError() async throws {
        let port = try PostgresTestServer.freePort()
        var configuration = try PostgresDatabase.Configuration(url: "postgres://strata@127.0.0.1:\(port)/postgres")
        configuration.failoverTimeout = .milliseconds(300)
        let error = await #expect(throws: StrataError.self) {
            _ = try await PostgresDatabase(configuration: configuration)
        }
        #expect(error?.kind == .connection)
        #expect(error?.message.contains("127.0.0.1:\(port)") == true, "\(error?.message ?? "")")
    }

    @Test func aStandbyOnlyListIsRefusedForWritesButAcceptedForAny() async throws {
        // The suite's server is a primary: `any` and `read-write` both take it.
        for attributes in ["any", "read-write"] {
            let pg = try await PostgresDatabase(url: server.url() + "?target_session_attrs=\(attributes)")
            let inRecovery = try await pg.read { conn in try await conn.query(sql: "SELECT pg_is_in_recovery()")[0].decode(Bool.self) }
            #expect(inRecovery == false)
            try await pg.close()
        }
    }

    @Test func aServerThatRefusesTheDatabaseFailsAtOnceWithItsSQLState() async throws {
        var configuration = try PostgresDatabase.Configuration(url: server.url(database: "no_such_database"))
        // Were the refusal retried like a lost connection, this would wait out the timeout and say so.
        configuration.failoverTimeout = .seconds(600)
        let error = await #expect(throws: StrataError.self) { _ = try await PostgresDatabase(configuration: configuration) }
        #expect(error?.kind == .postgres)
        #expect(error?.sqlState == "3D000")
        #expect(error?.message.contains("no_such_database") == true)
    }

    @Test func aValueOfTheWrongTypeIsADecodingError() async throws {
        struct NamesAsNumbers: PostgresPreparedStatement {
            static let sql = "SELECT 'ten'::TEXT"
            typealias Row = Int
            func makeBindings() throws -> PostgresBindings { PostgresBindings() }
            func decodeRow(_ row: PostgresRow) throws -> Int { try row.decode(Int.self) }
        }
        let error = await #expect(throws: StrataError.self) {
            try await server.withDatabase { pg in try await pg.read { conn in try await conn.fetchAll(NamesAsNumbers()) } }
        }
        #expect(error?.kind == .decoding)
        #expect(error?.sql == NamesAsNumbers.sql)
        // JSON written as JSON (not JSONB) reads back too.
        let tags = try await server.withDatabase { pg in
            try await pg.read { conn in
                try await conn.query(sql: #"SELECT '["a", "b"]'::JSON, '{"x": 1}'::JSONB"#)[0]
                    .decode((PostgresJSON<[String]>, PostgresJSON<[String: Int]>).self)
            }
        }
        #expect(tags.0.value == ["a", "b"])
        #expect(tags.1.value == ["x": 1])
    }

    @Test func aDatabaseDroppedWithoutCloseClosesItsConnections() async throws {
        try await server.withDatabase { admin in
            let name = try await admin.read { conn in try await conn.query(sql: "SELECT current_database()")[0].decode(String.self) }
            func others() async throws -> Int {
                try await admin.read { conn in
                    try await conn.query(
                        sql: "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )[0].decode(Int.self)
                }
            }
            do {
                let pg = try await PostgresDatabase(url: server.url(database: name))
                _ = try await pg.read { conn in try await conn.query(sql: "SELECT 1") }
                #expect(try await others() == 1)
            }
            // postgres-nio traps (in debug builds) when a connection is freed unclosed; the
            // server sees the connection go. Bounded: 100 checks, 20 ms apart.
            var remaining = try await others()
            for _ in 0..<100 where remaining > 0 {
                try await Task.sleep(for: .milliseconds(20))
                remaining = try await others()
            }
            #expect(remaining == 0)
        }
    }

    @Test func closeRefusesLaterCalls() async throws {
        let pg = try await PostgresDatabase(url: server.url())
        try await pg.close()
        let error = await #expect(throws: StrataError.self) { try await pg.read { _ in 1 } }
        #expect(error?.kind == .misuse)
    }

    @Test func manyConcurrentCallsShareTheBoundedPool() async throws {
        try await server.withDatabase(configure: { $0.maximumConnections = 3 }) { pg in
            try await pg.write { conn in try await conn.execute(sql: "CREATE TABLE counter (n BIGINT NOT NULL)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<40 {
                    group.addTask {
                        try await pg.write { conn in
                            var bindings = PostgresBindings()
                            bindings.append(n)
                            _ = try await conn.query(sql: "INSERT INTO counter VALUES ($1)", bindings)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let (count, sum, backends) = try await pg.read { conn in
                try await conn.query(
                    sql: "SELECT count(*), sum(n)::BIGINT, (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()) FROM counter"
                )[0].decode((Int, Int, Int).self)
            }
            #expect(count == 40)
            #expect(sum == (0..<40).reduce(0, +))
            #expect(backends <= 3)
        }
    }
}
