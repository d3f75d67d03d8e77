"""Position files: what one seat knows at one decision point, as text a person can type.

`text` is the format with its parser and checks (`parse_position`, `format_position`), `cards`
the card tokens shared by all parts, `samba` the suits, sequences and closed canastas, `last_turn`
other seats' last turns (for model-consistent worlds), and `from_state` a running hand seen from
one seat as a position.
"""
