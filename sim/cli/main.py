"""`canasta` entry point: the argument parser over every subcommand module, and error handling.

Every refusal is one line on stderr, ``canasta CMD: error: ...``, and exit status 2: argparse's
own errors (without its usage block), the documented ``CanastaError`` of the Python layers,
file-system errors (a full disk, a read-only folder, a path below a file) and running out of
memory.  Ctrl-C exits with status 130 and one line, also while the libraries are still loading
(they are imported inside ``main``, not when this module is).
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import shutil
import signal
import sys
import textwrap
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import types

EPILOG = """examples:
  canasta rules                                   list rule presets
  canasta rules classic --players 6               every parameter of a rule set
  canasta strategies expert                       a strategy's plan and knobs
  canasta play --rules classic --players 4 --seed 7
  canasta simulate --strategies expert,greedy --hands 100000 --seed 1 --out runs/x
  canasta compare expert greedy --until-ci 10
  canasta tune expert --rules classic --players 6 --budget 400000 --seed 17
  canasta report runs/x -o report.html
  canasta table                                   play in the browser against the lab's players
  canasta warmup                                  compile the game core once, ahead of time
"""


def version() -> str:
    """The installed package's version, else the source tree's pyproject.toml's."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _v

    try:
        return _v("canasta-lab")
    except PackageNotFoundError:
        import tomllib
        from pathlib import Path

        py = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            return str(tomllib.loads(py.read_text())["project"]["version"]) + " (source tree)"
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


def _error_base() -> type[Exception]:
    from sim.core.errors import CanastaError

    return CanastaError


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: the problem and where the options are listed.

    Arguments a subcommand does not know are reported by that subcommand (``canasta play:
    error: unrecognized arguments: ...``), not by the top-level parser, and an empty or blank
    text given to any option or argument is refused (``--rules ''`` is a typo, not "not
    given")."""

    def error(self, message: str) -> None:  # type: ignore[override]
        msg = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {msg} (see {self.prog} --help)\n")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        ns, extras = self.parse_known_args(args, namespace)
        sub = self._command_parser(ns)
        if extras:
            (sub or self).error(f"unrecognized arguments: {' '.join(extras)}")
        if sub is not None:
            blank_text(sub, ns)
        return ns

    def _command_parser(self, ns: argparse.Namespace) -> argparse.ArgumentParser | None:
        command = getattr(ns, "command", None)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction) and command in action.choices:
                return action.choices[command]
        return None


def blank_text(parser: argparse.ArgumentParser, ns: argparse.Namespace) -> None:
    """Refuse an empty or blank text given to any option or argument of `parser`."""
    for action in parser._actions:
        value = getattr(ns, action.dest, None)
        if action.default is value or action.nargs == 0:
            continue
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and not v.strip() for v in values):
            name = "/".join(action.option_strings) or action.metavar or action.dest
            parser.error(f"{name} {value!r}: an empty value; give one or leave the option out")


# every subcommand, in the order `canasta --help` lists them; each is the module sim.cli.<name>
COMMANDS = (
    "rules",
    "strategies",
    "play",
    "simulate",
    "compare",
    "sweep",
    "tune",
    "odds",
    "analyze",
    "review",
    "mistakes",
    "equity",
    "report",
    "table",
    "warmup",
)


def subcommand_modules(only: str | None = None) -> tuple:
    """Every subcommand's module (or only that of the command `only`), in the order `canasta
    --help` lists them; each defines add_parser(subparsers) and run(args) -> int.  (Imported
    here, not at module level, so that Ctrl-C while the libraries load is one line.)"""
    import importlib

    names = (only,) if only in COMMANDS else COMMANDS
    return tuple(importlib.import_module(f"sim.cli.{name}") for name in names)


