"""Laws of a sweep's counts and the verdicts they give on bounds.

- :mod:`pram.laws.law`: a :class:`~pram.laws.law.Law` (terms ``c S^a L^b``, with log log
  factors) and its scale ``L``;
- :mod:`pram.laws.exact`: exact laws with rational coefficients, checked on held-out sizes;
- :mod:`pram.laws.fitting`: least-squares candidates of every leading order;
- :mod:`pram.laws.verdicts` (with :mod:`pram.laws.evidence` and :mod:`pram.laws.readings`):
  holds, exceeded or undetermined along one size, and what it rests on;
- :mod:`pram.laws.bounds`: :func:`~pram.laws.bounds.check` over every size of a sweep, the
  public ``pram.check``.

Nothing is re-exported here: the public names are ``pram.check``, ``pram.Check``,
``pram.Formula`` and ``pram.formula``.
"""
