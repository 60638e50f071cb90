import StrataCommands

// The `strata` executable: everything lives in StrataCommands. No PostgreSQL here, so that
// building it builds no SwiftNIO; `strata-postgres` (StrataPostgresMain) adds `--url`.
StrataCommand.main()
