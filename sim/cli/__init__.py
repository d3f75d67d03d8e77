"""The `canasta` command line: one module per subcommand (each has add_parser() and run()),
gathered by `sim.cli.main`.  This is the top layer: it may import everything below it."""
