"""A bound's formula from its text (:func:`formula`), and a declaration's bounds by measure.

Sizes (``n``), numbers, ``+ - * /``, ``^`` for powers, ``log2(...)`` and ``sqrt(...)``; the text
is parsed and checked part by part, never evaluated by ``eval``.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from pram.errors import InputError
from pram.laws.bounds import Formula

#: The measures a bound may constrain and a sweep finds the law of: the ledger's work and
#: time, and its rounds (the textbooks' steps, :mod:`pram.engine.rounds`) and their work.
MEASURES = ("work", "time", "rounds", "round_work")

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


def bounds_of(given: Mapping[str, Formula | str] | None) -> dict[str, Formula]:
    """Bounds keyed by measure (``work``, ``time``, ``rounds``, ``round_work``), every formula
    text turned into one."""
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise InputError(
            f"bounds must map a measure to a formula, e.g. {{'work': 'n^2', 'time': "
            f"'log2(n)'}} (got {type(given).__name__})"
        )
    out: dict[str, Formula] = {}
    for key, bound in given.items():
        if not isinstance(key, str) or key.split(" ")[0] not in MEASURES:
            raise InputError(
                f"bound {key!r}: a bound constrains {', '.join(MEASURES[:-1])} or "
                f"{MEASURES[-1]} (a key such as 'work' or 'work (n^2)'); rename it"
            )
        out[key] = bound if isinstance(bound, Formula) else formula(bound)
    return out


__all__ = ["MEASURES", "bounds_of", "formula"]
