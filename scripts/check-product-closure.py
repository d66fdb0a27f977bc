#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.
"""Checks which of the package's own targets each library product compiles.

`swift build --product P` compiles exactly the targets P's targets depend on, transitively.
This reads that closure from `swift package describe --type json` (no build) and fails when a
product reaches a target it must not: an app importing Kingfisher compiles no Redis code, and
KingfisherImaging compiles nothing of the library above it.
"""
import json
import subprocess
import sys

FORBIDDEN = {
    "KingfisherImaging": {"Kingfisher", "KingfisherRedis", "KingfisherServer"},
    "Kingfisher": {"KingfisherRedis", "KingfisherServer"},
    "KingfisherRedis": {"KingfisherServer"},
}


def main() -> int:
    described = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], check=True,
                                          capture_output=True, text=True).stdout)
    targets = {target["name"]: target for target in described["targets"]}
    products = {product["name"]: product for product in described["products"]}
    failed = False
    for product, forbidden in FORBIDDEN.items():
        closure, pending = set(), list(products[product]["targets"])
        while pending:
            name = pending.pop()
            if name not in closure:
                closure.add(name)
                pending += targets[name].get("target_dependencies", [])
        reached = sorted(closure & forbidden)
        if reached:
            print(f"check-product-closure: the {product} product compiles {', '.join(reached)}", file=sys.stderr)
            failed = True
        else:
            print(f"{product} compiles: {', '.join(sorted(closure))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
