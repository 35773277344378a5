"""Circuits of oblivious programs (H.7.6): recorded from runs, built by hand, checked, written.

- :mod:`pram.circuits.circuit`: the :class:`~pram.circuits.circuit.Circuit` type and the
  :class:`~pram.circuits.circuit.Recorder` that turns a run into one (its closing passes in
  :mod:`pram.circuits.passes`);
- :mod:`pram.circuits.builder`: the :class:`~pram.circuits.builder.Builder` of hand-made circuits;
- :mod:`pram.circuits.io`: the independent evaluator and the JSON, Bristol Fashion and DOT writers;
- :mod:`pram.circuits.oblivious`: access traces, and the witness that two runs part;
- :mod:`pram.circuits.monoid`: the interval-monoid check that a scan's circuit scans.

The package imports nothing of its modules itself, so importing one of them costs only its own.
"""
