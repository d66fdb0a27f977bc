#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Kingfisher 8 API parity table for Kingfisher for Linux.

Lists the public API of a Kingfisher checkout and of this library (Sources/Kingfisher and
Sources/KingfisherImaging) with one small Swift declaration scanner, and prints every public
Kingfisher symbol with its status in the port as a Markdown table: same, different, missing,
deliberate or apple-only. Hand-kept notes (scripts/kingfisher-parity-notes.tsv) close rows on
purpose or force a status.

    # Kingfisher's symbol list, kept in the repository so CI can compare without a checkout:
    python3 scripts/kingfisher_parity.py extract --kingfisher /tmp/kf-checkout \\
        [--kingfisher-commit SHA] > scripts/kingfisher-8.11.0-symbols.tsv
    # The table (--kingfisher DIR works in place of --symbols):
    python3 scripts/kingfisher_parity.py compare --symbols scripts/kingfisher-8.11.0-symbols.tsv \\
        --notes scripts/kingfisher-parity-notes.tsv > parity.md
    # CI: exit 1, listing the rows, if a portable row is missing or different without a note.
    python3 scripts/kingfisher_parity.py compare --symbols ... --notes ... --check

The scanner is not a Swift parser: it blanks comments and strings, tracks braces, #if
conditions and the enclosing type, and reads the head of each declaration. Standard library only.
"""
import argparse
import dataclasses
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field

# `canImport(X)` is false on Linux for these.
APPLE_FRAMEWORKS = {
    "UIKit", "AppKit", "SwiftUI", "WatchKit", "TVUIKit", "CarPlay", "Photos", "PhotosUI", "AVKit",
    "AVFoundation", "CoreImage", "ImageIO", "MobileCoreServices", "CoreServices", "UniformTypeIdentifiers",
    "Combine", "Network", "CryptoKit", "CommonCrypto", "Accelerate", "CoreVideo", "CoreGraphics",
    "QuartzCore", "Darwin"}
# Importing one of these where Linux would see it makes a whole Kingfisher file Apple-only.
# UIKit/AppKit/CoreImage/ImageIO are not here: Kingfisher imports them in portable files too.
APPLE_ONLY_FILE_IMPORTS = {"SwiftUI", "WatchKit", "TVUIKit", "CarPlay", "Photos", "PhotosUI", "AVKit",
                           "AVFoundation", "Network"}
# Kingfisher files that exist for Apple views, Live Photos, Core Image or the Photos pickers.
APPLE_ONLY_PATHS = re.compile(
    r"^(Views/|SwiftUI/|Extensions/(ImageView|UIButton|NSButton|NSTextAttachment|CPListItem|PHLivePhotoView)"
    r"\+|Image/(ImageTransition|Placeholder)\.swift|General/ImageSource/(AVAsset|PHPicker|PhotosPicker)"
    r"|.*LivePhoto)")
# Apple types that make a declaration Apple-only when its signature names them.
APPLE_TYPES = re.compile(
    r"\b(UI[A-Z]\w*|NS(Image|ImageView|View|Button|Color|TextAttachment|BezierPath|Application|Cell|"
    r"MenuItem|StatusItem|ToolbarItem|TabViewItem|PathControlItem|ComboButton|ColorWell|TableViewRowAction|"
    r"EdgeInsets)\b|KFCrossPlatform(View|ImageView|Button)\b|CGImage\w*|CGContext|CGColorSpace|CI[A-Z]\w+|"
    r"URLSession\w*|PH[A-Z]\w+|PhotosPickerItem|AV[A-Z]\w+|CMTime|WK[A-Z]\w+|TVMonogramView|CPListItem|"
    r"CALayer|CADisplayLink|UTType|NWPath\w*)")
# The port's names read as Kingfisher's, and spellings that do not change the API.
TYPE_RENAMES = [(r"\bKingfisherImage\b", "KFCrossPlatformImage"), (r"\bKingfisherColor\b", "KFCrossPlatformColor"),
                (r"\bGTKImageView\b", "KFCrossPlatformImageView"), (r"\bGTKButton\b", "KFCrossPlatformButton")]
NOISE = re.compile(r"\b(Swift|Foundation|FoundationNetworking|Kingfisher|KingfisherImaging)\.(?=\w)|\bany\s+|"
                   r"@(escaping|Sendable|MainActor|preconcurrency|unchecked|retroactive)\b\s*")
MODIFIERS = {"public", "open", "internal", "private", "fileprivate", "package", "final", "static", "override",
             "required", "convenience", "mutating", "nonmutating", "lazy", "dynamic", "optional", "indirect",
             "weak", "unowned", "nonisolated", "isolated", "distributed", "prefix", "postfix", "infix",
             "consuming", "borrowing", "__consuming"}
DECL_KEYWORD = re.compile(r"(class|struct|enum|protocol|actor|extension|typealias|associatedtype|func|init|"
                          r"deinit|subscript|var|let|case|import)\b")
TYPE_KINDS = {"class", "struct", "enum", "protocol", "actor"}
LITERAL = re.compile(r'-?[\d.]+|true|false|nil|"[^"]*"|\[\]|\.\w+(\(.*\))?')
STRING_START = re.compile(r'(#*)("""|")')
# The port's modules compared: the view layer (KingfisherGTK) holds what Kingfisher's views do.
PORT_MODULES = ("Kingfisher", "KingfisherImaging", "KingfisherGTK")
STATUSES = ["same", "different", "missing", "deliberate", "apple-only"]
TSV_COLUMNS = ["key", "kind", "container", "signature", "file", "line", "tags", "deprecated"]


@dataclass
class Symbol:
    container: str          # normalised enclosing or extended type; '' at top level
    member: str             # `name(label:label:)` for callables and payload cases, else `name`
    kind: str               # func, init, subscript, var, case, typealias, associatedtype, or a type kind
    signature: str          # canonical text: `func(a: T = d) async -> R`, `var: T { get set } = v`, ...
    file: str
    line: int
    deprecated: str = ""    # '', 'deprecated' or 'unavailable'
    tags: str = ""          # 'apple-only: why' or ''
    condition: bool = True  # the enclosing #if branches hold on Linux
    condition_text: str = ""
    key: str = ""           # base key plus an overload suffix when needed

    @property
    def base_key(self):
        return f"{self.container}.{self.member}" if self.container else self.member


