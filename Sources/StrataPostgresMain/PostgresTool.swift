import Strata
import StrataCommands
import StrataPostgres

/// `strata migrate/status --url` and `strata prepare`: the PostgreSQL side, over StrataPostgres's `PostgresMigrator`
/// (each migration in its own transaction, under an advisory lock).
struct PostgresTool: PostgresMigrationTool {
    func status(url: String, migrations: [Migration]) async throws -> PostgresMigrationStatus {
        try await withDatabase(url) { pg in
            let status = try await PostgresMigrator(migrations: migrations).status(of: pg)
            return PostgresMigrationStatus(
                applied: status.applied.map { .init(version: $0.version, name: $0.name, appliedAt: $0.appliedAt) },
                pending: status.pending, problems: status.problems)
        }
    }

    func migrate(url: String, migrations: [Migration], upTo target: Int?) async throws -> [Migration] {
        try await withDatabase(url) { pg in try await PostgresMigrator(migrations: migrations).migrate(pg, upTo: target) }
    }

    func describe(url: String, migrations: [Migration], statements: [String]) async throws -> [PostgresStatementOutcome] {
        try await withDatabase(url) { pg in
            try await pg.describeStatements(statements, migrations: migrations).map { result in
                switch result {
                case .success(let description):
                    .described(
                        parameterTypes: description.parameterTypes,
                        columns: description.columns.map { PostgresResultColumn(name: $0.name, type: $0.type, tableColumnNotNull: $0.tableColumnNotNull) })
                case .failure(let rejection):
                    .rejected(message: rejection.message, hint: rejection.hint, position: rejection.position)
                }
            }
        }
    }

    /// Runs `body` on a database opened at `url`, closing it afterwards.
    func withDatabase<T: Sendable>(_ url: String, _ body: (PostgresDatabase) async throws -> T) async throws -> T {
        let pg = try await PostgresDatabase(url: url)
        do {
            let result = try await body(pg)
            try await pg.close()
            return result
        } catch {
            try? await pg.close()
            throw error
        }
    }
}
