"""PRAM programs written against :mod:`pram`'s public API: primitives, sorting networks and
merges, comparators, parallel binary search (Algorithm 10), MQAR (Algorithms 9 and 11) and the
baselines. Between steps a program only computes elementwise in O(1) per processor."""
