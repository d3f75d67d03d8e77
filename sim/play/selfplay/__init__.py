"""The self-play loop: deal, ask the strategies, apply, score and log, allocation-free.

`loop` holds the kernels (`play_chunk_nb` plays a chunk of hands or games), `agent` the hooks
through which search players take part, `cardlog` the card columns of decision logs, and
`status` the codes and slots of the status array a kernel reports in.
"""
