#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.
"""The licence header every source file starts with: checks it (--check) or adds it (--add).

Source files are the repository's tracked Swift, C, Python, shell, JavaScript, CSS and HTML
files. The header goes first, after a shebang or a Swift manifest's `// swift-tools-version`
line, in the file's own comment syntax.
"""
import argparse
import subprocess
import sys
from pathlib import Path

LINES = [
    "This source file is part of Kingfisher for Linux.",
    "Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.",
]
# How each kind of file comments a line: what goes before it and after it.
COMMENT = {
    ".swift": ("//", ""), ".h": ("//", ""), ".c": ("//", ""), ".js": ("//", ""),
    ".py": ("#", ""), ".sh": ("#", ""),
    ".css": ("/*", " */"), ".html": ("<!--", " -->"),
}


def header(path: Path) -> str:
    opening, closing = COMMENT[path.suffix]
    return "".join(f"{opening} {line}{closing}\n" for line in LINES)


def split_preamble(text: str) -> tuple[str, str]:
    """The lines that must stay first (a shebang, a tools-version line) and the rest."""
    first, _, rest = text.partition("\n")
    if first.startswith("#!") or first.startswith("// swift-tools-version"):
        return first + "\n", rest
    return "", text


def source_files(root: Path) -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=root, check=True, capture_output=True, text=True).stdout
    # Test fixtures are data whose bytes the tests read (an HTML error page), not source.
    return [root / name for name in listed.splitlines()
            if Path(name).suffix in COMMENT and "Fixtures" not in Path(name).parts[:-1] or name.endswith(".py")
            if (root / name).is_file()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="list files without the header; exit 1 if any")
    mode.add_argument("--add", action="store_true", help="add the header where it is missing")
    arguments = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    missing = []
    for path in source_files(root):
        text = path.read_text(encoding="utf-8")
        preamble, rest = split_preamble(text)
        if rest.startswith(header(path)):
            continue
        missing.append(path.relative_to(root))
        if arguments.add:
            path.write_text(preamble + header(path) + ("\n" if rest.strip() else "") + rest, encoding="utf-8")
    if arguments.check and missing:
        print(f"{len(missing)} source files lack the licence header ({' '.join(LINES)}):", file=sys.stderr)
        for path in missing:
            print(f"  {path}", file=sys.stderr)
        print("Run scripts/licence_header.py --add to add it.", file=sys.stderr)
        return 1
    if arguments.add:
        print(f"added the header to {len(missing)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
