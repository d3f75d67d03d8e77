"""Pluggable Canasta strategies (fast numba tier and Python tier)."""
