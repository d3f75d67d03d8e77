"""`canasta strategies [NAME ...]`: each strategy's plan and its knobs (meaning, range, default)."""

from __future__ import annotations

import argparse
import inspect
import re
from typing import Any

EPILOG = """examples:
  canasta strategies                 every strategy: its plan, then its knobs
  canasta strategies expert tunable  only these two
  canasta strategies --brief         one line per strategy
  canasta strategies pimc            a search player: its plan and knobs
Knobs are set in a strategy spec: expert:open_threshold=0,safe_discard=1 (simulate --strategies,
compare, sweep --knob).
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "strategies",
        help="list the strategies: plan and knobs (meaning, range, default)",
        description="List the built-in strategies: what each plans to do and every knob it "
        "takes, with its meaning, range and this strategy's default.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="strategies to show (default: all)")
    p.add_argument("--brief", action="store_true", help="one line per strategy, no knobs")
    p.set_defaults(run=run)
    return p


# ----------------------------------------------------------------------------- accessors
# Written against strategies.registry as it is: names, the module of each strategy, its KNOBS
# (defaults); the knobs' meanings come from the knob table (strategies.heuristic.KNOB_TABLE,
# rows with .name/.default/.meaning[/.range]) when it exists, else from heuristic's docstring.


def strategy_modules() -> dict[str, Any]:
    """{name: module} in registry order."""
    from strategies import registry

    return dict(registry.STRATEGIES)


def _meanings() -> dict[str, tuple[str, str | None]]:
    """{knob: (meaning, declared range or None)} of every knob any strategy uses."""
    from strategies import heuristic

    table = getattr(heuristic, "KNOB_TABLE", None)
    if table:
        return {k.name: (" ".join(k.meaning.split()), getattr(k, "range", None)) for k in table}
    doc = inspect.getdoc(heuristic) or ""
    block = doc.split("Knobs", 1)[1].split("\n\n", 1)[0] if "Knobs" in doc else ""
    out: dict[str, list[str]] = {}
    name = None
    for line in block.splitlines()[1:]:
        m = re.match(r"  (\w+)\s{2,}(.*)", line)
        if m:
            name = m.group(1)
            out[name] = [m.group(2)]
        elif name and line.strip():
            out[name].append(line.strip())
    return {k: (" ".join(v), None) for k, v in out.items()}


def knob_range(meaning: str, default: float, declared: str | None = None) -> str:
    """The values a knob takes, as the registry checks them (strategies.knobs.knob_domain): as
    declared, else the options its meaning enumerates ("0 never ...; 1 ...; 2 ..."), else a
    non-negative number up to 10**6 (every other knob is a count, a threshold in points or
    cards, or a weight)."""
    from strategies.knobs import Knob, knob_domain

    return knob_domain(Knob("knob", float(default), meaning, declared or "")).text()


def knob_rows(name: str) -> list[dict[str, Any]]:
    """Knobs of strategy ``name``: knob, default (this strategy's), range, meaning."""
    from strategies.registry import knob_defaults

    meanings = _meanings()
    rows = []
    for knob, default in knob_defaults(name).items():
        meaning, declared = meanings.get(knob, ("", None))
        rows.append(
            {
                "knob": knob,
                "default": default,
                "range": knob_range(meaning, default, declared),
                "meaning": meaning,
            }
        )
    return rows


SEARCH_PLANS = {
    "pimc": (
        "search player: determinized Monte Carlo (perfect-information Monte Carlo)",
        "At each searched decision of its seat it samples worlds consistent with what the seat\n"
        "has seen (hidden cards dealt so that the other seats' last turns agree with each\n"
        "seat's model: by default the strategy seated there), plays every legal action in\n"
        "every world to the end of the hand (its base strategy at its seat, the models at\n"
        "the others; common random numbers across actions) and plays the best mean.",
    ),
    "ismcts": (
        "search player: single-observer information-set MCTS (Cowling et al., 2012)",
        "Each iteration samples one world as pimc does and descends a tree of the seat's\n"
        "own decisions by UCB, with the other seats' models (as for pimc) playing their\n"
        "turns and the base strategy its own rollouts; it plays the most visited action.",
    ),
}


SEARCH_KNOBS = {  # the knobs of sim.play.search.spec, as its docstring describes them
    "worlds": "worlds sampled per searched decision",
    "rollouts": "rollouts per world and action, each with its own random streams (only useful when "
    "the base strategy is random: expert is deterministic)",
    "iters": "iterations (one sampled world each) per searched decision",
    "c": "UCB exploration constant, in points",
    "base": "the base strategy: plays the searching seat's part of the rollouts and is the guard's "
    "reference (a registered strategy name)",
    "model": "how the other seats are modelled (their worlds and their play in rollouts): table = "
    "by the strategy seated there (who sits where is public, their cards are not), "
    "base = by the base strategy",
    "search": "which decisions to search, joined by '+': take (draw or take the pile), discard, "
    "meld, out (meld-phase decisions with at most 4 cards in hand), all",
    "guard": "leave the base's choice only when the mean paired gain exceeds this many standard "
    "errors (0: play the best mean)",
    "tries": "redraws of an opponent's hidden cards until its model strategy holding them would "
    "have "
    "played its last turn as it did (the draw or take, and the discard; 0: uniform worlds)",
}


def search_rows(name: str) -> list[dict[str, Any]]:
    """Knobs of a search player (pimc, ismcts): default and meaning."""
    from sim.play.search import spec

    defaults = spec.PIMC_DEFAULTS if name == "pimc" else spec.ISMCTS_DEFAULTS

    def values(k: str) -> str:
        if k in spec.RANGES:
            lo, hi = spec.RANGES[k]
            return f"{lo:g} .. {hi:g}"
        return {"base": "a strategy", "model": "table, base", "search": "classes joined by +"}.get(
            k, ""
        )

    return [
        {"knob": k, "default": v, "range": values(k), "meaning": SEARCH_KNOBS.get(k, "")}
        for k, v in defaults.items()
    ]


def plan(name: str) -> tuple[str, str]:
    """(one-line summary, plan text) from the strategy module's docstring."""
    doc = inspect.getdoc(strategy_modules()[name]) or name
    first, _, rest = doc.partition("\n")
    summary = first.split(":", 1)[1].strip() if ":" in first else first
    return summary, rest.strip()


# ----------------------------------------------------------------------------- command


def run(args: argparse.Namespace) -> int:
    import pandas as pd

    from sim.cli.tables import fmt_num, print_table

    mods = strategy_modules()
    names = args.names or [*mods, *SEARCH_PLANS]
    for n in names:
        if n not in mods and n not in SEARCH_PLANS:
            raise ValueError(
                f"unknown strategy {n!r}; known strategies: {', '.join([*mods, *SEARCH_PLANS])}"
            )
    if args.brief:
        print_table(
            pd.DataFrame(
                [
                    {
                        "strategy": n,
                        "knobs": len(search_rows(n)) if n in SEARCH_PLANS else len(knob_rows(n)),
                        "plan": SEARCH_PLANS[n][0] if n in SEARCH_PLANS else plan(n)[0],
                    }
                    for n in names
                ]
            ),
            title="Strategies",
            wrap=("plan",),
        )
        return 0
    for n in names:
        if n in SEARCH_PLANS:
            print(f"== {n}: {SEARCH_PLANS[n][0]}")
            print(SEARCH_PLANS[n][1])
            print_table(
                pd.DataFrame(search_rows(n)),
                title=f"knobs of {n} (set with {n}:knob=value,...)",
                formats={"default": str},
                wrap=("meaning",),
            )
            print()
            continue
        summary, text = plan(n)
        print(f"== {n}: {summary}")
        if text:
            print(text)
        rows = knob_rows(n)
        if rows:
            print_table(
                pd.DataFrame(rows),
                title=f"knobs of {n} (set with {n}:knob=value,...)",
                formats={"default": lambda v: fmt_num(v, 0 if float(v).is_integer() else 2)},
                wrap=("meaning",),
            )
        else:
            print(f"{n} has no knobs.")
        print()
    return 0
