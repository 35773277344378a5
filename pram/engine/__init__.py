"""The engine: what executes a step of the machine, its validation and its accounting.

- :mod:`pram.engine.validate`: a step's ports as words, or a one-line refusal (every rule's
  message, once, for a single machine and a batch alike);
- :mod:`pram.engine.conflicts`: the access models' exclusivity checks and their slow path;
- :mod:`pram.engine.memo`: what one step learns once about its indices (order, ranks);
- :mod:`pram.engine.core`: :class:`~pram.engine.core.Engine`, one global step of a single
  machine, phases 0 (the fast path) to 5 (accounting);
- :mod:`pram.engine.batched`: the instance axis (``Machine(batch=B)``), applying the same
  rules to B instances at once.
"""
