"""Decision models of the learned players (package data: expert.json, see strategies/learned.py)."""
