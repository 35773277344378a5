"""The best known sorting networks for n = 1..16 inputs: published comparator lists, as data.

Each entry is the comparator list of a network of the smallest size known for its n (the
published record, below), in the order its source lists them (layer by layer); a comparator
``(i, j)`` with ``i < j`` leaves the smaller key on wire ``i``. The programs never trust the
table: :mod:`pram.algorithms.comparator_networks` runs every list on the machine and the tests
check each one on all 2^n inputs of 0s and 1s (the zero-one principle, Knuth 5.3.4 Theorem Z).

Sources of the lists:

- n = 1..5 and 16: the networks of Knuth, *The Art of Computer Programming* vol. 3 (2nd ed.,
  1998), section 5.3.4 (for 16, Green's 60-comparator network), as listed in the
  public Julia package SortingNetworks.jl (J. Sarnoff, ``src/swapsort.jl``, selected with J.
  Gamble's Algorithm::Networksort);
- n = 6..15: B. Dobbelaere, "Smallest and fastest sorting networks for a given number of
  inputs" (bertdobbelaere.github.io/sorting_networks.html), the networks named there
  ``6: 12 CEs, 5 layers`` ... ``15: 56 CEs, 10 layers``.

The published record they reproduce (:data:`PUBLISHED`): the smallest known sizes
0, 1, 3, 5, 9, 12, 16, 19, 25, 29, 35, 39, 45, 51, 56, 60 (Knuth 5.3.4; optimal for n <= 10
by Codish, Cruz-Filipe, Frank and Schneider-Kamp, "Twenty-five comparators is optimal when
sorting nine inputs (and twenty-nine for ten)", ICTAI 2014, and for 11 and 12 by Harder,
"An answer to the bose-nelson sorting problem for 11 and 12 channels", 2020), with the depths
of those networks 0, 1, 3, 3, 5, 5, 6, 6, 7, 8, 8, 9, 10, 10, 10, 10 (Dobbelaere's list).
"""

from __future__ import annotations

#: A comparator network: comparators ``(i, j)``, ``i < j``, in the order they act.
Comparators = tuple[tuple[int, int], ...]

#: The published smallest known size of a sorting network on n inputs, and the depth of the
#: network of that size listed here, by n (the sources are in the module's docstring).
PUBLISHED: dict[int, tuple[int, int]] = {
    1: (0, 0), 2: (1, 1), 3: (3, 3), 4: (5, 3), 5: (9, 5), 6: (12, 5), 7: (16, 6), 8: (19, 6),
    9: (25, 7), 10: (29, 8), 11: (35, 8), 12: (39, 9), 13: (45, 10), 14: (51, 10),
    15: (56, 10), 16: (60, 10),
}

