"""The table: a local web app where people play Canasta against the lab's players.

Layers inside the package (each module does one thing):

- ``settings``  a new table's settings from the new-game form, checked (one-line errors)
- ``bots``      one bot decision (compiled strategies and search players), deterministic
- ``model``     the game model: the engine's GameState of the hand being played, its actions,
                the hands of a whole game, undo, the version counter that keeps tabs consistent
- ``view``      the JSON a seat receives, built only from what that seat may see; the replay
- ``hints``     hints and the tutor: analyze's rollouts from the seat's knowledge, in a thread
- ``reviews``   the review of the human seats' decisions once a hand is over
- ``equity``    P(win the game) beside the score
- ``records``   a hand as the project's hand record and as JSON, and back
- ``store``     SQLite persistence (games, hands, reviews)
- ``hub``       the running tables, their bot drivers and background jobs
- ``app``       the ASGI app (Starlette): routes, error handling, static files

Nothing in the core (sim.core, strategies, sim.play, sim.runs, reports) imports this package; it
needs the optional extra ``pip install ".[table]"`` (Starlette, uvicorn).
"""
