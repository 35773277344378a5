"""``pram.circuit``, the documented import path of the recorded circuit and its recorder, which
live in :mod:`pram.circuits.circuit`: the public names are re-exported so that code written
against ``pram.circuit`` keeps working (the project's own modules import from
:mod:`pram.circuits.circuit`).
"""

from pram.circuits.circuit import BOOLEAN, KINDS, Circuit, Recorder, Wires, evaluate

__all__ = ["BOOLEAN", "KINDS", "Circuit", "Recorder", "Wires", "evaluate"]
