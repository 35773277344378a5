"""``pram.circuit_io``, the documented import path of the evaluator and the writers, which live in
:mod:`pram.circuits.io`: the public names are re-exported so that code written against
``pram.circuit_io`` keeps working (the project's own modules import from
:mod:`pram.circuits.io`).
"""

from pram.circuits.io import evaluate, to_bristol, to_dot, to_json

__all__ = ["evaluate", "to_bristol", "to_dot", "to_json"]