@dataclass
class Scope:
    kind: str               # 'file', 'type', 'extension' or 'skip' (a body that is not read)
    container: str = ""
    type_kind: str = ""
    visible: bool = True    # a public member here is public API
    default_public: bool = False  # members are public without saying so (public extension, protocol)
    deprecated: str = ""
    depth: int = 0          # brace depth inside a skip scope
    pending: tuple | None = None  # (symbol, modifiers, keyword) of a property whose accessors are the body
    body: list = field(default_factory=list)


# ---------------------------------------------------------------- text helpers

def normalize_type(text):
    """Canonical spelling of a type or default value, the same for both sides."""
    text = NOISE.sub("", text)
    # Optional<T> is T? (swift-format writes the short form), innermost first.
    while True:
        shorter = re.sub(r"\bOptional<([^<>]*)>",
                         lambda m: (f"({m.group(1)})" if re.search(r"\s|->|&", m.group(1).strip()) else m.group(1).strip()) + "?",
                         text)
        if shorter == text:
            break
        text = shorter
    for pattern, name in TYPE_RENAMES:
        text = re.sub(pattern, name, text)
    text = re.sub(r"\s*([,:)\]>\0])", r"\1", re.sub(r"\s+", " ", text).strip().replace("->", "\0"))
    text = re.sub(r"([(\[<,:\0])\s*", r"\1", text).replace(",", ", ").replace(":", ": ").replace("\0", " -> ")
    text = re.sub(r"(?<=[(,]) ?_ \w+: |(?<=\()\w+ \w+: ", "", text)        # names in closure types
    text = re.sub(r"(?<=[<,]) ?\(\)(?=[,>])|(?<=-> )\(\)", "Void", text)   # Result<(), E>
    text = re.sub(r"(?<![\w>\])])\(([\w.]+)\)(?=[?!])", r"\1", text)       # (Placeholder)?
    while text.startswith("(") and matching_close(text, 0) == len(text) and len(split_top_level(text[1:-1])) == 1:
        text = text[1:-1]                                                  # ((A) -> B)
    return re.sub(r"\b(\d+)\.0\b", r"\1", text) if text != "()" else "Void"


def split_top_level(text, sep=","):
    """Split at `sep` outside (), [], {}, <> (the > of -> does not close)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}" or (ch == ">" and text[i - 1:i] != "-"):
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [p.strip() for p in parts + [text[start:]] if p.strip()]


def matching_close(text, i):
    """Index just past the bracket that closes the one at text[i]."""
    opener, depth = text[i], 0
    closer = {"(": ")", "<": ">", "[": "]", "{": "}"}[opener]
    for j in range(i, len(text)):
        if text[j] == opener:
            depth += 1
        elif text[j] == closer and not (closer == ">" and text[j - 1] == "-"):
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def strip_comments_and_strings(src):
    """Blank comments (nested /* */ too) and shorten string literals to '"word chars"' (multi-line
    and interpolated ones to ""), keeping every newline so that line numbers hold."""
    out, i = [], 0
    while i < len(src):
        if src.startswith("//", i):
            i = src.find("\n", i) if "\n" in src[i:] else len(src)
        elif src.startswith("/*", i):
            depth = 0
            while i < len(src):
                step = 2 if src.startswith(("/*", "*/"), i) else 1
                depth += {"/*": 1, "*/": -1}.get(src[i:i + 2], 0) if step == 2 else 0
                out.append("\n" if src[i] == "\n" else "")
                i += step
                if depth == 0:
                    break
        elif src[i] in '#"' and (m := STRING_START.match(src, i)):
            i, content, interpolated = skip_string(src, m.end(), len(m.group(1)), m.group(2))
            multi = m.group(2) == '"""' or interpolated
            out.append('""' + "\n" * content.count("\n") if multi else '"' + re.sub(r"[^\w. -]", "", content) + '"')
        else:
            out.append(src[i])
            i += 1
    return "".join(out)


def skip_string(src, i, hashes, quote):
    """From just after an opening quote: (index after the closing quote, content, interpolated?)."""
    escape, close, start, interpolated = "\\" + "#" * hashes, quote + "#" * hashes, i, False
    while i < len(src):
        if src.startswith(escape, i):
            i += len(escape)
            if src[i:i + 1] == "(":               # interpolation: code, which may hold strings
                i, interpolated = skip_interpolation(src, i), True
            else:
                i += 1
        elif src.startswith(close, i):
            return i + len(close), src[start:i], interpolated
        elif quote == '"' and src[i] == "\n":     # unterminated: stop at the line end
            break
        else:
            i += 1
    return i, src[start:i], interpolated


def skip_interpolation(src, i):
    depth = 0
    while i < len(src):
        if src[i] in '#"' and (m := STRING_START.match(src, i)):
            i = skip_string(src, m.end(), len(m.group(1)), m.group(2))[0]
            continue
        depth += {"(": 1, ")": -1}.get(src[i], 0)
        i += 1
        if depth == 0:
            break
    return i


def holds_on_linux(condition):
    """Evaluate a #if condition as on Linux; unknown flags (DEBUG) count as true."""
    def platform_test(m):
        name, arg = m.group(1), m.group(2).strip()
        if name == "os":
            return str(arg == "Linux")
        if name == "canImport":
            return str(arg.split(".")[0] not in APPLE_FRAMEWORKS)
        return str(name not in ("targetEnvironment", "_runtime"))   # compiler(), swift(), arch()
    expr = re.sub(r"\b(\w+)\s*\(([^()]*)\)", platform_test, condition)
    expr = expr.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    expr = re.sub(r"\b(?!True\b|False\b|and\b|or\b|not\b)[A-Za-z_]\w*", "True", expr)
    try:
        return bool(eval(expr, {"__builtins__": {}}))   # only True, False, and, or, not, () are left
    except SyntaxError:
        return True


# ---------------------------------------------------------------- declaration heads

