"""Algorithm 9: MQAR with a sequential associative array (an AVL tree), counting its operations.

For each triple ``(k_i, v_i, q_i)`` in order, the algorithm looks ``q_i`` up in a balanced
search tree of the keys seen so far (the value of the latest earlier key equal to it, or -1 for
no match), then inserts ``(k_i, v_i)``, overwriting an equal key's value. Proposition H.28:
O(N log N) comparisons, each of two d-bit tokens, so O(d N log N) time on one processor.

It runs on the host, not on the machine: one processor would take one machine step per
operation, and the Python cost of a step is far larger than that of an operation. Instead it
counts its operations as it runs, in the machine's units (one 3-way key comparison, one node
written, one height update or rotation: one operation each), so its figures compare directly
with the work of the parallel algorithms.

>>> result = recall([5, 50, 7, 5, 51, 5, 7, 70, 5])
>>> result.answers.tolist()
[-1, 50, 51]
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from pram import InputError, Words, words

#: The answer of a query that matches no earlier key.
NO_MATCH = -1


@attrs.frozen
class SequentialResult:
    """Algorithm 9's answers and its counted cost.

    ``answers[i]`` is the value of the latest earlier key equal to ``q_i``, or -1. With word keys
    a comparison is one operation; :meth:`operations_with` counts it as d for d-bit keys.
    """

    answers: Words
    comparisons: int
    operations: int

    def operations_with(self, d: int) -> int:
        """The operation count when each key comparison costs ``d`` (a d-bit serial compare)."""
        return self.operations + (d - 1) * self.comparisons


def triples(tokens: Any) -> Words:
    """``tokens`` as an int64 array of (key, value, query) triples, or an InputError."""
    array = words(tokens, "tokens")
    if array.size == 0 or array.size % 3:
        raise InputError(
            "the number of tokens must be a positive multiple of 3, one (key, value, query) "
            f"triple each (got {array.size})"
        )
    for i, token in enumerate(array.tolist()):
        if token < 0:
            raise InputError(f"tokens must be non-negative (got tokens[{i}] = {token})")
    return array


def recall(tokens: Any) -> SequentialResult:
    """Answer MQAR on ``tokens`` (N tokens, N/3 triples) with Algorithm 9.

    Query 0 never matches, and query i never meets its own key k_i: the lookup comes before the
    insert (Algorithm 9's find-then-insert).
    """
    u = triples(tokens).tolist()
    tree = _AVL()
    answers = np.full(len(u) // 3, NO_MATCH, dtype=np.int64)
    for i in range(len(u) // 3):
        key, value, query = u[3 * i], u[3 * i + 1], u[3 * i + 2]
        answers[i] = tree.find(query)  # look q_i up among the earlier keys
        tree.operations += 1  # the answer written
        tree.insert(key, value)  # then insert (k_i, v_i), overwriting
    return SequentialResult(answers, tree.comparisons, tree.operations)


class _AVL:
    """An AVL tree of (key, value) held in parallel lists, index 0 standing for "no node".

    ``comparisons`` counts 3-way key comparisons; ``operations`` counts them and every other
    unit of work (node written, height updated, rotation).
    """

    def __init__(self) -> None:
        self.key = [0]
        self.value = [NO_MATCH]
        self.left = [0]
        self.right = [0]
        self.height = [0]
        self.root = 0
        self.comparisons = 0
        self.operations = 0

    def _compare(self, a: int, node: int) -> int:
        """-1, 0 or 1 as ``a`` is below, equal to or above the node's key: one comparison."""
        self.comparisons += 1
        self.operations += 1
        b = self.key[node]
        return (a > b) - (a < b)

    def find(self, key: int) -> int:
        node = self.root
        while node:
            order = self._compare(key, node)
            if order == 0:
                return self.value[node]
            node = self.left[node] if order < 0 else self.right[node]
        return NO_MATCH

    def insert(self, key: int, value: int) -> None:
        path: list[tuple[int, int]] = []  # (node, direction taken) from the root down
        node = self.root
        while node:
            order = self._compare(key, node)
            if order == 0:
                self.value[node] = value  # overwrite: the latest key wins
                self.operations += 1
                return
            path.append((node, order))
            node = self.left[node] if order < 0 else self.right[node]
        child = self._new(key, value)
        # Walk back up, hanging the new subtree and restoring balance.
        while path:
            parent, order = path.pop()
            if order < 0:
                self.left[parent] = child
            else:
                self.right[parent] = child
            child = self._balance(parent)
        self.root = child

    def _new(self, key: int, value: int) -> int:
        self.key.append(key)
        self.value.append(value)
        self.left.append(0)
        self.right.append(0)
        self.height.append(1)
        self.operations += 1
        return len(self.key) - 1

    def _update(self, node: int) -> None:
        left, right = self.height[self.left[node]], self.height[self.right[node]]
        self.height[node] = 1 + (left if left > right else right)
        self.operations += 1

    def _skew(self, node: int) -> int:
        return self.height[self.right[node]] - self.height[self.left[node]]

    def _rotate(self, node: int, up: list[int], down: list[int]) -> int:
        """Rotate at ``node``: its child on the side ``up`` becomes the subtree's root and
        ``node`` its child on the side ``down`` (a left rotation lifts the right child)."""
        top = up[node]
        up[node] = down[top]
        down[top] = node
        self._update(node)
        self._update(top)
        self.operations += 1
        return top

    def _rotate_left(self, node: int) -> int:
        return self._rotate(node, up=self.right, down=self.left)

    def _rotate_right(self, node: int) -> int:
        return self._rotate(node, up=self.left, down=self.right)

    def _balance(self, node: int) -> int:
        """Restore the AVL condition at ``node``; return the subtree's new root."""
        self._update(node)
        skew = self._skew(node)
        if skew > 1:
            if self._skew(self.right[node]) < 0:
                self.right[node] = self._rotate_right(self.right[node])
            return self._rotate_left(node)
        if skew < -1:
            if self._skew(self.left[node]) > 0:
                self.left[node] = self._rotate_left(self.left[node])
            return self._rotate_right(node)
        return node


__all__ = ["NO_MATCH", "SequentialResult", "recall", "triples"]
