// The command line only wires parts together; see Jacktap.swift for the commands.
ConfigFile.main()