def split_head(head):
    """(attributes, modifiers, rest) of a declaration head."""
    attrs, mods = [], []
    while True:
        head = head.lstrip()
        if m := re.match(r"@[\w.]+", head):
            end = matching_close(head, m.end()) if head[m.end():m.end() + 1] == "(" else m.end()
            attrs.append(head[:end])
        elif (m := re.match(r"(\w+)(\((set|unsafe|safe)\))?", head)) and (
                m.group(1) in MODIFIERS or m.group(1) == "class" and
                re.match(r"\s*(func|var|let|subscript)\b", head[m.end():])):
            end = m.end()
            mods.append(m.group(0))
        else:
            return attrs, mods, head
        head = head[end:]


def deprecation(attrs):
    text = " ".join(a for a in attrs if a.startswith("@available"))
    return "unavailable" if "unavailable" in text else "deprecated" if "deprecated" in text else ""


def parse_callable(text):
    """Pieces of `<G>(params) effects -> Ret where W`, from a head or from a canonical signature."""
    text, generics, params = text.strip(), "", []
    if text.startswith("<"):
        end = matching_close(text, 0)
        generics, text = text[:end], text[end:].lstrip()
    if text.startswith("("):
        end = matching_close(text, 0)
        params, text = split_top_level(text[1:end - 1]), text[end:]
    where = ""
    if m := re.search(r"\bwhere\b", text):
        text, where = text[:m.start()], text[m.end():]
    rest, _, ret = text.partition("->")
    return {"generics": normalize_type(generics), "params": [parse_param(p) for p in params],
            "effects": " ".join(re.findall(r"\b(async|throws|rethrows)\b", rest)),
            "return": "" if normalize_type(ret) in ("", "Void") else normalize_type(ret),
            "where": normalize_type(where)}


def parse_param(text):
    """(label, type, default) of `label name: Type = default`, or of a bare payload type."""
    text = re.sub(r"^(@\w+(\([^)]*\))?\s*)+", "", text)
    names, colon, rest = text.partition(":")
    if not colon or not re.fullmatch(r"[\w`]+(\s+[\w`]+)?", names.strip()):
        names, rest = "_", text
    parts = split_top_level(rest, "=")
    typ = normalize_type(parts[0] if parts else "")
    default = normalize_type("=".join(parts[1:])) if len(parts) > 1 else ""
    base = typ.rstrip("?!")                       # `CGPoint(x: 1)` for a CGPoint is `.init(x: 1)`
    if default.startswith(base + "("):
        default = ".init" + default[len(base):]
    elif default.startswith(base + "."):
        default = default[len(base):]
    return names.split()[0].strip("`"), typ, default


def render_callable(prefix, c):
    params = ", ".join(f"{label}: {typ}" + (f" = {dflt}" if dflt else "") for label, typ, dflt in c["params"])
    text = f"{prefix}{c['generics']}({params})" + (f" {c['effects']}" if c["effects"] else "")
    return text + (f" -> {c['return']}" if c["return"] else "") + (f" where {c['where']}" if c["where"] else "")


def labels(c):
    return "".join(f"{label}:" for label, _, _ in c["params"])


def accessors(mods, keyword, body):
    """'get' or 'get set' (with the getter's effects) from the modifiers and the accessor body,
    None for a stored property."""
    if keyword == "let" or any(m.endswith("(set)") for m in mods):
        return "get"
    if body is None:
        return "get set"
    while re.search(r"\{[^{}]*\}", body):          # keep the accessor level only
        body = re.sub(r"\{[^{}]*\}", " ", body)
    words = set(re.findall(r"\w+", body))
    effects = "".join(f" {e}" for e in ("async", "throws") if e in words)
    return "get" + effects + (" set" if words & {"set", "_modify", "willSet", "didSet"} else "")


def container_name(text):
    """`KingfisherWrapper where Base: X` -> `KingfisherWrapper<X>`; other where-clauses dropped."""
    name, _, where = re.sub(r"\s+", " ", text).strip().partition(" where ")
    name = normalize_type(re.sub(r"<.*", "", name))
    if name == "KingfisherWrapper" and (m := re.match(r"Base\s*(:|==)\s*([\w.]+)", where)):
        return f"KingfisherWrapper<{normalize_type(m.group(2))}>"
    return name


# ---------------------------------------------------------------- the scanner

