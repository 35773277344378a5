"""``pram.oblivious``, the documented import path of access traces and their witnesses, which live
in :mod:`pram.circuits.oblivious`: the public names are re-exported so that code written against
``pram.oblivious`` keeps working (the project's own modules import from
:mod:`pram.circuits.oblivious`).
"""

from pram.circuits.oblivious import Branch, Port, Tee, Trace, Witness, difference

__all__ = ["Branch", "Port", "Tee", "Trace", "Witness", "difference"]
