"""The `canasta` command line: one module per subcommand (each has add_parser() and run()),
gathered by `sim.cli.main`.  This is the top layer: it may import everything below it.

Started as a command (``canasta ...`` or ``python -m sim.cli``), Ctrl-C before ``main`` takes
over (while Python and the libraries load, about 1.5 s) ends the process with one line and
status 130 instead of a KeyboardInterrupt traceback; ``main`` then restores the usual
KeyboardInterrupt, which it turns into the same line (and a run into saved chunks)."""

import os
import signal
import sys


def _interrupted_while_loading(signum: int, frame: object) -> None:
    os.write(2, b"canasta: interrupted\n")
    os._exit(130)


if sys.argv[:1] == ["-m"] or os.path.basename(sys.argv[0] if sys.argv else "") == "canasta":
    signal.signal(signal.SIGINT, _interrupted_while_loading)
