"""A bound's formula (:class:`Formula`): its text, and the function that evaluates it; and
the text's grammar (:func:`formula`).

Sizes (``n``), numbers, ``+ - * /``, ``^`` for powers, ``log2(...)`` and ``sqrt(...)``; the text
is parsed and checked part by part, never evaluated by ``eval``. A check shows a formula by
its text and judges by its function, so the two must say the same: :meth:`Formula.agreeing`
refuses a formula whose function computes something else than its text
(``Formula("log2(n)", lambda s: s["n"])`` would show "holds against log2(n)" for linear
counts).
"""

from __future__ import annotations

import ast
import math
import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

import attrs

from pram.errors import InputError

Sizes = Mapping[str, float]

#: How far a formula's function may move against its text over a check's sizes (their ratio's
#: largest over its smallest): a constant factor, a rounded exponent or a ceil of a log stays
#: within it, another order (a log factor over a sweep of a decade) does not.
SPREAD = 1.3

def _sizes_text(sizes: Sizes) -> str:
    """``n=64, m=8``: the sizes a refusal names (an int too large for a float by its digits)."""

    def one(value: float) -> str:
        try:
            return f"{value:g}"
        except OverflowError:
            return f"a number of {len(str(abs(int(value))))} digits"

    return ", ".join(f"{k}={one(v)}" for k, v in sorted(sizes.items()))


@attrs.frozen
class Formula:
    """A bound's formula in the sizes, e.g. ``N d log2(N)^2``, with its text for reports."""

    text: str
    evaluate: Callable[[Sizes], float] = attrs.field(eq=False, repr=False)
    #: Sizes the text names that a check's sizes leave out because they equal another size at
    #: every point (``{"m": "n"}``: as many keys as queries), by that size: the text is read
    #: with them (:meth:`read`).
    twins: Mapping[str, str] = attrs.field(factory=dict, eq=False, repr=False, kw_only=True)
    #: The value of each size the text names that a check's sizes may leave out
    #: (``{"d": 8}``: a sweep of n alone, with 8-bit keys); the function gets it too, and a
    #: size the check gives wins.
    fixed: Mapping[str, float] = attrs.field(factory=dict, eq=False, repr=False, kw_only=True,
                                             validator=lambda _, __, v: _check_fixed(v))

    def __call__(self, sizes: Sizes | None = None, /, **named: object) -> float:
        """The formula's value at ``sizes``, a mapping of each size's name to a number
        (``f({"n": 64})``); anything else is refused naming the value and the call. One that
        is undefined there (a division by zero, the root of a negative number) or too large
        for a float is refused, naming both."""
        _check_sizes(self.text, sizes, named)
        assert sizes is not None
        try:
            value = float(self.evaluate({**self.fixed, **sizes}))
            why = None if math.isfinite(value) else f"it is {value}"
        except InputError:
            raise
        except KeyError as error:
            raise InputError(
                f"formula {self.text} needs the size {error.args[0]!r} (given {sorted(sizes)}); "
                "pass every size it names"
            ) from None
        except (ArithmeticError, ValueError) as error:
            why = ("a division by zero" if isinstance(error, ZeroDivisionError) else
                   "too large for a float" if isinstance(error, OverflowError) else
                   str(error) or type(error).__name__)
        if why is not None:
            shown = _sizes_text(sizes)
            raise InputError(
                f"formula {self.text} cannot be evaluated at {shown} ({why}); give a formula "
                "defined at every size of the sweep, or sizes where it is"
            )
        return value

    def positive(self, sizes: Sizes, fix: str = "start the sweep at sizes where it is positive"
                 ) -> float:
        """The formula's value at ``sizes``, refused unless positive: measured / formula (a
        bound check's ratio, a run's) divides by it. ``fix`` ends the refusal."""
        value = self(sizes)
        if not value > 0:
            shown = _sizes_text(sizes)
            raise InputError(
                f"formula {self.text} is {value:g} at {shown}; a bound check divides by it, so "
                f"{fix}"
            )
        return value

    def read(self, sizes: Sequence[Sizes], values: Sequence[float], who: str) -> Formula:
        """The formula a check computes with: its text (:func:`formula`), which the check
        shows, so it is what it judges, once it is known to say what the function computed
        (``values``, the function's at each of ``sizes``, evaluated once). Refused if their
        ratio moves by more than :data:`SPREAD` over the sizes (``Formula("log2(n)", lambda
        s: s["n"])``; a constant factor, an exponent rounded in the text or a ceil of a log
        stays within it), and refused if the text cannot be read: outside the grammar
        (``"O(log n)"``), or naming a size that neither the check's sizes, nor a twin
        (:attr:`twins`), nor a fixed value (:attr:`fixed`) gives (``"d log2(n)"`` on a sweep
        of n alone): its function alone would be judged, under a text it does not show."""
        names = names_in(self.text)
        try:
            said = formula(self.text, names or ("n",))
        except InputError as error:
            raise InputError(
                f"{who}: the formula's text {self.text!r} is not one pram reads ({error}); a "
                "check shows and judges a bound by its text, so write it so, e.g. "
                "'n log2(n)' for n log n"
            ) from None
        swept = set().union(*sizes)
        for name in names:
            if name not in swept and self.twins.get(name) not in swept and (
                    name not in self.fixed):
                hint = " (a logarithm is log2(...))" if name in ("lg", "log", "ln") else ""
                raise InputError(
                    f"{who}: the formula {self.text!r} names the size {name!r}{hint}, which "
                    f"the check's sizes ({', '.join(sorted(swept))}) lack; give {name} in "
                    f"every point's sizes, or its value: Formula({self.text!r}, function, "
                    f"fixed={{{name!r}: value}})"
                )
        if any(name not in swept for name in names):  # each read as its twin or its value
            plain = said

            def completed(at: Sizes) -> float:
                twinned = {name: at[twin] for name, twin in self.twins.items() if twin in at}
                return plain({**self.fixed, **twinned, **at})

            said = Formula(self.text, completed)
        ratios = [(value / said(at), at) for at, value in zip(sizes, values, strict=True)]
        low, high = (pick(ratios, key=lambda ratio: ratio[0]) for pick in (min, max))
        if high[0] > SPREAD * low[0]:
            raise InputError(
                f"{who}: the formula {self.text!r} computes {high[0]:.4g} times its text's "
                f"value at {_sizes_text(high[1])} but {low[0]:.4g} times it at "
                f"{_sizes_text(low[1])}: its function is of another order than its text, which "
                f"the check shows and judges; make it with pram.formula({self.text!r}), or give "
                "the text the function computes"
            )
        return said


