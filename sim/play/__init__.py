"""Playing the game: the self-play loop and everything that drives the strategies.

Folders by job, each importing only those above it in this list (tests/test_layers.py):

    selfplay/    the self-play loop, its agent hooks, card logs and status codes
    worlds/      what a seat knows, and worlds dealt from it
    positions/   position files and a running hand as a position
    rollouts/    rollouts from a position and of every candidate action
    search/      search players (pimc, ismcts)
    openspiel/   the OpenSpiel game and bots (optional extra)

and the faces over them: `engine.run_chunk` (a chunk of self-play hands or games as record
arrays), `game.GameState` (one hand step by step), `history` (a readable hand history),
`pyplay` (Python strategies at a table), `specs.check_spec` (any strategy spec); `compile/`
compiles the kernels ahead of time.
"""
