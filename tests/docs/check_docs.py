#!/usr/bin/env python3
"""The manual stays a manual, and true: no page of docs/ over
--max-page-lines lines, docs/ under --max-total-lines lines in all (Markdown
pages; the generated tables named by --generated are left out of both
counts), README.md under --max-readme-lines, every relative link of docs/
and README.md pointing at a file that exists, and what they name in
backticks found in the tree.

The backtick rule, for each `span` outside fenced blocks (a span with a
space: its first word only):
 - a path, when its first folder is one of the clone's top-level entries
   (`src/...`, `docs/...`, `.ci/run`) or it ends in a file extension
   (`HT_Trials.hpp`, `impl/HT_Level.hpp`): it must exist, from the root
   (with its extension, or without: `src/comm/HT_Exchange`), or for a
   name not rooted so, as the end of some path in the tree; placeholders
   (`<name>`, `{hpp,cpp}`, `*`) match anything.  Not checked: what
   .gitignore names by path (a build's or a run's output, a site's own file:
   `build/...`, `results/...`), absolute, `~` or `$` paths, flags (`-...`),
   assignments (`HT_TASKS=openmp`).
 - an identifier, when it starts with `ht::`, or has a `::` or a call's
   `(...)` (`ht::run_app`, `BfsKernel::search`, `stats()`): each of its
   names must be a word of a C++ file of src/, apps/ or examples/; other
   libraries' (`std::`, `Kokkos::`, `MPI_...`, ...) are not checked.
Anything else (deck keys, results' datasets, shell words) is prose.

With --code-blocks it checks instead that no C++ file of src/ holds a
Doxygen `\code` (or `@code`) block: nothing builds those, so they rot; a
brief names compiled code instead (`/// Example: examples/exchange.cpp`).

  check_docs.py --root <clone> [--max-page-lines N] [--max-total-lines N]
                [--max-readme-lines N] [--generated docs/x.md ...]
  check_docs.py --root <clone> --code-blocks
  check_docs.py --self-test      (the checks on a tree made to fail them)

Prints what it measured; exits 1 naming each page over the limit, the
total, each broken link and each missing path or name (file and line).
"""
import argparse
import os
import re
import sys
import tempfile
from fnmatch import fnmatchcase

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def pages(root):
    docs = os.path.join(root, "docs")
    for d, _, files in os.walk(docs):
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.relpath(os.path.join(d, f), root)