def _check_fixed(fixed: object) -> None:
    """Refuse a :attr:`Formula.fixed` that does not map size names to finite numbers."""
    if not isinstance(fixed, Mapping) or not all(
            isinstance(k, str) and _real(v) and math.isfinite(float(v))
            for k, v in fixed.items()):
        raise InputError(
            f"a formula's fixed sizes map names to finite numbers, e.g. fixed={{'d': 8}} "
            f"(got {fixed!r})"
        )


def _real(value: object) -> bool:
    """Whether ``value`` is a real number (a bool or a string of digits is not)."""
    return not isinstance(value, bool) and isinstance(value, numbers.Real)


def _check_sizes(text: str, sizes: object, named: Mapping[str, object]) -> None:
    """Refuse what a formula cannot be evaluated at: no mapping, names that are not text,
    values that are not real numbers (a string ``"8"`` is refused, never read as 8)."""
    example = f"f({{'n': 64}}) for the formula {text}"
    if named:
        raise InputError(
            f"a formula takes its sizes as one mapping (got the keywords "
            f"{', '.join(named)}); call {example}"
        )
    if not isinstance(sizes, Mapping):
        got = "nothing" if sizes is None else f"{sizes!r}, a {type(sizes).__name__}"
        raise InputError(
            f"a formula is evaluated at its sizes, a mapping (got {got}); call {example}"
        )
    for key, value in sizes.items():
        if not isinstance(key, str) or not _real(value):
            raise InputError(
                f"size {key!r} = {value!r} ({type(value).__name__}): a formula's sizes map "
                f"names to numbers; call {example}"
            )


#: The longest formula text read, and the deepest nesting of its parts (operators, calls,
#: signs): a bound is a few terms; a text past these would exhaust Python's recursion.
LONGEST = 1000
DEEPEST = 100


#: Functions a formula's text may call; ``log2`` is taken as at least 1 (as in every report),
#: so a formula never vanishes at tiny sizes.
_CALLS: Mapping[str, Callable[[float], float]] = MappingProxyType({
    "log2": lambda x: math.log2(x) if x > 2 else 1.0,
    "sqrt": math.sqrt,
})


def names_in(text: str) -> tuple[str, ...]:
    """The sizes a formula's text names, sorted (``("N", "d")`` for ``"N d log2(N)^2"``): its
    names but the calls, and no exponent of a number (``1e3``)."""
    return tuple(sorted(set(re.findall(r"(?<![\w.])[A-Za-z_]\w*", text)) - set(_CALLS)))


