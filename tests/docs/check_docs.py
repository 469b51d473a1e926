#!/usr/bin/env python3
"""The manual stays a manual: no page of docs/ over --max-page-lines lines,
docs/ under --max-total-lines lines in all (Markdown pages; the generated
tables named by --generated are left out of both counts), and every
relative link of docs/ and README.md pointing at a file that exists.

  check_docs.py --root <clone> [--max-page-lines N] [--max-total-lines N]
                [--generated docs/x.md ...]
  check_docs.py --self-test      (the checks on a tree made to fail them)

Prints what it measured; exits 1 naming each page over the limit, the
total and each broken link (file and line).
"""
import argparse
import os
import re
import sys
import tempfile

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def pages(root):
    docs = os.path.join(root, "docs")
    for d, _, files in os.walk(docs):
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.relpath(os.path.join(d, f), root)


def links(path):
    """(line number, target) of each link outside fenced code blocks and inline code."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                yield n, target


def broken_links(root, rel):
    here = os.path.dirname(os.path.join(root, rel))
    for n, target in links(os.path.join(root, rel)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL, or an anchor in the same page
        path = target.split("#", 1)[0]
        if not os.path.exists(os.path.normpath(os.path.join(here, path))):
            yield f"{rel}:{n}: link to a missing file: {target}"


def check(root, max_page, max_total, generated):
    problems, total, counted = [], 0, 0
    sizes = []
    for rel in pages(root):
        if rel in generated:
            continue
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            n = sum(1 for _ in f)
        sizes.append((n, rel))
        total += n
        counted += 1
        if n > max_page:
            problems.append(f"{rel}: {n} lines, over the limit of {max_page} a page")
    if total > max_total:
        problems.append(f"docs/: {total} lines in {counted} pages, over the limit of {max_total}")
    for rel in [p for p in pages(root)] + ["README.md"]:
        if os.path.exists(os.path.join(root, rel)):
            problems.extend(broken_links(root, rel))
    for n, rel in sorted(sizes, reverse=True):
        print(f"{n:5d} {rel}")
    print(f"{total:5d} lines in {counted} pages (limits: {max_page} a page, {max_total} in all; "
          f"not counted: {', '.join(sorted(generated)) or 'none'})")
    return problems


def self_test():
    """The checks must fail a tree that breaks each rule, and pass one that does not."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs", "sub"))

        def write(rel, text):
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)

        write("README.md", "[ok](docs/a.md) [anchor](docs/a.md#x) [web](https://example.org)\n")
        write("docs/a.md", "# A\n[up](../README.md) [b](sub/b.md) [same](#a)\n"
                           "```\n[in code](missing.md)\n```\n`[inline](missing.md)`\n")
        write("docs/sub/b.md", "line\n" * 9)
        write("docs/sub/gen.md", "row\n" * 50)
        good = check(root, 10, 20, {"docs/sub/gen.md"})
        assert good == [], good

        write("docs/sub/b.md", "line\n" * 11)
        write("README.md", "[gone](docs/gone.md)\n")
        write("docs/c.md", "x\n" * 9 + "![img](img/none.png)\n")
        bad = check(root, 10, 20, {"docs/sub/gen.md"})
        expect = ["docs/sub/b.md: 11 lines", "docs/: 27 lines in 3 pages",
                  "README.md:1: link to a missing file: docs/gone.md",
                  "docs/c.md:10: link to a missing file: img/none.png"]
        for e in expect:
            assert any(p.startswith(e) for p in bad), (e, bad)
        assert len(bad) == len(expect), bad
    print("self-test: passed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root")
    ap.add_argument("--max-page-lines", type=int, default=250)
    ap.add_argument("--max-total-lines", type=int, default=1400)
    ap.add_argument("--generated", nargs="*", default=[])
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return 0
    if not a.root:
        ap.error("--root is needed (the clone to check)")
    problems = check(a.root, a.max_page_lines, a.max_total_lines, set(a.generated))
    for p in problems:
        print("error:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