class SwiftScanner:
    """Collects the public declarations of one side (Kingfisher or the port), file by file."""

    def __init__(self):
        self.symbols, self.conformances, self.aliases = [], {}, {}
        self.type_visibility = {}                # declared type -> public?
        self.file_imports = {}                   # file -> frameworks imported where Linux sees them

    def scan_file(self, path, rel):
        lines = strip_comments_and_strings(open(path, encoding="utf-8").read()).split("\n")
        self.file, self.stack, self.buffer, self.start_line = rel, [Scope("file")], [], 0
        self.conditions, self.snapshots, self.nest, self.file_imports[rel] = [], [], 0, []
        for self.line, line in enumerate(lines, 1):
            if m := re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line):
                self.handle_directive(m.group(1), m.group(2).strip())
            elif not re.match(r"\s*#(warning|error|sourceLocation)\b", line):
                self.next_line = next((l.strip() for l in lines[self.line:] if l.strip()), "")
                for ch in line + "\n":
                    self.feed(ch)
        if len(self.stack) != 1 or self.conditions:     # brace or #if tracking went wrong
            print(f"warning: {rel}: unbalanced braces or #if at end of file", file=sys.stderr)

    def handle_directive(self, word, condition):
        if word == "if":                 # each level: the conditions of its branches so far
            self.conditions.append([condition])
            self.snapshots.append((list(self.stack), self.stack[-1].depth))
        elif word in ("elseif", "else") and self.conditions:
            self.conditions[-1].append(condition if word == "elseif" else None)
            stack, depth = self.snapshots[-1]
            if len(self.stack) != len(stack) or self.stack[-1].depth != depth:
                self.stack = list(stack)       # the branch opened a brace the next one opens again
                self.stack[-1].depth = depth
        elif word == "endif" and self.conditions:
            self.conditions.pop()
            self.snapshots.pop()

    def current_condition(self):
        """(holds on Linux, text) for the #if branches around the current line."""
        texts = [" && ".join([f"!({c})" for c in branches[:-1]] + [branches[-1]] * bool(branches[-1]))
                 for branches in self.conditions]
        text = " && ".join(f"({t})" if "&&" in t or "||" in t else t for t in texts)
        return (holds_on_linux(text) if text else True), text

    def feed(self, ch):
        top = self.stack[-1]
        if top.kind == "skip":                   # a body: count braces, keep accessor text
            top.depth += {"{": 1, "}": -1}.get(ch, 0)
            if top.depth == 0:
                self.stack.pop()
                if top.pending:
                    self.finish_accessors(top.pending, "".join(top.body))
            elif top.pending:
                top.body.append(ch)
            return
        if ch in "([" or (ch == "{" and self.nest):
            self.nest += 1
        elif ch in ")]" or (ch == "}" and self.nest):
            self.nest -= 1
        elif ch == "{":
            return self.open_body()
        elif ch == "}":
            self.end_statement()
            return self.stack.pop() if len(self.stack) > 1 else None
        elif ch == ";" or (ch == "\n" and self.nest == 0 and not self.statement_continues()):
            return self.end_statement()
        if self.buffer or not ch.isspace():
            self.start_line = self.start_line if self.buffer else self.line
            self.buffer.append(ch)

    def statement_continues(self):
        """Does the declaration go on after this newline (attributes alone, `->` on the next line, ...)?"""
        text = "".join(self.buffer).strip()
        if not text or self.next_line.startswith("#"):
            return False
        if not split_head(text)[2] or re.search(r"(,|->|=|:|&|\||\.|<)$", text):
            return True
        return bool(re.match(r"(->|throws|rethrows|async|where|\.|\{|=|&|:|,)", self.next_line))

    def open_body(self):
        head, self.buffer = "".join(self.buffer).strip(), []
        decl = self.parse_statement(head)
        if decl and decl[0] == "scope":
            return self.stack.append(decl[1])
        if decl and head.endswith("="):          # `var x: T = { ... }()`: a stored property
            self.finish_accessors(decl, None)
            decl = None
        self.stack.append(Scope("skip", depth=1, pending=decl))

    def end_statement(self):
        head, self.buffer = "".join(self.buffer).strip(), []
        if decl := self.parse_statement(head):
            if decl[0] != "scope":
                self.finish_accessors(decl, None)

    def finish_accessors(self, pending, body):
        symbol, mods, keyword = pending
        symbol.signature = symbol.signature.replace("{ACCESSORS}", "{ %s }" % accessors(mods, keyword, body))

    def parse_statement(self, head):
        """Record a declaration. Returns ('scope', Scope) for a type or extension, the pending
        (symbol, modifiers, keyword) of a property or subscript, else None."""
        attrs, mods, rest = split_head(head)
        if not head or not (m := DECL_KEYWORD.match(rest)):
            return None
        keyword, rest, scope = m.group(1), rest[m.end():].strip(), self.stack[-1]
        deprecated = deprecation(attrs) or scope.deprecated
        if keyword == "import":
            if self.current_condition()[0]:
                self.file_imports[self.file].append(rest.split()[-1].split(".")[0])
            return None
        public = self.is_public(mods, scope, keyword)
        if keyword in TYPE_KINDS or keyword == "extension":
            return "scope", self.parse_type(keyword, mods, rest, scope, public, deprecated)
        if not public:
            return None
        static = "static " if {"static", "class"} & set(mods) else ""
        add = lambda member, kind, sig: self.add(scope.container, member, kind, sig, deprecated)
        if keyword in ("var", "let") and (nm := re.match(r"`?(\w+)`?\s*(.*)", rest, re.S)):
            return add(nm.group(1), "var", self.property_signature(static, nm.group(2).strip())), mods, keyword
        if keyword == "subscript":
            c = parse_callable(rest)
            sig = render_callable(f"{static}subscript", c) + " {ACCESSORS}"
            return add(f"subscript({labels(c)})", "subscript", sig), mods, keyword
        if keyword == "func" and (nm := re.match(r"`?(\w+)`?|([-+*/%=<>!&|^~?.]+)", rest)):
            c = parse_callable(rest[nm.end():])
            add(f"{nm.group(1) or nm.group(2)}({labels(c)})", "func", render_callable(f"{static}func", c))
        elif keyword == "init":
            c = parse_callable(rest.lstrip("?!"))
            add(f"init({labels(c)})", "init", render_callable("init" + rest[:1] * (rest[:1] in "?!"), c))
        elif keyword == "case" and scope.type_kind == "enum":
            for name, tail in (re.match(r"`?(\w+)`?\s*(.*)", p, re.S).groups() for p in split_top_level(rest)):
                if tail.startswith("("):
                    c = parse_callable(tail)
                    add(f"{name}({labels(c)})", "case", render_callable("case", c))
                else:
                    add(name, "case", "case" + (f" {normalize_type(tail)}" if tail else ""))
        elif keyword in ("typealias", "associatedtype"):
            nm = re.match(r"(\w+)\s*(<[^=]*>)?\s*(.*)", rest, re.S)
            rhs = nm.group(3).strip()
            value = f"{rhs[0]} {normalize_type(rhs[1:])}" if rhs[:1] in ("=", ":") else ""
            symbol = add(nm.group(1), keyword, f"{keyword}{normalize_type(nm.group(2) or '')} {value}".strip())
            if keyword == "typealias" and re.fullmatch(r"= [\w.]+", value):
                self.aliases[symbol.base_key] = value[2:]
        return None

    def parse_type(self, keyword, mods, rest, scope, public, deprecated):
        nm = re.match(r"([\w.]+)\s*(<[^{]*?>)?\s*(.*)", rest, re.S)
        tail = nm.group(3)
        inherits = re.split(r"\bwhere\b", tail[1:])[0] if tail.startswith(":") else ""
        if keyword == "extension":
            container = container_name(nm.group(1) + (" where " + tail.split("where", 1)[1] if "where" in tail else ""))
            new_scope = Scope("extension", container, keyword, True, "public" in mods, deprecated)
        else:
            container = normalize_type(f"{scope.container}.{nm.group(1)}" if scope.container else nm.group(1))
            self.type_visibility[container] = public
            new_scope = Scope("type", container, keyword, public, keyword == "protocol", deprecated)
            if public:
                outer, _, name = container.rpartition(".")
                self.add(outer, name, keyword, ("open " if "open" in mods else "") + keyword +
                         normalize_type(nm.group(2) or ""), deprecated)
        self.conformances.setdefault(container, set()).update(
            normalize_type(re.sub(r"@\w+|~\w+|<.*", "", p)) for p in split_top_level(inherits))
        return new_scope

    @staticmethod
    def property_signature(static, after):
        """`var: Type {ACCESSORS} = value` from what follows the name (`: T = v`, `= v`, `: T`)."""
        typ, _, value = after[1:].partition("=") if after.startswith(":") else ("", "", after[1:])
        typ, value = normalize_type(typ), normalize_type(value)
        if not typ and (m := re.match(r"([A-Z][\w.]*)\s*[(.]", value)):
            typ = m.group(1)                     # `static let shared = KingfisherManager()`
        value = "" if value.startswith("{") else value
        return f"{static}var: {typ or '_'} {{ACCESSORS}}" + (f" = {value}" if value else "")

    @staticmethod
    def is_public(mods, scope, keyword):
        if scope.kind == "skip":
            return False
        if {"public", "open"} & set(mods):
            return scope.visible
        if {"private", "fileprivate", "internal", "package"} & set(mods):
            return False
        if keyword == "case":                    # enum cases are as public as their enum
            return scope.visible and scope.type_kind == "enum"
        return scope.visible and scope.default_public

    def add(self, container, member, kind, signature, deprecated):
        holds, text = self.current_condition()
        symbol = Symbol(container, member, kind, signature, self.file, self.start_line or self.line,
                        deprecated, condition=holds, condition_text=text)
        self.symbols.append(symbol)
        return symbol

    def public_symbols(self):
        """Without the public members of types that are not public themselves."""
        return [s for s in self.symbols if self.type_visibility.get(s.container, True)]