def formula(text: str, sizes: Sequence[str] = ("n",)) -> Formula:
    """A bound's :class:`pram.Formula` from its text: sizes (``n``), numbers, ``+ - * /``,
    ``^`` for powers, ``log2(...)`` (at least 1) and ``sqrt(...)``; a space multiplies, so
    ``"n log2(n)^2"`` reads as it is written.

    Anything else is refused naming the part and the fix; nothing is evaluated by ``eval``.
    """
    if isinstance(sizes, str) or not isinstance(sizes, Sequence) or not all(
            isinstance(name, str) for name in sizes):
        raise InputError(
            f"the sizes of a formula are a list of names, e.g. sizes=('n', 'm') (got {sizes!r})"
        )
    if not isinstance(text, str) or not text.strip():
        raise InputError(
            f"a bound's formula must be text in the sizes, e.g. 'n log2(n)' (got {text!r})"
        )
    if len(text) > LONGEST:
        raise InputError(
            f"formula {text[:40]!r}... is {len(text)} characters long, over the limit of "
            f"{LONGEST}; write the bound in a few terms, e.g. 'n log2(n)^2'"
        )
    deepest = depth = 0
    for char in text:  # parentheses leave no node of their own: count them in the text
        depth += (char == "(") - (char == ")")
        deepest = max(deepest, depth)
    if deepest > DEEPEST:
        raise _too_deep(text)
    # a space between two factors multiplies: "n log2(n)" is n * log2(n)
    spelled = re.sub(r"(?<=[\w).])\s+(?=[\w(])", " * ", text.strip()).replace("^", "**")
    try:
        tree = ast.parse(spelled, mode="eval")
    except RecursionError:
        raise _too_deep(text) from None
    except SyntaxError:
        raise InputError(
            f"formula {text!r} cannot be read; write it in the sizes {', '.join(sizes)} with "
            "+ - * / ^, log2(...) and sqrt(...), e.g. 'n log2(n)^2'"
        ) from None
    _check_tree(tree.body, text, tuple(sizes))
    needed = sorted({node.id for node in ast.walk(tree.body)
                     if isinstance(node, ast.Name) and node.id not in _CALLS})

    def evaluate(at: Mapping[str, float]) -> float:
        missing = [name for name in needed if name not in at]
        if missing:
            raise InputError(
                f"formula {text.strip()} needs the size {missing[0]!r} (given "
                f"{sorted(at)}); pass every size it names, e.g. "
                f"f({{{', '.join(f'{name!r}: 64' for name in needed)}}})"
            )
        return float(_value(tree.body, at))

    return Formula(text.strip(), evaluate)


def _too_deep(text: str) -> InputError:
    return InputError(
        f"formula {text[:40]!r}{'...' if len(text) > 40 else ''} nests its parts more than "
        f"{DEEPEST} deep (each term of a chain of + or * is one level); write the "
        "bound in a few terms, e.g. 'n log2(n)^2'"
    )


def _check_tree(node: ast.AST, text: str, sizes: tuple[str, ...], depth: int = 0) -> None:
    """Refuse any part of a formula but sizes, numbers, arithmetic and the allowed calls,
    and a tree deeper than :data:`DEEPEST` (evaluating it recurses as deep)."""
    if depth > DEEPEST:
        raise _too_deep(text)

    def refuse(what: str) -> InputError:
        return InputError(
            f"formula {text!r} uses {what}; a formula holds the sizes {', '.join(sizes)}, "
            "numbers, + - * / ^, log2(...) and sqrt(...)"
        )

    if isinstance(node, ast.BinOp):
        if not isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div | ast.Pow):
            raise refuse(f"the operator {type(node.op).__name__}")
        _check_tree(node.left, text, sizes, depth + 1)
        _check_tree(node.right, text, sizes, depth + 1)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        _check_tree(node.operand, text, sizes, depth + 1)
    elif isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in _CALLS or len(node.args) != 1 or node.keywords:
            raise refuse(f"the call {ast.unparse(node)}")
        _check_tree(node.args[0], text, sizes, depth + 1)
    elif isinstance(node, ast.Name):
        if node.id not in sizes:
            raise refuse(f"the name {node.id!r}")
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise refuse(f"the constant {node.value!r}")
    else:
        raise refuse(f"'{ast.unparse(node)}'")


def _value(node: ast.AST, at: Mapping[str, float]) -> float:
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left, at), _value(node.right, at)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Div):
            return left / right
        return float(left**right)
    if isinstance(node, ast.UnaryOp):
        inner = _value(node.operand, at)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        return _CALLS[node.func.id](_value(node.args[0], at))
    if isinstance(node, ast.Name):
        return float(at[node.id])
    assert isinstance(node, ast.Constant) and isinstance(node.value, int | float)
    return float(node.value)



__all__ = ["Formula", "Sizes", "formula", "names_in"]
