"""Pluggable Canasta strategies (fast numba tier and Python tier)."""

# the fast player analysis continues with by default (the rollouts of analyze, review, mistakes,
# odds --position and equity; the OpenSpiel bot's rollouts): one name, so a stronger player
# replaces it in one place once it is measured as a continuation (the analysis was checked
# against play with expert-v1: benchmarks/bench_calibration.py)
BASELINE = "expert-v1"
# the base of the search players pimc and ismcts: measured among three expert players at
# classic 4p, pimc (32 worlds, every decision) on expert beat pimc on expert-v1 by +372 [+136,
# +608] points per hand at about the same search time (benchmarks/search_curve.py, 2026-12-02)
SEARCH_BASE = "expert"
