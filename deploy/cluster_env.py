# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Reads WORK_DIR/cluster.env, which deploy/cluster.sh writes as shell assignments
(KEY=value, or KEY="a b" for lists), into a dict of strings."""

import os
import shlex


def read(work):
    values = {}
    with open(os.path.join(work, "cluster.env")) as f:
        for word in shlex.split(f.read()):
            key, _, value = word.partition("=")
            values[key] = value
    return values
