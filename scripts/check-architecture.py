#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.
"""Checks Architecture.md's lists against Package.swift, so that the article cannot drift.

Reads the manifest through `swift package describe --type json` (no build) and fails, saying
what is wrong, when:
- a product is missing from the article's products table, or the table names one the manifest
  does not have;
- a library product or the `kf` tool has no DocC catalogue in its target, or the table does not
  name it;
- a target (library, executable, test, C shim) is named nowhere in the article;
- the C shims listed in the "The others" table are not exactly the manifest's system-library
  targets;
- the article names a `Sources/`, `Tests/` or `Benchmarks/` path that does not exist.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTICLE = ROOT / "Sources/Kingfisher/Kingfisher.docc/Architecture.md"


def table_rows(text: str, after: str) -> list[list[str]]:
    """The rows (cells) of the first Markdown table after the line starting with `after`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(after))
    rows, seen_table = [], False
    for line in lines[start + 1:]:
        if line.startswith("|"):
            seen_table = True
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if not set(cells[0]) <= set("-: "):
                rows.append(cells)
        elif seen_table:
            break
    return rows[1:]  # without the header


def main() -> int:
    described = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], check=True,
                                          capture_output=True, text=True, cwd=ROOT).stdout)
    text = ARTICLE.read_text()
    quoted = set(re.findall(r"`([^`\n]+)`", text))
    problems = []

    products = {product["name"]: product for product in described["products"]}
    shown = [product for product in products if "library" in products[product]["type"]] + ["kf"]
    table = {re.sub(r"`", "", row[0]): row for row in table_rows(text, "The package builds")}
    for name in shown:
        if name not in table:
            problems.append(f"the products table does not list the {name} product")
            continue
        target = products[name]["targets"][0]
        catalogue = f"{target}.docc"
        if not (ROOT / "Sources" / target / catalogue).is_dir():
            problems.append(f"the {name} product has no DocC catalogue (Sources/{target}/{catalogue})")
        if catalogue not in " ".join(table[name]):
            problems.append(f"the products table does not name {name}'s catalogue {catalogue}")
    for name in table:
        if name not in products:
            problems.append(f"the products table lists {name}, which Package.swift does not have")

    for target in described["targets"]:
        if target["name"] not in quoted and target["path"] not in quoted:
            problems.append(f"the {target['type']} target {target['name']} ({target['path']}) is named nowhere")

    shims = {target["name"] for target in described["targets"] if target["type"] == "system-target"}
    listed = set()
    for row in table_rows(text, "### The others"):
        for token in re.findall(r"`([^`]+)`", row[0]):
            name = token.removeprefix("Sources/")
            if re.fullmatch(r"C[A-Z][A-Za-z0-9]*", name):
                listed.add(name)
    for name in sorted(shims - listed):
        problems.append(f"the C shim {name} is missing from the table of other sources")
    c_targets = shims | {target["name"] for target in described["targets"] if target.get("module_type") == "ClangTarget"}
    for name in sorted(listed - c_targets):
        problems.append(f"the table of other sources lists {name}, which is no C target")

    for path in sorted(quoted):
        if re.fullmatch(r"(Sources|Tests|Benchmarks)/[\w./+-]*", path) and "*" not in path:
            if not (ROOT / path.rstrip("/")).exists():
                problems.append(f"the article names {path}, which does not exist")

    for problem in problems:
        print(f"check-architecture: {problem}", file=sys.stderr)
    if not problems:
        print(f"Architecture.md names every product, catalogue, target and C shim of Package.swift "
              f"({len(described['targets'])} targets, {len(shims)} C shims).")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
