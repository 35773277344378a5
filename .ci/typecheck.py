"""mypy strict on the three floors, each file under the module name it is installed as.

algorithms/ and reports/ install as pram.algorithms and pram.reports through pyproject.toml's
package-dir mapping, which mypy's own module finder does not read (it finds modules by folder
names). So this hands mypy every file of pram/, algorithms/ and reports/ with its installed name
(mypy resolves an import of a listed module to the listed file); the settings are
pyproject.toml's [tool.mypy]. Run from anywhere: ``python .ci/typecheck.py``; exit 0 when clean.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mypy import build
from mypy.errors import CompileError
from mypy.main import process_options
from mypy.modulefinder import BuildSource

ROOT = Path(__file__).resolve().parent.parent
#: Each floor's folder and the package it installs as (pyproject.toml's package-dir).
FLOORS = {"pram": "pram", "algorithms": "pram.algorithms", "reports": "pram.reports"}


def sources() -> list[BuildSource]:
    """Every module of the three floors, named as installed."""
    found = []
    for folder, package in FLOORS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join((package, *parts))
            found.append(BuildSource(str(path.relative_to(ROOT)), name))
    return found


def main() -> int:
    os.chdir(ROOT)  # pyproject.toml's [tool.mypy] and the relative paths in the messages
    _, options = process_options(["pram"])
    listed = sources()
    try:
        result = build.build(listed, options)
    except CompileError as error:
        print("\n".join(error.messages))
        return 2
    for line in result.errors:
        print(line)
    files = len(listed)
    if result.errors:
        print(f"mypy: errors in the three floors ({files} files)")
        return 1
    print(f"mypy: no issues in pram, pram.algorithms and pram.reports ({files} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
