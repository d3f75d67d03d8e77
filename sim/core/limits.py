"""The documented range of every number a user gives (command line and Python API).

Checked before any work starts; a number outside its range is refused in one line
(``CanastaError`` from Python, exit status 2 from the command line).  Why each bound:

- seeds are stored as int64 and hashed as uint64: 0 .. 2**63-1;
- game numbers are int64 keys, and a run's last game index must fit too: 0 .. 2**62;
- hand numbers are int32: 0 .. 2**31-1;
- a run plays 1 .. 10**15 hands or games (chunks are made as workers ask for them, so memory
  does not grow with the count; the bound only keeps every key representable);
- a chunk holds 1 .. 10**6 hands or games (its records are held in memory: about 200 bytes per
  hand, and with full decision logs about 60 bytes per decision);
- compare / sweep play 2 .. 10**8 deals per pairing (two float64 per deal are kept);
- odds --position plays 1 .. 10**7 rollouts (about 22 bytes each are kept);
- cumulative team scores before a hand: -10**8 .. 10**8 (the core's scores are int32);
- worker processes: 1 .. 1024, or negative counts from the number of cores (-1 = all);
  analyze and review split their rollouts over 1 .. 1024 workers (WORKERS);
- analyze and review play 2 .. 10**6 rollouts per legal action (intervals need two; analyze
  keeps 9 bytes per rollout and action, and a decision has up to a few hundred actions);
- review's rollout seed: 0 .. 2**43 (each decision's rollouts use seed * 1_000_003 + its
  index, which must stay a seed);
- equity: grid step 1 .. 10**5 points (and at most 1000 grid points per axis), lowest score of
  the grid within the cumulative-score range, 1 .. 10**7 games per cell;
- tune: a seed of 0 .. 2**63-1 - 10**9 (its re-test plays seed + 10**9), a budget of 1 .. 10**12
  hands, 1 .. 10**4 generations of 2 .. 10**4 candidates, a
  re-test of 2 .. 10**8 deals;
- play --position-at: turn and step 1 .. 10**6 (a hand is refused long before that).
"""

from __future__ import annotations

SEED = (0, 2**63 - 1)
GAME = (0, 2**62)
HAND = (0, 2**31 - 1)
RUN_COUNT = (1, 10**15)
CHUNK = (1, 10**6)
DEALS = (2, 10**8)
GAMES_PER_SEATING = (1, 10**7)
ROLLOUTS = (1, 10**7)
CUM_SCORE = (-(10**8), 10**8)
JOBS = (-1024, 1024)
WORKERS = (1, 1024)
ROLLOUTS_PER_ACTION = (2, 10**6)
EQUITY_STEP = (1, 10**5)
EQUITY_POINTS = 1000
EQUITY_GAMES = (1, 10**7)
TUNE_BUDGET = (1, 10**12)
GENERATIONS = (1, 10**4)
POPSIZE = (2, 10**4)
TEST_DEALS = (2, 10**8)
TURN_STEP = (1, 10**6)
REVIEW_SEED = (0, 2**43)
TUNE_SEED = (0, 2**63 - 1 - 10**9)
