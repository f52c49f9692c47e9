"""The `deskgate` command: one module per family of subcommands."""
