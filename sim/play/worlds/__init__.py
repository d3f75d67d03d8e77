"""What a seat knows, and worlds dealt from it.

`knowledge` keeps what a seat knows beyond its observation, from public information only;
`deal` deals the unseen cards uniformly over the places the seat cannot see; `infer` deals
model-consistent worlds (hidden hands that agree with what their holders did); `sampler` is the
face the rest of the engine uses (`sample_worlds_nb`, and the names of the other three).
"""
