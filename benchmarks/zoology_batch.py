"""Measure ``pram zoology`` grouped against one example per machine, in one run.

Scores one generated batch in Zoology's layout (512 examples of 256 tokens, 32 key-value pairs
each, by default) twice: grouped, every group of one layout size batched on one machine in
lockstep (what ``pram zoology`` does), then one example per machine, and prints both times, the
speedup (target: at least 10) and the shared accuracy and violations as one JSON object. The
two scores must agree on accuracy, violations and counts, or it fails.

Run it from the top of the checkout: ``python benchmarks/zoology_batch.py [EXAMPLES]``. The
one-by-one pass takes about a minute at 512 examples.
"""

from __future__ import annotations

import json
import sys

from pram.reports.bench import ZOOLOGY_BATCH, zoology

if __name__ == "__main__":
    sizes = dict(ZOOLOGY_BATCH)
    if len(sys.argv) > 1:
        sizes["examples"] = int(sys.argv[1])
    print(json.dumps(zoology(**sizes), indent=2))