def scan_sources(roots):
    scanner = SwiftScanner()
    for root in roots:
        for directory, subdirs, files in os.walk(root):
            subdirs[:] = sorted(d for d in subdirs if not d.endswith(".docc"))
            for name in sorted(f for f in files if f.endswith(".swift")):
                scanner.scan_file(os.path.join(directory, name), os.path.relpath(os.path.join(directory, name), root))
    return scanner


# ---------------------------------------------------------------- Kingfisher's side: tags, overloads

def dotted_names(text):
    """Every name and dotted prefix in a text: `A.B<C>` -> A, A.B, C."""
    names = set()
    for match in re.findall(r"\w+(?:\.\w+)*", text):
        parts = match.split(".")
        names.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return names


def tag_apple_only(symbols, file_imports):
    """Tag what needs an Apple framework: by #if, file, import, Apple type, or Apple-only Kingfisher type."""
    for s in symbols:
        imports = sorted(set(file_imports.get(s.file, ())) & APPLE_ONLY_FILE_IMPORTS)
        used = APPLE_TYPES.search(f"{s.container} {s.member} {s.signature}")
        s.tags = ("" if s.condition else f"apple-only: #if {s.condition_text}") or \
                 (f"apple-only: file {s.file}" if APPLE_ONLY_PATHS.match(s.file) else "") or \
                 (f"apple-only: imports {', '.join(imports)}" if imports else "") or \
                 (f"apple-only: uses {used.group(0)}" if used else "")
    changed = True
    while changed:                               # a type declared Apple-only taints what names it
        apple_types, changed = {s.base_key for s in symbols if s.tags and s.kind in TYPE_KINDS}, False
        for s in symbols:
            if not s.tags and (hit := sorted(dotted_names(f"{s.container} {s.signature}") & apple_types)):
                s.tags, changed = f"apple-only: uses {hit[0]}", True


def merge_variants(symbols):
    """One symbol per (key, overload) across #if branches and protocol defaults; a portable one wins."""
    merged = {}
    for s in symbols:
        p = split_signature(s.signature)
        identity = (s.base_key, s.kind, tuple(t for _, t, _ in p["params"]), p["effects"], p["static"])
        if identity not in merged or (merged[identity].tags and not s.tags):
            merged[identity] = s
    return list(merged.values())


def assign_display_keys(symbols):
    """Overloads sharing a base key get a `[suffix]` naming what tells them apart."""
    groups = {}
    for s in symbols:
        groups.setdefault(s.base_key, []).append(s)
    for group in groups.values():
        if len(group) == 1:
            group[0].key = group[0].base_key
            continue
        parts = [split_signature(s.signature) for s in group]
        positions = [i for i in range(len(parts[0]["params"])) if len({p["params"][i][1] for p in parts}) > 1]
        facets = [lambda p: ", ".join(p["params"][i][1] for i in positions), lambda p: p["effects"] or "sync",
                  lambda p: p["static"], lambda p: "-> " + (p["return"] or "Void")]
        chosen = [f for f in facets if len({f(p) for p in parts}) > 1]
        for s, p in zip(group, parts):
            s.key = f"{s.base_key} [{'; '.join(f(p) for f in chosen) or s.line}]"


# ---------------------------------------------------------------- comparing signatures

