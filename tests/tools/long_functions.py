#!/usr/bin/env python3
"""Lists the functions of src/ longer than a limit (100 lines by default),
longest first: file:line, lines, name.  A simple scan, not a parser:
comments, strings and character literals are blanked, then a `{` whose
preceding text (since the last `;`, `{` or `}`) has a parameter list and
is not a control statement, a namespace, a class or an initializer opens a
function, which ends at its matching `}`; lambdas and local classes count
within the function that holds them.  Lines: from the line of the name to
the closing brace.

  long_functions.py [--limit N] [root]      (root: the clone; default .)
Exits 1 when it lists any.
"""
import argparse
import os
import re
import sys

CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else|try)\b")
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b[^()]*$")


def blank(text):
    """Comments, string and character literals become spaces; newlines stay."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|R"(\w*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|'
                         r"'(?:\\.|[^'\\\n])*'", re.S)
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def functions(text):
    """(first line, last line, name) of each function body in \\p text."""
    code = blank(text)
    depth, start, head_from, inside = 0, None, 0, None
    for i, c in enumerate(code):
        if c == "{":
            if inside is None:
                head = code[head_from:i]
                m = re.search(r"([~\w:]+|operator\s*[^\s(]+)\s*\(", head)
                if (m and ")" in head and not CONTROL.match(head) and not SCOPE.search(head)
                        and not head.rstrip().endswith("=")):
                    inside, start = depth, (code.count("\n", 0, head_from + m.start()) + 1,
                                            m.group(1))
            depth += 1
            head_from = i + 1
        elif c == "}":
            depth -= 1
            head_from = i + 1
            if inside is not None and depth == inside:
                yield start[0], code.count("\n", 0, i) + 1, start[1]
                inside = None
        elif c == ";":
            head_from = i + 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", nargs="?", default=".")
    ap.add_argument("--limit", type=int, default=100)
    a = ap.parse_args()
    found = []
    for d, _, files in os.walk(os.path.join(a.root, "src")):
        for f in sorted(files):
            if f.endswith((".cpp", ".hpp")):
                path = os.path.join(d, f)
                with open(path, encoding="utf-8") as fh:
                    for first, last, name in functions(fh.read()):
                        if last - first + 1 > a.limit:
                            found.append((last - first + 1, os.path.relpath(path, a.root), first,
                                          name))
    for n, path, line, name in sorted(found, reverse=True):
        print(f"{path}:{line}: {n} lines: {name}")
    print(f"{len(found)} function(s) over {a.limit} lines in src/")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
