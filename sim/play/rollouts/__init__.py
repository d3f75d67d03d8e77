"""Rollouts: hands played out from what one seat knows.

`from_position` plays a position out many times (``canasta odds --position``), `actions` plays
every candidate action at one decision with common random numbers (``canasta analyze``); both
deal the unseen cards with `sim.play.worlds.sampler`, so no strategy sees a card its seat could
not.
"""
