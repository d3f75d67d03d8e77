"""OpenSpiel (optional extra, ``pip install ".[openspiel]"``).

`game` is the lab's Canasta as the OpenSpiel Python game ``python_canasta_lab``, `bot` seats
OpenSpiel's ISMCTS bot at a lab table (``openspiel-ismcts:sims=1000``), and `pyloop` is the Python
play loop of tables with such a bot.  Only `game` imports OpenSpiel itself; the engine reaches
it only when a table seats a bot.
"""
