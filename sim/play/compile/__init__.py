"""Compiling the kernels ahead of time: `warm` compiles what a command needs and tells the user
while it happens; `parallel_warm` shares a cold compile between two processes."""
