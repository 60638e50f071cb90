// Generated PostgreSQL DAOs import StrataPostgres only: it re-exports postgres-nio, whose
// `PostgresPreparedStatement`, `PostgresBindings`, `PostgresRow` and `PostgresDataType` they use.
// StrataPostgres's own `PostgresDatabase` class shadows postgres-nio's protocol of that name in
// every module that imports StrataPostgres.
@_exported import PostgresNIO
@_exported import Strata