HELP_WIDTH = 100


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help at most HELP_WIDTH columns (or the terminal's): the options as argparse lays them
    out, the description and the worked examples as written, each longer line wrapped at words
    under its own indentation -- but a command line (``canasta ...``), which stays whole so that
    it can be copied."""

    def __init__(self, prog: str, width: int | None = None) -> None:
        cols = shutil.get_terminal_size((HELP_WIDTH, 24)).columns
        super().__init__(prog, width=width or min(HELP_WIDTH, cols))

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        out: list[str] = []
        lines = text.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            body = line.lstrip()
            lead = indent + line[: len(line) - len(body)]
            i += 1
            if len(lead + body) <= width:
                out.append(lead + body)
                continue
            m = re.match(r"(canasta \S.*?)(\s{2,})(\S.*)$", body)
            if body.startswith("canasta ") and not m:
                out += _command(lead, body, width)
                continue
            if m:  # a command with what it does beside it, which may go on below: put it under
                col = len(line) - len(m.group(3))
                what = [m.group(3)]
                while (
                    i < len(lines)
                    and lines[i].strip()
                    and len(lines[i]) - len(lines[i].lstrip()) >= col
                ):
                    what.append(lines[i].strip())
                    i += 1
                out += _command(lead, m.group(1), width)
                body, lead = " ".join(what), lead + "    "
            out += textwrap.wrap(body, width, initial_indent=lead, subsequent_indent=lead)
        return "\n".join(out)


def _command(lead: str, cmd: str, width: int) -> list[str]:
    """A command line of a worked example, continued with a backslash where it is too long
    (it still pastes into a shell)."""
    lines: list[str] = []
    cont, rest = lead, cmd
    while len(cont) + len(rest) > width:
        cut = rest.rfind(" ", 0, width - len(cont) - 2)
        if cut <= 0:
            break
        lines.append(cont + rest[:cut] + " \\")
        cont, rest = lead + "    ", rest[cut + 1 :]
    return [*lines, cont + rest]


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand; `only` (a command name): of that one alone, which parses
    its command lines as the whole parser does without importing every other command's
    libraries (`canasta play` would load pandas, pyarrow and scipy: about a second of a cold
    start, before it starts compiling)."""
    parser = Parser(
        prog="canasta",
        description="Canasta strategy lab: simulate, compare and analyse Canasta strategies.",
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"canasta {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for module in subcommand_modules(only):
        module.add_parser(sub).formatter_class = HelpFormatter
    return parser


def os_error_message(exc: OSError, command: str, args: argparse.Namespace) -> str:
    """One line for a file-system error: what failed, why, and for runs how to continue."""
    name = exc.filename or getattr(args, "out", None) or ""
    why = exc.strerror or str(exc)
    cure = {
        errno.ENOSPC: "free some space",
        errno.EDQUOT: "free some space",
        errno.EFBIG: "the file system's file-size limit was hit",
        errno.EROFS: "choose a writable folder",
        errno.EACCES: "choose a folder you may write to",
        errno.ENOTDIR: "a part of the path is a file, not a folder",
        errno.EISDIR: "give a file name, not a folder",
        errno.ENOENT: "check the path",
    }.get(exc.errno or -1)
    msg = f"cannot use {name}: {why}" if name else why
    if cure:
        msg += f" ({cure})"
    if (
        command == "simulate"
        and getattr(args, "out", None)
        and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
    ):
        msg += f"; finished chunks are kept: `canasta simulate --out {args.out} --resume` continues"
    return msg


EARLY_COMPILE = ("play", "simulate")  # commands whose first run is mostly a compilation
NOT_HERE = ("-h", "--help", "--scheduler", "--backend")  # no local compilation (or not now)


def _start_compiling(argv: list[str]) -> Callable[[], None] | None:
    """`canasta play` and `canasta simulate` compile the game core on their first run: start
    the compile helper (sim/play/compile/parallel_warm.py) before the libraries load; it ends at
    once on a warm cache.  Returns what stops it if the command does not take it over."""
    if (
        not argv
        or argv[0] not in EARLY_COMPILE
        or any(a.split("=")[0] in NOT_HERE for a in argv[1:])
    ):
        return None
    from sim.play.compile import parallel_warm

    parallel_warm.start_early(argv[0])
    return parallel_warm.stop_early


def _run(argv: list[str] | None) -> int:
    # only as the command itself (`canasta ...`: no argv), not for a Python caller of main([...])
    stop = _start_compiling(sys.argv[1:]) if argv is None else None
    try:
        return _run_command(argv)
    finally:
        if stop is not None:
            stop()


def _run_command(argv: list[str] | None) -> int:
    words = sys.argv[1:] if argv is None else argv
    # a command's own parser alone when it is named first; anything else (--help, --version, a
    # typo) gets the whole parser and its usual message
    parser = build_parser(words[0] if words else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a one-line argument error (2)
        return exc.code if isinstance(exc.code, int) else 2
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    user_errors = (_error_base(), ValueError, KeyError)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        from sim.runs.checkpoint import active

        kept = [c for c in active() if c.done]
        _close_checkpoints()
        if not kept:
            raise
        print(
            f"canasta {args.command}: interrupted; the finished work is kept in {kept[0].path}: "
            "run the same command with --resume to continue",
            file=sys.stderr,
        )
        return 130
    except BrokenPipeError:  # the reader of our output left: handled by main
        raise
    except user_errors as exc:
        text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
        msg = " ".join(text.split()) or type(exc).__name__
    except OSError as exc:
        msg = os_error_message(exc, args.command, args)
    except MemoryError:
        msg = "out of memory; ask for less work (e.g. fewer --rollouts or --hands per call)"
    finally:
        _close_checkpoints()
    print(f"canasta {args.command}: error: {msg}", file=sys.stderr)
    return 2


def _close_checkpoints() -> None:
    """A command that ended keeps the checkpoints holding finished work, and only those."""
    import sys as _sys

    mod = _sys.modules.get("sim.runs.checkpoint")
    for ckpt in mod.active() if mod is not None else ():
        ckpt.close()


def _in_compiler(frame: types.FrameType | None) -> bool:
    """Is the interrupted code numba compiling or loading a kernel?  (Its llvmlite callbacks
    run Python code called from C, where a KeyboardInterrupt cannot propagate: Python prints
    "Exception ignored ... Traceback" and the compilation goes on.)"""
    while frame is not None:
        name = frame.f_code.co_filename.replace("\\", "/")
        if "/numba/" in name or "/llvmlite/" in name:
            return True
        frame = frame.f_back
    return False


def _on_ctrl_c(signum: int, frame: types.FrameType | None) -> None:
    """Ctrl-C: the usual KeyboardInterrupt (a run saves its finished chunks and says how to
    resume), but while numba compiles, end at once with the same one line (nothing of the
    run is lost: chunks start only after the kernels are compiled; a folder is resumable)."""
    if _in_compiler(frame):
        os.write(2, b"canasta: interrupted\n")
        os._exit(130)
    raise KeyboardInterrupt


def _forget_interrupt() -> None:
    """Let a caught Ctrl-C end with status 130.  CPython remembers a KeyboardInterrupt that left
    code run from a string (`exec("...")`, as dataclasses, namedtuples and numba build their
    code while the libraries load) even when it is caught later, and under `python -m` it then
    ends the process with SIGINT at exit (status -2) instead of the code `main` returns.  Every
    string exec starts by clearing that flag (`run_eval_code_obj` in Python/pythonrun.c, 3.11 to
    3.13), so one harmless exec here clears it."""
    exec("pass")


def main(argv: list[str] | None = None) -> int:
    try:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, _on_ctrl_c)  # see sim/cli/__init__.py
        code = _run(argv)
        sys.stdout.flush()  # a reader that left shows here, not as "Exception ignored" at exit
        return code
    except KeyboardInterrupt:
        print("canasta: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `canasta ... | head`: the reader left; not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:  # also after a Ctrl-C a command turned into its own message (simulate's resume hint)
        _forget_interrupt()


if __name__ == "__main__":
    sys.exit(main())
