"""Canasta strategy lab: the rules engine (numba core), rule sets and the Python game API.

Importing the package first makes sure numba's disk cache of the kernels is not stale
(sim/kernel_cache.py): numba checks only a kernel's own file, not the files of the functions
and constants it compiled in."""

from sim.kernel_cache import refresh_kernel_cache

refresh_kernel_cache()