def split_signature(sig, container=""):
    """A canonical signature as a dict (one reader for both sides and the TSV). Names qualified
    by the enclosing types (`KF.Builder` inside `KF`) are read unqualified."""
    for outer in sorted(dotted_names(container.split("<")[0]), key=len, reverse=True):
        sig = re.sub(rf"(?<![\w.]){re.escape(outer)}\.(?=[A-Z])", "", sig)
    m = re.match(r"(static )?(open \w+|init[?!]?|\w+)(.*)", sig, re.S)
    parts = {"static": "static" if m.group(1) else "instance", "head": m.group(2), "params": [], "effects": "",
             "return": "", "generics": "", "where": "", "type": "", "access": "", "value": ""}
    tail = m.group(3).strip()
    if parts["head"] in ("var", "subscript") and (acc := re.search(r"\{ ([^{}]*) \}(?: = .*)?$", tail)):
        parts["access"] = acc.group(1)
    if parts["head"] == "var":
        vm = re.match(r": (.*?) \{[^{}]*\}(?: = (.*))?$", tail, re.S)
        parts["type"], parts["value"] = normalize_type(vm.group(1)), vm.group(2) if vm.group(2) != "nil" else ""
    elif tail[:1] in ("(", "<"):
        parts.update(parse_callable(re.sub(r" \{[^{}]*\}$", "", tail)))
    else:
        parts["value"] = f"{tail[0]} {normalize_type(tail[1:])}" if tail[:1] in ("=", ":") else tail
    return parts


def signature_differences(kf, port):
    """Short notes, Kingfisher's side first; empty when the declarations match."""
    if kf.kind != port.kind:
        return [f"{kf.kind} vs {port.kind}"]
    a, b = split_signature(kf.signature, kf.container), split_signature(port.signature, port.container)
    diffs = [f"{a[k] or 'none'} vs {b[k] or 'none'}" for k in ("head", "static", "generics") if a[k] != b[k]]
    diffs += label_differences(a["params"], b["params"])
    same_labels = [p[0] for p in a["params"]] == [p[0] for p in b["params"]]
    by_label = {}
    for label, typ, default in reversed(b["params"]):
        by_label[label] = (typ, default)
    for index, (label, ta, da) in enumerate(a["params"]):
        tb, db = b["params"][index][1:] if same_labels else by_label.get(label, (ta, da))
        if ta != tb:
            diffs.append(f"{label}: {ta} vs {tb}")
        if da and da != db:                      # a default only the port has breaks no call
            diffs.append(f"{label} default {da} vs {db or 'none'}")
    for k, name in (("effects", ""), ("return", "return type "), ("where", "where ")):
        if a[k] != b[k]:
            diffs.append(f"{name}{a[k] or 'none'} vs {b[k] or 'none'}")
    if a["type"] != b["type"] and "_" not in (a["type"], b["type"]):
        diffs.append(f"type {a['type']} vs {b['type']}")
    if a["access"] != b["access"]:
        diffs.append(f"{{ {a['access']} }} vs {{ {b['access']} }}")
    # A stored property's initial value only counts when Kingfisher's is a literal (5, .days(7)).
    if a["value"] != b["value"] and (kf.kind != "var" or b["value"] and LITERAL.fullmatch(a["value"])):
        diffs.append(f"value {a['value'] or 'none'} vs {b['value'] or 'none'}")
    if port.deprecated and port.deprecated != kf.deprecated:
        diffs.append(f"{port.deprecated} in the port")
    return diffs


def label_differences(kf_params, port_params):
    kf_labels, port_labels = [p[0] for p in kf_params], [p[0] for p in port_params]
    if kf_labels == port_labels:
        return []
    added = [p for p in port_params if p[0] not in kf_labels]
    if added and [label for label in port_labels if label in kf_labels] == kf_labels:
        return [f"port adds {', '.join(p[0] + ':' for p in added)}" + (" (defaulted)" if all(p[2] for p in added) else "")]
    return [f"labels ({''.join(l + ':' for l in kf_labels)}) vs ({''.join(l + ':' for l in port_labels)})"]


def labels_overlap(kf_labels, port_labels):
    """Same first label, or every Kingfisher label present: worth comparing as one API."""
    return set(kf_labels) <= set(port_labels) or kf_labels[:1] == port_labels[:1] != []


class PortIndex:
    """The port's public symbols, looked up through conformances and typealiases."""

    def __init__(self, scanner, kf_symbols):
        self.by_key, self.by_name, self.cases, self.used = {}, {}, {}, set()
        for s in scanner.public_symbols():
            self.by_key.setdefault(s.base_key, []).append(s)
            self.by_name.setdefault((s.container, s.member.split("(")[0]), []).append(s)
            if s.kind == "case":
                self.cases.setdefault(s.container, set()).add(s.member.split("(")[0])
        self.conformances, self.aliases = scanner.conformances, scanner.aliases
        # Top-level typealiases read as what they stand for (ImageSettingCompletion, ExecutionQueue)
        # when Kingfisher has no such alias or one with the same value.
        kf_aliases, port_aliases = ({s.member: s.signature.removeprefix("typealias = ") for s in symbols
                                     if s.kind == "typealias" and not s.container and "= " in s.signature}
                                    for symbols in (kf_symbols, scanner.public_symbols()))
        self.expansions = {k: v for k, v in port_aliases.items() if kf_aliases.get(k, v) == v}

    def expanded(self, symbol):
        """A copy of either side's symbol with the expandable typealiases spelled out."""
        sig = symbol.signature
        for name, value in self.expansions.items():
            sig = re.sub(rf"(?<![\w.]){name}\b(?!\.)", f"({value})", sig)
        return dataclasses.replace(symbol, signature=sig)

    def related_containers(self, container):
        """The container, its aliases, and what it conforms to, transitively (for KingfisherWrapper<X>
        also KingfisherWrapper<P> for X's protocols, and the plain KingfisherWrapper)."""
        order, queue = [], [container]
        while queue:
            c = queue.pop(0)
            if c in order:
                continue
            order.append(c)
            queue += [self.aliases.get(c)] if c in self.aliases else []
            queue += sorted(self.conformances.get(c, ()))
            if m := re.fullmatch(r"KingfisherWrapper<(.+)>", c):
                inner = [self.aliases[m.group(1)]] if m.group(1) in self.aliases else []
                queue += [f"KingfisherWrapper<{x}>" for x in inner + sorted(self.conformances.get(m.group(1), ()))]
                queue.append("KingfisherWrapper")
        return order

    def same_key(self, kf):
        return [s for c in self.related_containers(kf.container)
                for s in self.by_key.get(f"{c}.{kf.member}" if c else kf.member, [])]

    def same_name(self, kf):
        """Same name, with labels reordered, added or partly shared."""
        name, kf_labels = kf.member.split("(")[0], re.findall(r"(\w+):", kf.member)
        return [s for c in self.related_containers(kf.container) for s in self.by_name.get((c, name), [])
                if s.kind == kf.kind and "(" in s.member and labels_overlap(kf_labels, re.findall(r"(\w+):", s.member))]

    def on_conformers(self, kf):
        """The member declared only on a type that conforms to Kingfisher's container."""
        return [s for c, parents in sorted(self.conformances.items()) if kf.container in parents
                for s in self.by_key.get(f"{c}.{kf.member}", [])]


