import StrataCommands

// The build and command plugins' copy of `strata` (see Package.swift for why it is separate).
StrataCommand.main()
