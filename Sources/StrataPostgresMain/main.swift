import StrataCommands

// The `strata-postgres` executable: the `strata` command, with PostgresTool for `--url`.
StrataCommand.main(postgres: PostgresTool())