def prose_lines(path):
    """(line number, line) of each line outside fenced code blocks."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
            elif not fenced:
                yield n, line


def links(path):
    """(line number, target) of each link outside fenced code blocks and inline code."""
    for n, line in prose_lines(path):
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            yield n, target


def code_spans(path):
    """(line number, text) of each inline code span outside fenced blocks."""
    for n, line in prose_lines(path):
        for span in re.findall(r"`([^`]+)`", line):
            yield n, span


EXTENSION = re.compile(r"\.(cpp|hpp|h|py|sh|md|yaml|xml|cmake|txt|sbatch|csv|png|json)$")
IDENTIFIER = re.compile(r"^((?:[A-Za-z_]\w*::)*[A-Za-z_]\w*)(<[^>]*>)?(\([\w\s,()<>]*\))?$")
SKIPPED_PATHS = ("/", "~", "$")
OTHER_LIBRARIES = ("std", "Kokkos", "KokkosBlas", "KokkosBatched", "Teuchos", "h5py")


class Tree:
    """What the checked names are looked up in: every file and folder of the
    clone (builds and .git aside) and the words of its C++ sources."""

    def __init__(self, root):
        self.top = set(os.listdir(root))
        # .gitignore's entries that name paths (not "*.h5"): made here, never tracked.
        self.ignored = []
        if os.path.exists(os.path.join(root, ".gitignore")):
            with open(os.path.join(root, ".gitignore"), encoding="utf-8") as f:
                self.ignored = [x.strip().strip("/") for x in f
                                if x.strip() and x.strip()[0] not in "#!*"]
        self.paths, self.words = set(), set()
        for d, dirs, files in os.walk(root):
            rel = os.path.relpath(d, root)
            dirs[:] = [x for x in dirs if not (rel == "." and (x.startswith("build") or x in
                                                              (".git", "results")))]
            for name in dirs + files:
                self.paths.add(os.path.normpath(os.path.join(rel, name)))
            first = rel.split(os.sep)[0]
            for name in files:
                if first in ("src", "apps", "examples") and name.endswith((".hpp", ".cpp")):
                    with open(os.path.join(d, name), encoding="utf-8", errors="replace") as f:
                        self.words.update(re.findall(r"\w+", f.read()))

    def is_ignored(self, path):
        return any(fnmatchcase(path.rstrip("/"), x) or fnmatchcase(path, x + "/*")
                   for x in self.ignored)

    def has_path(self, path):
        pattern = re.sub(r"<[^>]*>|\{[^}]*\}|\[[^\]]*\]", "*", path.rstrip("/"))
        rooted = pattern.split("/")[0] in self.top
        for p in self.paths:
            for candidate in (pattern, pattern + ".*"):
                if fnmatchcase(p, candidate) or (not rooted and fnmatchcase(p, "*/" + candidate)):
                    return True
        return False


def wrong_names(root, rel, tree):
    for n, span in code_spans(os.path.join(root, rel)):
        word = span.split()[0] if span.split() else ""
        if word.startswith(("-", "<") + SKIPPED_PATHS) or "=" in word:
            continue  # a flag, a placeholder, what a build or a run makes, an assignment
        if tree.is_ignored(word):
            continue
        rooted = "/" in word and word.split("/")[0] in tree.top
        if rooted or (EXTENSION.search(word) and not word.startswith(".")):
            if not tree.has_path(word):
                yield f"{rel}:{n}: `{span}`: no such path in the tree"
            continue
        m = IDENTIFIER.match(span.strip())
        if m and (span.startswith("ht::") or "::" in span or m.group(3)):
            names = m.group(1).split("::")
            if names[0] in OTHER_LIBRARIES or names[0].startswith("MPI_"):
                continue
            missing = [x for x in names if x != "ht" and x not in tree.words]
            if missing:
                yield f"{rel}:{n}: `{span}`: {', '.join(missing)} named nowhere in src/, apps/, examples/"


def broken_links(root, rel):
    here = os.path.dirname(os.path.join(root, rel))
    for n, target in links(os.path.join(root, rel)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL, or an anchor in the same page
        path = target.split("#", 1)[0]
        if not os.path.exists(os.path.normpath(os.path.join(here, path))):
            yield f"{rel}:{n}: link to a missing file: {target}"


def check(root, max_page, max_total, generated, max_readme=120):
    problems, total, counted = [], 0, 0
    tree = Tree(root)
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
            problems.extend(wrong_names(root, rel, tree))
    readme = os.path.join(root, "README.md")
    if os.path.exists(readme):
        with open(readme, encoding="utf-8") as f:
            n = sum(1 for _ in f)
        print(f"{n:5d} README.md (limit: {max_readme})")
        if n > max_readme:
            problems.append(f"README.md: {n} lines, over the limit of {max_readme}")
    for n, rel in sorted(sizes, reverse=True):
        print(f"{n:5d} {rel}")
    print(f"{total:5d} lines in {counted} pages (limits: {max_page} a page, {max_total} in all; "
          f"not counted: {', '.join(sorted(generated)) or 'none'})")
    return problems


CODE_BLOCK = re.compile(r"^\s*//[/!]?.*[\\@]code\b")


def code_blocks(root):
    """Each `\\code` block of a C++ file of src/, as file:line."""
    for d, dirs, files in os.walk(os.path.join(root, "src")):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith((".hpp", ".h", ".cpp")):
                continue
            path = os.path.join(d, f)
            with open(path, encoding="utf-8") as fh:
                for n, line in enumerate(fh, 1):
                    if CODE_BLOCK.match(line):
                        yield (f"{os.path.relpath(path, root)}:{n}: a \\code block, which nothing "
                               "compiles; name compiled code instead (/// Example: <path>)")


def self_test():
    """The checks must fail a tree that breaks each rule, and pass one that does not."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs", "sub"))

        def write(rel, text):
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)

        os.makedirs(os.path.join(root, "src", "comm"))
        write(".gitignore", "/build*/\n/results/\n*.h5\nsrc/site.yaml\n")
        write("src/comm/HT_Pump.hpp", "namespace ht { struct Pump { void start(); }; }\n")
        write("README.md", "[ok](docs/a.md) [anchor](docs/a.md#x) [web](https://example.org)\n"
                           "`src/comm/HT_Pump.hpp` `src/comm/HT_Pump` `HT_Pump.hpp` `comm/` "
                           "`src/<layer>/HT_<Name>.{hpp,cpp}` `docs/a.md --x` `build/apps/x` "
                           "`results/r.h5` `src/site.yaml` `-n 2` `HT_TASKS=openmp` `Output/file` `bfs/teps`\n"
                           "`ht::Pump` `Pump::start()` `start(rt, n)` `std::thread` `MPI_Isend()`\n")
        write("docs/a.md", "# A\n[up](../README.md) [b](sub/b.md) [same](#a)\n"
                           "```\n[in code](missing.md)\n`src/missing.cpp`\n```\n"
                           "`[inline](missing.md)`\n")
        write("docs/sub/b.md", "line\n" * 9)
        write("docs/sub/gen.md", "row\n" * 50)
        good = check(root, 10, 20, {"docs/sub/gen.md"}, 3)
        assert good == [], good
        write("src/comm/HT_Ok.hpp", "/// \\brief Code.\n///\n/// Example: examples/x.cpp.\n")
        assert list(code_blocks(root)) == []

        write("docs/sub/b.md", "line\n" * 11)
        write("README.md", "[gone](docs/gone.md)\n`src/comm/HT_Pmup.hpp` `HT_Gone.cpp`\n"
                           "`src/run -n 2` `ht::Pumps` `Pump::stop()`\n\n")
        write("docs/c.md", "x\n" * 9 + "![img](img/none.png)\n")
        bad = check(root, 10, 20, {"docs/sub/gen.md"}, 3)
        expect = ["docs/sub/b.md: 11 lines", "docs/: 28 lines in 3 pages",
                  "README.md:1: link to a missing file: docs/gone.md",
                  "docs/c.md:10: link to a missing file: img/none.png",
                  "README.md:2: `src/comm/HT_Pmup.hpp`: no such path",
                  "README.md:2: `HT_Gone.cpp`: no such path",
                  "README.md:3: `src/run -n 2`: no such path",
                  "README.md:3: `ht::Pumps`: Pumps named nowhere",
                  "README.md:3: `Pump::stop()`: stop named nowhere",
                  "README.md: 4 lines, over the limit of 3"]
        for e in expect:
            assert any(p.startswith(e) for p in bad), (e, bad)
        assert len(bad) == len(expect), bad

        write("src/comm/HT_Pump.hpp", "/// \\brief A pump.\n///\n/// Example:\n/// \\code\n"
                                      "///   ht::Pump p;\n/// \\endcode\n")
        write("src/comm/HT_Ok.hpp", "int x;\n   //! @code\n")
        bad = list(code_blocks(root))
        expect = ["src/comm/HT_Ok.hpp:2: a \\code block", "src/comm/HT_Pump.hpp:4: a \\code block"]
        assert [b[:len(e)] for b, e in zip(bad, expect)] == expect and len(bad) == 2, bad
    print("self-test: passed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root")
    ap.add_argument("--max-page-lines", type=int, default=250)
    ap.add_argument("--max-total-lines", type=int, default=1400)
    ap.add_argument("--max-readme-lines", type=int, default=120)
    ap.add_argument("--generated", nargs="*", default=[])
    ap.add_argument("--code-blocks", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return 0
    if not a.root:
        ap.error("--root is needed (the clone to check)")
    if a.code_blocks:
        problems = list(code_blocks(a.root))
        print(f"{len(problems)} \\code block(s) in src/")
    else:
        problems = check(a.root, a.max_page_lines, a.max_total_lines, set(a.generated),
                         a.max_readme_lines)
    for p in problems:
        print("error:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
