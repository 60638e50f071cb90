import StrataCommands

// The `strata` executable: everything lives in StrataCommands; PostgresTool adds `--url`.
StrataCommand.main(postgres: PostgresTool())
