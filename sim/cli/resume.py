"""`--resume` of the long commands (analyze, review, equity, tune): their checkpoints
(sim.runs.checkpoint), opened before the work and deleted once the result is written."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_resume", "open_checkpoint"]

HELP = (
    "continue an interrupted run of this same command from its checkpoint (finished work is "
    "kept as it finishes: beside the output file, else in this folder as .canasta-*.partial)"
)


def add_resume(p: argparse.ArgumentParser) -> None:
    p.add_argument("--resume", action="store_true", help=HELP)


def open_checkpoint(command: str, settings: dict[str, Any], out: Any, resume: bool):
    """The checkpoint of this run (refusing a leftover one without --resume)."""
    from sim.runs.checkpoint import Checkpoint, checkpoint_path

    path = checkpoint_path(command, settings, out)
    return Checkpoint(path, command, settings, resume)
