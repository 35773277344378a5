"""The one place the reports turn a bound verdict (a :class:`pram.Check`) into words.

A bound verdict is what a sweep decided about a bound: ``holds`` (``tight``, or ``loose by``
a factor), ``exceeded`` or ``undetermined`` (see :mod:`pram.laws.bounds`). Every table, sentence and
plot legend of the reports writes it through :func:`verdict_words`, so the words are the same
everywhere; the other checks a run makes are named apart (the answer comparison, the model's
conflict test, the circuit evaluator's agreement).
"""

from __future__ import annotations

from pram import Check

#: The forms of the verdict itself: as decided (``holds``), with its tightness (``holds,
#: tight``), shouted when exceeded (``EXCEEDED``, on the terminal), or bold in Markdown.
FORMS = ("bare", "summary", "shout", "markdown")


def verdict_words(
    check: Check,
    *,
    form: str = "summary",
    reason: bool = False,
    constant: str | None = None,
    max_ratio: str | None = None,
) -> str:
    """The verdict of ``check`` in words, in one of :data:`FORMS`, then optionally the reason
    (``: ...``), the constant (with the number format ``constant``, e.g. ``".3g"``) and the
    largest measured / formula ratio (format ``max_ratio``).

    >>> from pram import Formula, check
    >>> points = [({"n": n}, 2.0 * n) for n in (4, 8, 16, 32, 64)]
    >>> c = check("work", Formula("n", lambda s: s["n"]), points)
    >>> verdict_words(c), verdict_words(c, form="bare", max_ratio=".1f")
    ('holds, tight', 'holds (max ratio 2.0)')
    """
    exceeded = check.verdict == "exceeded"
    words = {
        "bare": check.verdict,
        "summary": check.summary,
        "shout": "EXCEEDED" if exceeded else check.summary,
        "markdown": "**exceeded**" if exceeded else check.summary,
    }[form]
    if reason:
        words += f": {check.reason}"
    if constant is not None:
        figure = f"constant {check.constant:{constant}}"
        words += f"; {figure}" if reason else f" ({figure})"
    if max_ratio is not None:
        words += f" (max ratio {max(check.ratios):{max_ratio}})"
    return words