def compare_group(group, port):
    """{key: (status, note)} for the Kingfisher symbols of one base key. Overloads pair exactly first;
    the rest take the closest port declaration with the same key, else with the same name and
    compatible labels, else declared on a conforming type."""
    def candidates(symbols):
        port.used.update(id(c) for c in symbols)
        return [(c, port.expanded(c)) for c in symbols]

    def weight(kf, pair):
        return sum(0.5 if d.endswith("(defaulted)") else 1 for d in signature_differences(kf, pair[1]))

    results, free, group = {}, candidates(port.same_key(group[0])), [port.expanded(kf) for kf in group]
    for kf in group:
        if exact := next((pair for pair in free if not signature_differences(kf, pair[1])), None):
            free.remove(exact)
            results[kf.key] = ("same", found_on(kf, exact[0]))
    for kf in [kf for kf in group if kf.key not in results]:
        pool, how = free, "key"
        for finder in (port.same_name, port.on_conformers):
            if not pool:
                pool, how = candidates(finder(kf)), finder.__name__
        if not pool:
            results[kf.key] = ("missing", "")
            continue
        best = min(pool, key=lambda pair: weight(kf, pair))
        if how == "key":
            free.remove(best)
        diffs = signature_differences(kf, best[1])
        if how == "on_conformers":
            diffs.insert(0, f"only on {best[0].container}, not {kf.container}")
        results[kf.key] = ("different", "; ".join(diffs + [found_on(kf, best[0])]).strip("; "))
    return results


def found_on(kf, port_symbol):
    same = port_symbol.container == kf.container or not kf.container
    return "" if same else f"found on {port_symbol.container}"


def build_rows(kf_symbols, port, notes):
    """(symbol, status, note) per Kingfisher symbol, in file and line order."""
    groups, computed, kf_cases = {}, {}, {}
    for s in kf_symbols:
        groups.setdefault(s.base_key, []).append(s)
        if s.kind == "case":
            kf_cases.setdefault(s.container, set()).add(s.member.split("(")[0])
    for group in groups.values():
        computed.update(compare_group(group, port))
    rows = []
    for s in sorted(kf_symbols, key=lambda s: (s.file, s.line, s.key)):
        status, note = computed[s.key]
        extra_cases = sorted(port.cases.get(s.base_key, set()) - kf_cases.get(s.base_key, set()))
        if s.kind == "enum" and status != "missing" and extra_cases:   # breaks exhaustive switches
            status, note = "different", "; ".join(filter(None, [note, f"port adds cases {', '.join(extra_cases)}"]))
        if s.key in notes and status == "same":       # the port caught up: the note is stale
            print(f"warning: stale note, {s.key} is now the same", file=sys.stderr)
        elif s.key in notes:
            forced, text = notes[s.key]
            note, status = (text if status == forced else f"{text} (scanner: {status}{': ' * bool(note)}{note})"), forced
        elif s.tags and status != "same":
            port_note = f"; port: different: {note}" if status == "different" else ""
            note, status = s.tags.removeprefix("apple-only: ") + port_note, "apple-only"
        rows.append((s, status, note))
    for key in sorted(set(notes) - {s.key for s in kf_symbols}):
        print(f"warning: note for unknown symbol {key}", file=sys.stderr)
    return rows


# ---------------------------------------------------------------- input and output

def read_notes(path):
    notes = {}
    for number, line in enumerate(open(path, encoding="utf-8") if path else [], 1):
        if line.strip() and not line.startswith("#"):
            cells = line.rstrip("\n").split("\t")
            if len(cells) != 3 or cells[1] not in ("deliberate", "same", "apple-only"):
                sys.exit(f"{path}:{number}: expected key<TAB>deliberate|same|apple-only<TAB>note")
            notes[cells[0]] = (cells[1], cells[2])
    return notes


def read_kingfisher(args):
    """(metadata, merged and tagged symbols) of Kingfisher, from a checkout or a symbols TSV."""
    if args.symbols:
        meta, symbols = {}, []
        for line in open(args.symbols, encoding="utf-8"):
            line = line.rstrip("\n")
            if line.startswith("# ") and ": " in line:
                meta.update([line[2:].split(": ", 1)])
            elif line and not line.startswith(("#", "key\t")):
                c = dict(zip(TSV_COLUMNS, line.split("\t")))
                member = c["key"].split(" [")[0][len(c["container"]) + bool(c["container"]):]
                symbols.append(Symbol(c["container"], member, c["kind"], c["signature"], c["file"],
                                      int(c["line"]), c["deprecated"], c["tags"], key=c["key"]))
        return meta, symbols
    root = os.path.abspath(args.kingfisher)
    scanner = scan_sources([os.path.join(root, "Sources")])
    symbols = scanner.public_symbols()
    tag_apple_only(symbols, scanner.file_imports)
    symbols = merge_variants(symbols)
    assign_display_keys(symbols)
    podspec = open(os.path.join(root, "Kingfisher.podspec"), encoding="utf-8").read()
    version = re.search(r"s\.version\s*=\s*['\"]([^'\"]+)", podspec).group(1)
    commit = args.kingfisher_commit or git_head(root) or "unknown"
    return {"kingfisher-version": version, "kingfisher-commit": commit}, symbols


def git_head(directory, short=False):
    """HEAD of `directory` when it is the top of a git work tree (not inside another one)."""
    def git(*a):
        return subprocess.run(["git", "--no-optional-locks", "-C", directory, *a],
                              capture_output=True, text=True).stdout.strip()
    if os.path.realpath(git("rev-parse", "--show-toplevel") or "/nonexistent") != os.path.realpath(directory):
        return ""
    return git("rev-parse", *["--short"] * short, "HEAD")


