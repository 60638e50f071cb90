import StrataPostgres
import Testing

@testable import StrataPostgres

struct PostgresURLTests {
    @Test func parsesHostsCredentialsDatabaseAndParameters() throws {
        let configuration = try PostgresDatabase.Configuration(
            url: "postgresql://app:s%40cret@10.0.0.1:5433,db2,[::1]:6000/shop?sslmode=require&target_session_attrs=any&connect_timeout=3&pool_max=4")
        #expect(configuration.username == "app")
        #expect(configuration.password == "s@cret")
        #expect(configuration.database == "shop")
        #expect(configuration.hosts == [.init(host: "10.0.0.1", port: 5433), .init(host: "db2", port: 5432), .init(host: "::1", port: 6000)])
        #expect(configuration.hosts.map(\.description) == ["10.0.0.1:5433", "db2:5432", "[::1]:6000"])
        #expect(configuration.tls == .require)
        #expect(configuration.targetSessionAttributes == .any)
        #expect(configuration.connectTimeout == .seconds(3))
        #expect(configuration.maximumConnections == 4)
    }

    @Test func severalURLsCombineTheirHosts() throws {
        let configuration = try PostgresDatabase.Configuration(urls: [
            "postgres://app@127.0.0.1:5432/shop", "postgres://app@127.0.0.1:5433/shop", "postgres://app@127.0.0.1:5432/shop",
        ])
        #expect(configuration.hosts.map(\.port) == [5432, 5433])
        #expect(configuration.targetSessionAttributes == .readWrite)
        #expect(throws: StrataError.self) {
            try PostgresDatabase.Configuration(urls: ["postgres://app@h1/shop", "postgres://other@h2/shop"])
        }
    }

    @Test(arguments: [
        ("mysql://app@h/db", "the scheme is not postgres://"),
        ("postgres://h:5432/db", "it names no user"),
        ("postgres://app@h:99999/db", "the port 99999"),
        ("postgres://app@h,/db", "a host is empty"),
        ("postgres://app:pw@h/db?sslmode=verify", "sslmode=verify"),
        ("postgres://app@h/db?application_nam=x", "application_nam is not supported"),
    ])
    func refusesWhatItCannotHonour(url: String, reason: String) {
        let error = #expect(throws: StrataError.self) { try PostgresDatabase.Configuration(url: url) }
        #expect(error?.kind == .misuse)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("pw") == false, "the password is not in the message")
    }

    @Test func splitsStatementsOnlyAtTopLevelSemicolons() {
        let sql = """
            CREATE TABLE a (x TEXT DEFAULT 'a;b');  -- one; comment
            /* nested /* ; */ ; */ INSERT INTO "we;ird" VALUES ($1, E'\\';', 'it''s;');
            CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;
            DO $tag$ BEGIN PERFORM 1; END $tag$;
            ;  -- only a comment
            """
        #expect(
            SQLStatements.split(sql) == [
                "CREATE TABLE a (x TEXT DEFAULT 'a;b')",
                "-- one; comment\n/* nested /* ; */ ; */ INSERT INTO \"we;ird\" VALUES ($1, E'\\';', 'it''s;')",
                "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql",
                "DO $tag$ BEGIN PERFORM 1; END $tag$",
            ])
        #expect(SQLStatements.split("  -- nothing\n").isEmpty)
        #expect(SQLStatements.split("SELECT 1") == ["SELECT 1"])
    }

    @Test func constraintKindsOfPostgresSQLStates() {
        #expect(StrataError.constraintKind(sqlState: "23505") == .unique)
        #expect(StrataError.constraintKind(sqlState: "23503") == .foreignKey)
        #expect(StrataError.constraintKind(sqlState: "23514") == .check)
        #expect(StrataError.constraintKind(sqlState: "23502") == .notNull)
        #expect(StrataError.constraintKind(sqlState: "23P01") == .other)
        #expect(StrataError.constraintKind(sqlState: "42601") == nil)
    }
}
