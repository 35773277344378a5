"""Normalising and checking ports with an instance axis: :class:`Checks`, the part of phases
1 and 2 of :class:`pram.engine.core.Engine` that takes a batch's ports (indices, values and
masks one row per instance or shared), with the single machine's refusals
(:mod:`pram.engine.validate`) and slow path (:mod:`pram.engine.conflicts`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

from pram._held import cells_of as _cells_of
from pram._held import cost_of as _cost_of
from pram._held import owners_of as _owners_of
from pram._held import raw_of as _raw_of
from pram._held import resolutions_of as _resolutions_of
from pram._held import violations_of as _violations_of
from pram._numpy import np
from pram.engine import conflicts, refusals, validate
from pram.engine.memo import Scratch
from pram.engine.refusals import refuse_array
from pram.engine.rows import both, chosen_rows, of_instance, root, two_meet
from pram.engine.views import (
    BatchPort,
    Draw,
    InstancePort,
    InstanceRow,
    ManyPort,
    Together,
    apart,
    no_choice,
)
from pram.errors import (
    ConflictError,
    HonestyError,
    StepError,
)
from pram.memory import WORD, Array, Flags, Words
from pram.models import Arbitrary
from pram.registers import THROUGH_MEMORY, Register
from pram.registers.ids import Chosen, same_choice, same_processors
from pram.step import Read, Step, Write

if TYPE_CHECKING:
    from pram.engine.core import Host
    from pram.engine.ledgers import Ledgers
    from pram.engine.passes import Passes

Counts = npt.NDArray[np.int64]


__all__ = ["Checks"]


class Checks:
    """Phases 1 (normalise) and 2 (check) of a step, for a batch's ports."""

    __slots__ = ()
    host: Host
    scratch: Scratch

    passes: Passes | None

    @property
    def ledgers(self) -> Ledgers:
        """A batch's ledgers, one per instance (its passes')."""
        passes = self.passes
        assert passes is not None  # a batch's engine
        return passes.ledgers

    # ---- 1. normalise ----------------------------------------------------------------------

    def _normalise(self, steps: Sequence[Step], number: int, alive: Flags | None
                   ) -> tuple[list[BatchPort], int, list[int | Counts],
                              list[tuple[Words, Flags | None]]]:
        """Validate every port of the global step ``steps``: its ports (the instances that
        idle, not ``alive``, masked out), the processors ranked, each branch's processors
        acting (one count, or one per instance) and each branch's ids with their rows of
        flags (processors chosen by data)."""
        host = self.host
        ports: list[BatchPort] = []
        actors: list[int | Counts] = []
        members: list[tuple[Words, Flags | None]] = []
        ranked = 0
        for branch, step in enumerate(steps):
            pid = validate.processors_of(step, number)
            validate.this_run(step.reads, step.writes, number, host._token)
            refusals.accesses(step.reads, step.writes, number)
            rows = chosen_rows(pid)
            plain: Words = pid.view(np.ndarray) if type(pid) is Chosen else pid
            actors.append(len(plain) if rows is None
                          else np.count_nonzero(rows, axis=1).astype(np.int64))
            members.append((plain, rows))
            for read in step.reads:
                refusals.read_object(read, number)
                ports.append(self._port(step, branch, ranked, pid, plain, rows, read, None,
                                        number))
            for write in step.writes:
                refusals.write_object(write, number)
                ports.append(self._port(step, branch, ranked, pid, plain, rows, write,
                                        write.value, number))
            ranked += len(plain)
        if alive is not None:  # an idle instance takes no access
            batch = self.ledgers.batch
            for port in ports:
                idle = np.broadcast_to(alive[:, None], (batch, len(port.pid)))
                port.where = idle if port.where is None else port.where & idle
        return ports, ranked, actors, members

    def _port(self, step: Step, branch: int, rank: int, pid: Words, plain: Words,
              rows: Flags | None, access: Read | Write, value: Any, number: int) -> BatchPort:
        array = access.array
        if type(array) is not Array or self.host.arrays.get(array.name) is not array:
            refuse_array(array, number)
        n = len(plain)
        where: Flags | None = rows
        if access.where is not None:
            mask, held = self._operand(access.where, pid, plain, "the where mask of an access to",
                                       array, number)
            if type(mask) is not np.ndarray or mask.dtype != np.bool_ \
                    or mask.shape[-1:] != (n,):
                refusals.refuse_mask(mask, n, number, array)
            where = both(both(where, mask), held)
        shape: tuple[int, ...] = getattr(array, "shape", (array.size,))
        key: Any = access.index
        parts = key if type(key) is tuple else (key,)
        if (type(key) is tuple) != (len(shape) == 2) or len(parts) != len(shape):
            refusals.refuse_key(array, number)
        axes = []
        for part in parts:
            index, held = self._operand(part, pid, plain, "the index into", array, number)
            where = both(where, held)
            axes.append(self._cells_of(index, n, array, number))
        if len(axes) == 2:
            self._check_pair(axes[0], axes[1], shape, where, plain, array, step, number,
                             value is not None)
            index = axes[0] * shape[1] + axes[1]
        else:
            index = axes[0]
        if value is not None:
            # Words of the step's own processors written to reals stay words until stored,
            # as on a single machine (pram.engine.validate.value): the model judges and records
            # the values written, 1 not 1.0.
            words = (type(value) is Register and _owners_of(value) is pid) or \
                type(value) is np.ndarray
            value, held = self._operand(value, pid, plain, "the value written to", array,
                                        number)
            where = both(where, held)
            value = self._value_of(value, n, array, number, words)
        return BatchPort(step, branch, rank, plain, array, index, where, value)

    @staticmethod
    def _cells_of(index: Any, n: int, array: Array, number: int) -> Words:
        """One index per processor (shared, or one row per instance) as words."""
        if isinstance(index, np.ndarray):
            if index.dtype.kind not in "iu" or index.shape[-1:] != (n,):
                refusals.refuse_index(index, n, number, array)
            return index.astype(np.int64, copy=False)
        if isinstance(index, float):
            refusals.refuse_index(index, n, number, array)
        return np.full(n, index, dtype=np.int64)

    @staticmethod
    def _value_of(value: Any, n: int, array: Array, number: int, words: bool = False) -> Any:
        """A port's values as the array's dtype: int64 words (reals refused, never cut) or
        float64 reals (integers taken as the reals they are; int64 words given as a register
        of the step's processors or a plain array, ``words``, kept as words until stored)."""
        real = _cells_of(array).dtype == np.float64
        if isinstance(value, np.ndarray):
            if value.dtype.kind == "f" and not real:
                refusals.reals_into_words(value, number, array)
            if value.dtype.kind not in ("iubf" if real else "iub") or value.shape[-1:] != (n,):
                kind = "a numeric" if real else "an integer"
                raise StepError(
                    f"value written to {array.name} in step {number} must be {kind} array of "
                    f"shape ({n},) or one {'number' if real else 'integer'} (got "
                    f"{refusals.describe(value)})",
                    number,
                )
            if real and words and value.dtype == WORD:
                return value
            return value.astype(_cells_of(array).dtype, copy=False)
        if isinstance(value, float):
            if not real:
                refusals.reals_into_words(value, number, array)
            return value
        return float(value) if real else value

    def _check_pair(self, i: Words, j: Words, shape: tuple[int, ...], where: Flags | None,
                    pid: Words, array: Array, step: Step, number: int, write: bool) -> None:
        """Refuse a pair outside a two-dimensional array's shape, each axis on its own."""
        rows, columns = shape
        outside = (i < 0) | (i >= rows) | (j < 0) | (j >= columns)
        if where is not None:
            outside = outside & where
        if not outside.any():
            return
        full = np.broadcast_to(outside, (self.ledgers.batch, outside.shape[-1]))
        k, bad = (int(x) for x in np.argwhere(full)[0])
        row = int(i[bad] if i.ndim == 1 else i[k, bad])
        column = int(j[bad] if j.ndim == 1 else j[k, bad])
        refusals.outside_shape(int(pid[bad]), "write" if write else "read", array, row, column,
                                self.ledgers.time(k) + 1, step.phase, instance=k)

    def _operand(self, x: Any, pid: Words, plain: Words, what: str, array: Array,
                 number: int) -> tuple[Any, Flags | None]:
        """An index, value or mask as raw values (and, for a register of another selection of
        the step's processors, the flags of who holds it)."""
        if type(x) is Register:
            owners = _owners_of(x)
            if owners is pid:
                return _raw_of(x), None
            if (chosen_rows(owners) is not None and chosen_rows(pid) is not None \
                    and root(owners) is root(pid)) or (
                        chosen_rows(owners) is not None and chosen_rows(pid) is not None
                        and same_choice(root(owners), root(pid))):
                return _raw_of(x), chosen_rows(owners)
            if type(owners) is not Chosen and type(pid) is not Chosen \
                    and same_processors(owners, pid):
                return _raw_of(x), None
            raise HonestyError(
                f"{what} {array.name} in step {number} is a register of other processors than "
                f"the step's (or in another order); {THROUGH_MEMORY}"
            )
        if isinstance(x, np.ndarray):
            if type(pid) is Chosen:
                validate.opaque(x, pid, number, what, array)
            if x.ndim != 1:
                raise StepError(
                    f"{what} {array.name} in step {number} is a plain array of shape {x.shape}; "
                    "a batch shares plain arrays (computed from sizes) between its instances: "
                    "pass one entry per processor, and per-instance data through memory",
                    number,
                )
            return x, None
        if isinstance(x, float | np.floating) and _cells_of(array).dtype == np.float64 \
                and what == "the value written to":
            return float(x), None
        if isinstance(x, int | np.integer) and not isinstance(x, bool):
            if not validate.word_constant(int(x)):
                if what == "the index into":
                    refusals.too_wide_index(int(x), number, array)
                refusals.too_wide(f"value written to {array.name}", int(x), number)
            return int(x), None
        raise StepError(
            f"{what} {array.name} in step {number} must be a register, an integer array or one "
            f"integer (got {refusals.describe(x)})",
            number,
        )

    # ---- 2. check --------------------------------------------------------------------------

    def _check_chosen(self, steps: Sequence[Step], number: int) -> None:
        """Refuse a processor listed twice among the processors acting in one instance, when
        some of them chose themselves by data (a batch keeps the full width of a selection,
        so the ids listed are compared only where they act)."""
        batch = self.ledgers.batch
        ids = np.concatenate([s.processors.view(np.ndarray).astype(np.int64, copy=False)
                              for s in steps])
        acting = np.concatenate([
            np.ones((batch, len(s.processors)), np.bool_) if chosen_rows(s.processors) is None
            else chosen_rows(s.processors) for s in steps], axis=1)
        twice = two_meet(np.broadcast_to(ids, acting.shape), np.zeros(len(ids), np.int64),
                          1, acting, same=True)
        if not twice.any():
            return
        i = int(np.flatnonzero(twice)[0])
        mine = np.sort(ids[acting[i]])
        pid = int(mine[np.flatnonzero(mine[1:] == mine[:-1])[0]])
        try:
            conflicts.acts_twice(pid, [s for s, a in zip(steps, np.split(
                acting[i], np.cumsum([len(s.processors) for s in steps])[:-1]), strict=True)
                if a.any()], number)
        except StepError as error:
            raise StepError(f"instance {i}: {error}", number, instance=i) from None

    def _met_and_resolved(self, group: list[BatchPort], ranked: int, alive: Flags | None,
                          steps: Sequence[Step]) -> dict[int, tuple[Words, Words]] | None:
        """The writes to ``group``'s array the model resolved, by instance, in the instances
        where two processors met at a cell (None: they met in none)."""
        met = self._met(group, ranked, alive)
        if met is None:
            return None
        return self._resolve(group, met, steps)  # type: ignore[return-value]

    def _met(self, group: list[BatchPort], ranked: int, alive: Flags | None) -> Flags | None:
        """The instances taking steps (``alive``, None: all) in which two processors met at a
        cell of ``group``'s array through the ports the model checks (None: in none).

        A step whose indices and masks every instance shares is tested once for all on the
        ports' own masks (the idle instances dropped from the answer), as when every
        instance takes steps; any other is tested row by row, the idle masked out."""
        checks_reads = self.host.model.checks_reads
        checked = [p for p in group if p.is_write or checks_reads]
        if sum(len(p.pid) for p in checked) < 2:
            return None
        shared = all(p.index.ndim == 1 and (p.own is None or p.own.ndim == 1)
                     for p in checked)
        if shared:
            cells = np.concatenate([p.index if p.own is None else p.index[p.own]
                                    for p in checked])
            ranks = np.concatenate([
                np.arange(p.rank, p.rank + len(p.pid)) if p.own is None
                else np.arange(p.rank, p.rank + len(p.pid))[p.own] for p in checked])
            if not two_meet(cells[None, :], ranks[None, :], ranked)[0]:
                return None
            return np.ones(self.ledgers.batch, dtype=np.bool_) if alive is None else alive.copy()
        cells2 = np.concatenate([np.broadcast_to(p.index, (self.ledgers.batch, len(p.pid)))
                                 for p in checked], axis=1)
        ranks1 = np.concatenate([np.arange(p.rank, p.rank + len(p.pid)) for p in checked])
        batch = self.ledgers.batch
        acting = np.concatenate([
            np.ones((batch, len(p.pid)), np.bool_) if p.where is None
            else np.broadcast_to(p.where, (batch, len(p.pid))) for p in checked], axis=1)
        met = two_meet(cells2, ranks1, ranked, acting)  # the idle masked out: no garbage
        return met if met.any() else None

    def _resolve(self, group: list[BatchPort], met: Flags, steps: Sequence[Step]
                 ) -> dict[int, tuple[Words, Words] | None]:
        """The single machine's slow path, for each instance in which two processors met:
        one call for all of them (their cells side by side, as one array's), unless each
        instance draws its own random choices (CRCW arbitrary)."""
        if not isinstance(self.host.model, Arbitrary):
            return self._resolve_together(group, met, steps)
        host = self.host
        settled: dict[int, tuple[Words, Words] | None] = {}
        array = group[0].array
        for i in np.flatnonzero(met).tolist():
            row = InstanceRow(array, i)
            ones = [InstancePort(p, i, row, None if p.where is None else
                         (p.where if p.where.ndim == 1 else p.where[i])) for p in group]
            found: list[Any] = []
            resolutions: list[Any] = []
            number = self.ledgers.time(i) + 1
            try:
                outcome = conflicts.resolve(
                    ones,  # type: ignore[arg-type]
                    number, steps, host.model, host.mode == "raise", found,
                    Draw(self.passes, i), resolutions)  # type: ignore[arg-type]
            except ConflictError as error:
                tagged = of_instance(error.violation, i)
                _violations_of(host).append(tagged)
                raise ConflictError(tagged) from None
            if outcome is not None:  # else every write lands as written
                settled[i] = outcome
            _violations_of(host).extend(of_instance(v, i) for v in found)
            _resolutions_of(host).extend(of_instance(r, i) for r in resolutions)
        return settled

    def _resolve_together(self, group: list[BatchPort], met: Flags, steps: Sequence[Step]
                          ) -> dict[int, tuple[Words, Words] | None]:
        """:meth:`_resolve` in one call: instance ``rows[j]``'s cell c is cell ``j * size +
        c`` of one array of the instances that met, so the slow path judges and settles
        each cell as in a single run (its records come in instance order, by cell within)."""
        host = self.host
        array = group[0].array
        size = array.size
        rows = np.flatnonzero(met)
        together = Together(array, rows)
        ports = [ManyPort(p, rows, size, self.ledgers.batch, together) for p in group]
        found: list[Any] = []
        resolutions: list[Any] = []
        try:
            outcome = conflicts.resolve(
                ports,  # type: ignore[arg-type]
                _cost_of(host).time + 1, steps, host.model, host.mode == "raise", found,
                no_choice, resolutions)
        except ConflictError as error:
            tagged = apart(error.violation, rows, size, self.ledgers)
            _violations_of(host).append(tagged)
            raise ConflictError(tagged) from None
        _violations_of(host).extend(apart(v, rows, size, self.ledgers) for v in found)
        _resolutions_of(host).extend(apart(r, rows, size, self.ledgers) for r in resolutions)
        settled: dict[int, tuple[Words, Words] | None] = {}
        if outcome is None:
            return settled
        cells, values = outcome
        which = cells // size if size else np.zeros_like(cells)
        bounds = np.searchsorted(which, np.arange(len(rows) + 1))  # cells come sorted
        for j, i in enumerate(rows.tolist()):
            start, end = int(bounds[j]), int(bounds[j + 1])
            settled[i] = (cells[start:end] - j * size, values[start:end])
        return settled
