"""The C allocator's keeping of large blocks, set once when the first machine is made.

A step's registers and gathers are fresh numpy arrays, megabytes each on a batched machine
(B instances of n cells: 2 MB at B = 64 and n = 4,096, 32 MB at B = 1,024). glibc's malloc
hands blocks over its mmap threshold (128 KB at first, then moved by what was freed last)
straight from the kernel and gives them back when freed, and trims the heap's top once a few
megabytes of it are free: so every step mapped its temporaries afresh and page-faulted them
in, and the time of a run depended on what the process had allocated before (a batched
bitonic sort of 64 instances at n = 4,096 took 0.5 ms or 3 to 5 ms an instance by that
alone). :func:`keep_large_blocks` fixes the three settings instead: blocks up to 1 GiB come
from the heap, which grows by 64 MiB at a time and gives back its top only past 1 GiB free.
A process keeps up to that much freed memory for its next arrays. On a C library without
``mallopt`` (not glibc) it does nothing. No count depends on it.
"""

from __future__ import annotations

import ctypes
import functools
import sys

#: mallopt's parameters (glibc's malloc.h) and the values set.
_SETTINGS = (
    (-3, 1 << 30),  # M_MMAP_THRESHOLD: blocks up to 1 GiB from the heap
    (-1, 1 << 30),  # M_TRIM_THRESHOLD: the heap's top given back past 1 GiB free
    (-2, 1 << 26),  # M_TOP_PAD: the heap grown by 64 MiB at a time
)


@functools.cache
def keep_large_blocks() -> bool:
    """Set glibc's malloc to keep large blocks (see the module), once per process; whether it
    took every setting."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return all(mallopt(parameter, value) == 1 for parameter, value in _SETTINGS)


__all__ = ["keep_large_blocks"]