def port_sources_changed(directory):
    """Whether the port's Sources differ from its HEAD (the table then describes the work tree)."""
    status = subprocess.run(["git", "--no-optional-locks", "-C", directory, "status", "--porcelain", "--", "Sources"],
                            capture_output=True, text=True).stdout.strip()
    return bool(status)


def write_symbols_tsv(meta, symbols, out):
    out.writelines(f"# {k}: {v}\n" for k, v in meta.items())
    out.write("\t".join(TSV_COLUMNS) + "\n")
    for s in sorted(symbols, key=lambda s: (s.file, s.line, s.key)):
        out.write("\t".join([s.key, s.kind, s.container, s.signature, s.file, str(s.line), s.tags, s.deprecated]) + "\n")


def render_markdown(meta, rows, port_root, port_count, extras, out):
    counts = {st: sum(1 for _, status, _ in rows if status == st) for st in STATUSES}
    version, commit = meta.get("kingfisher-version", "?"), meta.get("kingfisher-commit", "unknown")
    open_rows = [(s, status) for s, status, _ in rows if status in ("missing", "different")]
    cell = lambda text: text.replace("|", "\\|").replace("\n", " ").strip()
    out.write(
        f"# Kingfisher {version} parity table (generated)\n\nGenerated by `scripts/kingfisher_parity.py`; do not "
        "edit by hand. To close a row on purpose, add a line to `scripts/kingfisher-parity-notes.tsv`.\n\n"
        f"**What was compared:** Kingfisher {version} (commit `{commit}`, `Sources/`, {len(rows)} public symbols) "
        "against this library's `Sources/Kingfisher`, `Sources/KingfisherImaging` and `Sources/KingfisherGTK` at "
        f"`{git_head(port_root, short=True) or 'an unknown commit'}`"
        f"{' plus uncommitted changes' if port_sources_changed(port_root) else ''} ({port_count} public "
        "symbols). Declarations were read by a scanner; nothing was built.\n\n"
        "**What's in scope:** every `public`/`open` declaration in Kingfisher's `Sources/`: types, typealiases, "
        "functions, initializers, subscripts, properties, enum cases, protocol requirements and members of "
        "`public extension`s (a requirement and its default implementation are one row). Keys are "
        "`Container.name(label:)`; overloads that share one carry a `[suffix]` saying what tells them apart, and "
        "`KingfisherWrapper where Base: X` is `KingfisherWrapper<X>`. The port's names are read as Kingfisher's "
        "(`KingfisherImage` as `KFCrossPlatformImage`), and a member it provides through a protocol it conforms "
        "to counts as present. `same`: same normalised signature (labels, types, defaults, effects, return type, "
        "accessors). `different`: the note says how, Kingfisher's side first. `deliberate`: a difference listed "
        "on purpose in the notes file, with its reason (see the DocC article *Differences from Kingfisher*). "
        "`apple-only`: needs an Apple framework (by `#if`, file, imports, or Apple types in the signature). "
        "Behaviour, and `open` on members, are not compared.\n\n## Summary\n\n| Status | Rows |\n|---|---|\n")
    out.writelines(f"| {st} | {counts[st]} |\n" for st in STATUSES)
    out.write(f"| **total** | **{len(rows)}** |\n\nPortable rows still `missing` or `different` without a note: "
              f"{len(open_rows)}. Port extras (public symbols Kingfisher lacks, not rows): {extras}.\n\n")
    if open_rows:
        out.write("## Open portable rows\n\n")
        for file in sorted({s.file for s, _ in open_rows}):
            out.write(f"- {file}: " + ", ".join(f"`{s.key}` ({st})" for s, st in open_rows if s.file == file) + "\n")
    out.write("\n## Full table\n\nKingfisher file paths are relative to `Sources/`.\n\n"
              "| Kingfisher symbol | file in Kingfisher | port status | note |\n|---|---|---|---|\n")
    for s, status, note in rows:
        kind = f" ({s.kind})" if s.kind in TYPE_KINDS | {"typealias", "associatedtype"} else ""
        note += " [deprecated]" * (s.deprecated == "deprecated" and "deprecated" not in note)
        out.write(f"| `{cell(s.key)}`{kind} | {s.file} | {status} | {cell(note)} |\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["extract", "compare"])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--kingfisher", metavar="DIR", help="Kingfisher checkout (Sources/, Kingfisher.podspec)")
    source.add_argument("--symbols", metavar="FILE", help="symbols TSV written by `extract` (compare only)")
    parser.add_argument("--kingfisher-commit", metavar="SHA", help="the checkout's commit, if not a git work tree")
    parser.add_argument("--port", metavar="DIR", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="this library's checkout (default: the one holding this script)")
    parser.add_argument("--notes", metavar="FILE", help="hand-kept notes: key<TAB>status<TAB>note")
    parser.add_argument("--check", action="store_true", help="exit 1 if a portable row is open")
    args = parser.parse_args()
    if args.mode == "extract" and not args.kingfisher:
        parser.error("extract reads a Kingfisher checkout: give --kingfisher DIR")
    meta, kf_symbols = read_kingfisher(args)
    if args.mode == "extract":
        return write_symbols_tsv(meta, kf_symbols, sys.stdout)
    scanner = scan_sources([os.path.join(args.port, "Sources", m) for m in PORT_MODULES])
    port = PortIndex(scanner, kf_symbols)
    rows = build_rows(kf_symbols, port, read_notes(args.notes))
    if args.check:
        open_rows = [(s, st, note) for s, st, note in rows if st in ("missing", "different")]
        print("".join(f"{st}\t{s.key}\t{s.file}\t{note}\n" for s, st, note in open_rows), end="")
        sys.exit(1 if open_rows else 0)
    extras = len({s.base_key for s in scanner.public_symbols() if id(s) not in port.used})
    render_markdown(meta, rows, args.port, len(scanner.public_symbols()), extras, sys.stdout)


if __name__ == "__main__":
    main()