#: The comparator lists, by n.
BEST_KNOWN: dict[int, Comparators] = {
    1: (),
    2: ((0, 1),),
    3: ((1, 2), (0, 2), (0, 1)),
    4: ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)),
    5: ((1, 2), (3, 4), (1, 3), (0, 2), (2, 4), (0, 3), (0, 1), (2, 3), (1, 2)),
    6: (
        (0, 5), (1, 3), (2, 4), (1, 2), (3, 4), (0, 3), (2, 5), (0, 1), (2, 3), (4, 5), (1, 2),
        (3, 4)
    ),
    7: (
        (0, 6), (2, 3), (4, 5), (0, 2), (1, 4), (3, 6), (0, 1), (2, 5), (3, 4), (1, 2), (4, 6),
        (2, 3), (4, 5), (1, 2), (3, 4), (5, 6)
    ),
    8: (
        (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7), (0, 1), (2, 3), (4, 5),
        (6, 7), (2, 4), (3, 5), (1, 4), (3, 6), (1, 2), (3, 4), (5, 6)
    ),
    9: (
        (0, 3), (1, 7), (2, 5), (4, 8), (0, 7), (2, 4), (3, 8), (5, 6), (0, 2), (1, 3), (4, 5),
        (7, 8), (1, 4), (3, 6), (5, 7), (0, 1), (2, 4), (3, 5), (6, 8), (2, 3), (4, 5), (6, 7),
        (1, 2), (3, 4), (5, 6)
    ),
    10: (
        (0, 8), (1, 9), (2, 7), (3, 5), (4, 6), (0, 2), (1, 4), (5, 8), (7, 9), (0, 3), (2, 4),
        (5, 7), (6, 9), (0, 1), (3, 6), (8, 9), (1, 5), (2, 3), (4, 8), (6, 7), (1, 2), (3, 5),
        (4, 6), (7, 8), (2, 3), (4, 5), (6, 7), (3, 4), (5, 6)
    ),
    11: (
        (0, 9), (1, 6), (2, 4), (3, 7), (5, 8), (0, 1), (3, 5), (4, 10), (6, 9), (7, 8), (1, 3),
        (2, 5), (4, 7), (8, 10), (0, 4), (1, 2), (3, 7), (5, 9), (6, 8), (0, 1), (2, 6), (4, 5),
        (7, 8), (9, 10), (2, 4), (3, 6), (5, 7), (8, 9), (1, 2), (3, 4), (5, 6), (7, 8), (2, 3),
        (4, 5), (6, 7)
    ),
    12: (
        (0, 8), (1, 7), (2, 6), (3, 11), (4, 10), (5, 9), (0, 1), (2, 5), (3, 4), (6, 9), (7,
        8), (10, 11), (0, 2), (1, 6), (5, 10), (9, 11), (0, 3), (1, 2), (4, 6), (5, 7), (8, 11),
        (9, 10), (1, 4), (3, 5), (6, 8), (7, 10), (1, 3), (2, 5), (6, 9), (8, 10), (2, 3), (4,
        5), (6, 7), (8, 9), (4, 6), (5, 7), (3, 4), (5, 6), (7, 8)
    ),
    13: (
        (0, 12), (1, 10), (2, 9), (3, 7), (5, 11), (6, 8), (1, 6), (2, 3), (4, 11), (7, 9), (8,
        10), (0, 4), (1, 2), (3, 6), (7, 8), (9, 10), (11, 12), (4, 6), (5, 9), (8, 11), (10,
        12), (0, 5), (3, 8), (4, 7), (6, 11), (9, 10), (0, 1), (2, 5), (6, 9), (7, 8), (10, 11),
        (1, 3), (2, 4), (5, 6), (9, 10), (1, 2), (3, 4), (5, 7), (6, 8), (2, 3), (4, 5), (6, 7),
        (8, 9), (3, 4), (5, 6)
    ),
    14: (
        (0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13), (0, 2), (1, 3), (4, 8), (5,
        9), (10, 12), (11, 13), (0, 4), (1, 2), (3, 7), (5, 8), (6, 10), (9, 13), (11, 12), (0,
        6), (1, 5), (3, 9), (4, 10), (7, 13), (8, 12), (2, 10), (3, 11), (4, 6), (7, 9), (1, 3),
        (2, 8), (5, 11), (6, 7), (10, 12), (1, 4), (2, 6), (3, 5), (7, 11), (8, 10), (9, 12),
        (2, 4), (3, 6), (5, 8), (7, 10), (9, 11), (3, 4), (5, 6), (7, 8), (9, 10), (6, 7)
    ),
    15: (
        (1, 2), (3, 10), (4, 14), (5, 8), (6, 13), (7, 12), (9, 11), (0, 14), (1, 5), (2, 8),
        (3, 7), (6, 9), (10, 12), (11, 13), (0, 7), (1, 6), (2, 9), (4, 10), (5, 11), (8, 13),
        (12, 14), (0, 6), (2, 4), (3, 5), (7, 11), (8, 10), (9, 12), (13, 14), (0, 3), (1, 2),
        (4, 7), (5, 9), (6, 8), (10, 11), (12, 13), (0, 1), (2, 3), (4, 6), (7, 9), (10, 12),
        (11, 13), (1, 2), (3, 5), (8, 10), (11, 12), (3, 4), (5, 6), (7, 8), (9, 10), (2, 3),
        (4, 5), (6, 7), (8, 9), (10, 11), (5, 6), (7, 8)
    ),
    16: (
        (0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13), (14, 15), (0, 2), (4, 6),
        (8, 10), (12, 14), (1, 3), (5, 7), (9, 11), (13, 15), (0, 4), (8, 12), (1, 5), (9, 13),
        (2, 6), (10, 14), (3, 7), (11, 15), (0, 8), (1, 9), (2, 10), (3, 11), (4, 12), (5, 13),
        (6, 14), (7, 15), (5, 10), (6, 9), (3, 12), (13, 14), (7, 11), (1, 2), (4, 8), (1, 4),
        (7, 13), (2, 8), (11, 14), (5, 6), (9, 10), (2, 4), (11, 13), (3, 8), (7, 12), (6, 8),
        (10, 12), (3, 5), (7, 9), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (6, 7), (8, 9)
    ),
}

__all__ = ["BEST_KNOWN", "PUBLISHED", "Comparators"]
