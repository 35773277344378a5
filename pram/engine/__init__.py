"""The engine: what executes a step of the machine, its validation and its accounting.

- :mod:`pram.engine.validate`: a step's ports as words, or a one-line refusal (every rule's
  message, once, for a single machine and a batch alike);
- :mod:`pram.engine.conflicts`: the access models' exclusivity checks and their slow path;
- :mod:`pram.engine.memo`: what one step learns once about its indices (order, ranks);
- :mod:`pram.engine.core`: :class:`~pram.engine.core.Engine`, the one engine: a global step of
  a single machine or of a batch's B instances at once, phases 0 (the fast path) to 5
  (accounting);
- :mod:`pram.engine.instances`: the instance axis (``Machine(batch=B)``): the batch checked,
  its memory's layout and its phase 0; :mod:`pram.engine.checks` a batch's ports,
  :mod:`pram.engine.passes` its loop-test passes.
"""
