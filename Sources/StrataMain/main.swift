import StrataCommands

// The `strata` executable: everything lives in StrataCommands.
StrataCommand.main()
