"""Canasta strategy lab: the rules engine (numba core), rule sets and the Python game API."""
