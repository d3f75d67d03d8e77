"""Search players: players that look ahead by playing hands out in sampled worlds.

They live above the strategies layer (they drive strategies in rollouts) and are played by their own
loop (`sim.play.search.loop`), which keeps what each searching seat knows
(`sim.play.worlds.sampler.Know`).  `sim.play.engine.run_chunk` sends a chunk there as soon as one
seat's strategy is a search player (`pimc`, `ismcts`; see `sim.play.search.spec`).
"""
