"""Pluggable Canasta strategies (fast numba tier and Python tier)."""

# the fast player analysis continues with by default (the rollouts of analyze, review, mistakes,
# odds --position and equity; the base of pimc, ismcts and the OpenSpiel bot): one name, so a
# stronger player replaces it in one place once it is measured as a continuation
BASELINE = "expert-v1"
