"""Synthetic stand-ins for the game core: a fake ``run_chunk`` and a fake run folder.

Used by the tests, the report benchmark and demos while the real engine is being written.
The numbers are random but keep the shapes and columns of docs/DATA.md and the structured
dtypes of sim.core.enums, so code written against them works unchanged on real runs.

Score model of ``fake_run_chunk`` (hands mode): every seat gets a "deal luck" drawn from a
generator keyed by (seed, game, hand) only -- so the same deal gives the same luck to the same
seat whatever the strategies (that is what duplicate deals cancel) -- and a team scores the
sum of its seats' luck plus its strategies' skill plus small per-seating noise.
Skills: ``SKILL`` by name (unknown names 0); a spec ``tunable:open_threshold=T,...`` has skill
``-(T - 90)**2 / 20`` (best at T = 90) plus 5 * freeze_when if given.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from sim.core.enums import MAX_TEAMS, Act, decision_record_dt, game_record_dt, hand_record_dt
from sim.core.rules import RuleSet

SKILL = {"expert": 60.0, "greedy": 0.0, "cautious": 25.0, "random": -150.0}


def fake_rules(players: int = 4, name: str = "classic") -> RuleSet:
    """The rule set the fake engine plays under (only its seats and teams matter to it)."""
    return RuleSet.preset(name, players=players)


def skill(spec: str) -> float:
    name, _, knobs = spec.partition(":")
    s = SKILL.get(name, 0.0)
    if knobs:
        kv = dict(item.split("=") for item in knobs.split(","))
        if "open_threshold" in kv:
            s += -((float(kv["open_threshold"]) - 90.0) ** 2) / 20.0
        s += 5.0 * float(kv.get("freeze_when", 0))
    return s


def _key_rng(*parts) -> np.random.Generator:
    return np.random.default_rng([int(p) & 0xFFFFFFFF for p in parts])


def _hash(text: str) -> int:
    return zlib.crc32(text.encode())


def fake_run_chunk(rules, strategies, seed, start, count, mode="hands", log_rate=0.0, check=False):
    """DATA.md-shaped fake of sim.play.engine.run_chunk (no decisions are logged)."""
    teams = list(rules.team_of_seat)[: rules.players]
    if len(strategies) != rules.players:
        raise ValueError("one strategy per seat")
    sk = np.array([skill(s) for s in strategies])
    # play noise keyed by what the strategies do (their skills), as in the engine, where a knob
    # that changes no decision changes nothing
    strat_h = _hash("|".join(f"{skill(s):.9g}" for s in strategies))
    hands_out, games_out = [], []
    for g in range(start, start + count):
        n_hands = 1
        if mode == "games":
            n_hands = 3 + int(_key_rng(seed, g, 999).integers(0, 4))
        final = np.zeros(MAX_TEAMS, np.int64)
        for h in range(n_hands):
            luck = _key_rng(seed, g, h).normal(0, 300, size=len(teams))
            noise = _key_rng(seed, g, h, strat_h).normal(0, 60, size=len(teams))
            rec = np.zeros(1, hand_record_dt)
            rec["seed"], rec["game"], rec["hand"] = seed, g, h
            for s, t in enumerate(teams):
                rec["score"][0, t] += int(round(luck[s] + sk[s] + noise[s]))
            rec["cum_before"][0] = final
            final += rec["score"][0]
            hands_out.append(rec)
        if mode == "games":
            gr = np.zeros(1, game_record_dt)
            gr["seed"], gr["game"], gr["hands"] = seed, g, n_hands
            gr["final"][0] = final
            nt = len(set(teams))
            best = final[:nt]
            gr["winner_team"] = -1 if (best == best.max()).sum() > 1 else int(best.argmax())
            games_out.append(gr)
    hands = np.concatenate(hands_out) if hands_out else np.zeros(0, hand_record_dt)
    games = np.concatenate(games_out) if games_out else np.zeros(0, game_record_dt)
    return SimpleNamespace(hands=hands, games=games, decisions=np.zeros(0, decision_record_dt))


# ----------------------------------------------------------------------------- run folders


def _hands_frame(rng, n, seed, players, strategies, rules_name, skill_of_team):
    n_teams = 2 if players in (2, 4, 6) else 3
    team_of_seat = [s % n_teams for s in range(players)]
    df = pd.DataFrame({"seed": np.full(n, seed, np.int64), "game": np.arange(n, dtype=np.int64)})
    df["hand"] = np.zeros(n, np.int32)
    df["rules"] = rules_name
    df["players"] = np.int8(players)
    for s in range(players):
        df[f"strategy_s{s}"] = strategies[team_of_seat[s] % len(strategies)]
    df["dealer"] = (df["game"] % players).astype(np.int8)
    # end reason: mostly going out, some exhausted stock, rare red-three-last
    end = rng.choice([1, 2, 3], size=n, p=[0.86, 0.12, 0.02]).astype(np.int8)
    strength = np.array([skill_of_team[t] for t in range(n_teams)])
    p_team = np.exp(strength / 60.0)
    p_team /= p_team.sum()
    wteam = rng.choice(n_teams, size=n, p=p_team)
    per_team = np.array([team_of_seat.count(t) for t in range(n_teams)])
    wseat = wteam + n_teams * np.floor(rng.random(n) * per_team[wteam]).astype(int)
    went = end == 1
    df["end_reason"] = end
    df["went_out_seat"] = np.where(went, wseat, -1).astype(np.int8)
    df["went_out_team"] = np.where(went, wteam, -1).astype(np.int8)
    df["concealed"] = (went & (rng.random(n) < 0.04 + 0.03 * (wteam == 0))).astype(np.int8)
    turns = np.where(end == 1, rng.gamma(6.0, 6.0, n) + 8, rng.normal(120, 10, n))
    df["turns"] = np.clip(turns, 4, 300).astype(np.int16)
    df["decisions"] = (df["turns"] * 2.6).astype(np.int32)
    for t in range(n_teams):
        out = df["went_out_team"].to_numpy() == t
        canastas = rng.poisson(1.2 + 0.3 * (strength[t] > 0) + out, n).astype(np.int8)
        nat = np.minimum(canastas, rng.binomial(canastas, 0.35)).astype(np.int8)
        red3 = rng.binomial(4 * (players // 2), 0.12, n).astype(np.int8)
        opened = (rng.random(n) < 0.93 + 0.05 * out).astype(np.int8)
        meld = (rng.gamma(3.0, 60.0, n) * opened).astype(np.int32) // 5 * 5
        cbonus = (nat.astype(np.int32) * 500 + (canastas - nat).astype(np.int32) * 300).astype(
            np.int32
        )
        r3 = np.where(red3 == 4, 800, red3.astype(np.int32) * 100) * np.where(opened == 1, 1, -1)
        gob = np.where(out, np.where(df["concealed"] == 1, 200, 100), 0)
        pen = np.where(out, 0, rng.gamma(2.0, 40.0, n)).astype(np.int32) // 5 * 5
        df[f"score_t{t}"] = (meld + cbonus + r3 + gob - pen).astype(np.int32)
        df[f"meld_points_t{t}"] = meld
        df[f"canasta_bonus_t{t}"] = cbonus
        df[f"red3_points_t{t}"] = r3.astype(np.int32)
        df[f"go_out_bonus_t{t}"] = gob.astype(np.int32)
        df[f"hand_penalty_t{t}"] = pen
        df[f"canastas_t{t}"] = canastas
        df[f"natural_canastas_t{t}"] = nat
        df[f"red3_t{t}"] = red3
        df[f"opened_t{t}"] = opened
        df[f"pile_takes_t{t}"] = rng.poisson(2.0 + (strength[t] > 0), n).astype(np.int16)
        df[f"cum_before_t{t}"] = np.zeros(n, np.int32)
    return df, team_of_seat, n_teams


def _decisions_frame(rng, hands: pd.DataFrame, players, team_of_seat, n_teams, log_rate):
    cols = {name: [] for name in decision_record_dt.names}
    cols.update(score_us=[], score_them=[], went_out_us=[])
    logged = hands[rng.random(len(hands)) < log_rate]
    for row in logged.itertuples(index=False):
        T = int(row.turns)
        seats = (int(row.dealer) + 1 + np.arange(T)) % players
        team = np.array(team_of_seat)[seats]
        k = rng.integers(2, 4, size=T)  # decisions per turn: draw, [meld], discard
        turn_i = np.repeat(np.arange(T), k)
        seat_i = np.repeat(seats, k)
        team_i = np.repeat(team, k)
        pos = np.concatenate([np.arange(x) for x in k])
        last = pos == np.repeat(k - 1, k)
        dtype = np.where(pos == 0, 0, np.where(last, 3, 1))
        took = rng.random(len(pos)) < 0.15
        action = np.where(
            dtype == 0,
            np.where(took, Act.TAKE_PAIR, Act.DRAW),
            np.where(dtype == 3, Act.DISCARD + rng.integers(0, 14, len(pos)), Act.MELD),
        )
        frac = turn_i / max(T, 1)
        hs = np.clip(11 + rng.integers(-3, 4, len(pos)) - (frac * 8 * (row.end_reason == 1)), 0, 30)
        sc = {t: getattr(row, f"score_t{t}") for t in range(n_teams)}
        can = {t: getattr(row, f"canastas_t{t}") for t in range(n_teams)}
        cols["seed"].append(np.full(len(pos), row.seed))
        cols["game"].append(np.full(len(pos), row.game))
        cols["hand"].append(np.full(len(pos), row.hand))
        cols["turn"].append(turn_i)
        cols["seat"].append(seat_i)
        cols["team"].append(team_i)
        cols["decision_type"].append(dtype)
        cols["action"].append(action)
        cols["n_legal"].append(rng.integers(1, 20, len(pos)))
        cols["hand_size"].append(hs)
        cols["pile_size"].append(rng.integers(0, 30, len(pos)))
        cols["pile_frozen"].append((rng.random(len(pos)) < 0.2).astype(int))
        cols["team_opened"].append((frac > 0.2).astype(int))
        cols["opp_opened"].append((frac > 0.25).astype(int))
        cols["canastas_us"].append(np.floor(frac * np.array([can[t] for t in team_i])))
        cols["canastas_them"].append(
            np.floor(
                frac * np.array([can[1 - t if n_teams == 2 else (t + 1) % n_teams] for t in team_i])
            )
        )
        cols["next_opp_hand_size"].append(hs)
        cols["min_opp_hand_size"].append(hs)
        cols["stock_size"].append(np.clip(60 - turn_i, 0, None))
        cols["cum_us"].append(np.zeros(len(pos)))
        cols["cum_them"].append(np.zeros(len(pos)))
        cols["pending_value"].append(np.zeros(len(pos)))
        us = np.array([sc[t] for t in team_i])
        them = np.array([max(sc[u] for u in range(n_teams) if u != t) for t in team_i])
        cols["score_us"].append(us)
        cols["score_them"].append(them)
        cols["went_out_us"].append((team_i == row.went_out_team).astype(int))
    out = {}
    rows = sum(len(p) for p in cols["seed"])
    for name, parts in cols.items():
        # a declared column this fake does not model (sim.core.enums.DECISION_COLUMNS): zeros
        arr = np.concatenate(parts) if parts else np.zeros(rows)
        dt = decision_record_dt.fields[name][0] if name in decision_record_dt.names else np.int32
        out[name] = arr.astype(dt)
    return pd.DataFrame(out)


def make_run(
    path,
    n_hands: int = 3000,
    strategies=("expert", "greedy"),
    players: int = 4,
    seed: int = 0,
    log_rate: float = 0.2,
    decisions: bool = True,
    games: bool = True,
    shards: int = 3,
    rules_name: str = "classic",
) -> Path:
    """Write a synthetic run folder (manifest.json + parquet shards per table)."""
    path = Path(path)
    rng = np.random.default_rng(seed)
    skill_of_team = {t: skill(strategies[t % len(strategies)]) for t in range(3)}
    hands, team_of_seat, n_teams = _hands_frame(
        rng, n_hands, seed, players, list(strategies), rules_name, skill_of_team
    )
    tables = {"hands": hands}
    if decisions:
        tables["decisions"] = _decisions_frame(rng, hands, players, team_of_seat, n_teams, log_rate)
    if games:
        g = hands.groupby(hands["game"] // 5)
        gdf = pd.DataFrame({"seed": seed, "game": g["game"].first() // 5, "hands": g.size()})
        for t in range(n_teams):
            gdf[f"final_t{t}"] = g[f"score_t{t}"].sum().to_numpy()
        finals = gdf[[f"final_t{t}" for t in range(n_teams)]].to_numpy()
        gdf["winner_team"] = finals.argmax(axis=1)
        gdf["capped"] = 0
        tables["games"] = gdf.reset_index(drop=True)
    path.mkdir(parents=True, exist_ok=True)
    for name in ("hands", "decisions", "games", "done"):
        (path / name).mkdir(exist_ok=True)
    for i in range(shards):  # chunk i = games i*size.. ; every chunk writes all three shards
        rows = {}
        for name in ("hands", "decisions", "games"):
            df = tables.get(name)
            if df is None:
                df = pd.DataFrame({"seed": np.zeros(0, np.int64)})
            part = np.array_split(np.arange(len(df)), shards)[i]
            df.iloc[part].to_parquet(path / name / f"part-{i:06d}.parquet", index=False)
            rows[name] = len(part)
        (path / "done" / f"{i:06d}").write_text(json.dumps({"rows": rows}))
    manifest = {
        "format": "canasta-run",
        "version": 1,
        "n_chunks": shards,
        "total": n_hands,
        "chunk_size": -(-n_hands // shards),
        "log_decisions": log_rate if decisions else 0.0,
        "n_teams": n_teams,
        "rules": rules_name,
        "players": players,
        "strategies": list(strategies),
        "team_of_seat": team_of_seat,
        "seed": seed,
        "hands": n_hands,
        "mode": "hands",
        "synthetic": True,
        "created": "synthetic",
    }
    (path / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return path
