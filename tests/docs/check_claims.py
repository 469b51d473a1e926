#!/usr/bin/env python3
"""What the README and docs/ claim about lists and counts, checked on the
tree, so that a claim that stops being true fails a test:

 - "Adding a BFS variant: one file and one row" (README, docs/design.md):
   each row HT_BFS_VARIANT(<name>) of src/graph/bfs/HT_BfsVariant.def has
   its file src/graph/bfs/HT_Bfs<Name>.cpp, which defines the row
   (`BfsVariant bfs_<name>`, named "<name>"), and no header of its own; no
   file includes a variant's file; every row defined in src/ is in the list.
 - "every list a user reads comes from the table": no line of src/ (outside
   the variant's own file), apps/, perf/, scripts/, cmake/ or a CMakeLists.txt
   names two variants (a hand-kept list a new variant would miss; tests/ may
   pick variants to test), and no paragraph of README.md or docs/ names them
   all or counts them ("six variants").
 - "one driver list": the drivers are the mains apps/<name>.cpp; no line
   outside tests/ names them all, and a count of drivers or applications in
   README.md or docs/ ("three drivers") is their number.
 - "in N files": a count of files in README.md or docs/ is followed, in its
   paragraph, by exactly N file names in backticks.
 - "tests/ mirrors src/" (docs/design.md): each unit test
   tests/<folder>/tst<Name>.cpp (tstMain.cpp aside) sits in a folder that
   src/ has, and when src/ has a file HT_<Name>.*, in that file's folder.

  check_claims.py --root <clone>
  check_claims.py --self-test      (the checks on a tree made to fail each)

Prints what it checked; exits 1 naming each broken claim (file and line).
"""
import argparse
import glob
import os
import re
import sys
import tempfile

NUMBERS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
COUNT = r"\b(\d+|" + "|".join(NUMBERS) + r")"
LISTING_DIRS = ("src", "apps", "perf", "scripts", "cmake")
TEXT = (".cpp", ".hpp", ".def", ".txt", ".cmake", ".sh", ".py", ".sbatch", ".yaml", ".xml")
FILE_SPAN = re.compile(r"`([^`\s]*(?:/|\.(?:cpp|hpp|h|py|sh|md|yaml|xml|cmake|txt|def))[^`\s]*)`")


def number(word):
    return int(word) if word.isdigit() else NUMBERS[word.lower()]


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def capital(name):
    return name[:1].upper() + name[1:]


def variant_rows(root):
    """The names in HT_BfsVariant.def, in order."""
    text = read(os.path.join(root, "src/graph/bfs/HT_BfsVariant.def"))
    return re.findall(r"^HT_BFS_VARIANT\((\w+)\)$", text, re.M)


def drivers(root):
    return sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(root, "apps", "*.cpp")))


def files_under(root, tops, suffixes=TEXT):
    """Relative paths of the text files under each of \\p tops (a folder or
    a file), builds aside."""
    for top in tops:
        path = os.path.join(root, top)
        if os.path.isfile(path):
            yield top
            continue
        for d, dirs, files in os.walk(path):
            dirs[:] = sorted(x for x in dirs if not x.startswith(("build", ".")))
            for f in sorted(files):
                if f.endswith(suffixes) or f == "CMakeLists.txt" or "." not in f:
                    yield os.path.relpath(os.path.join(d, f), root)


def words_named(line, names):
    """The \\p names a line holds as whole words, not as part of a C++ or
    shell name (`ht::mpi::`, `std::atomic`, `HT_BfsMpi`, `--mpi=`)."""
    found = set()
    for name in names:
        for m in re.finditer(r"(?<![\w:/=.])(?<!--)(?<!\w-)" + re.escape(name) + r"(?![\w:/(<-])", line):
            found.add(name)
            break
    return found


def paragraphs(path):
    """(first line number, text) of each blank-line-separated block outside
    fenced code."""
    block, start, fenced = [], 0, False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if re.match(r"^\s*(```|~~~)", line):
                fenced = not fenced
                continue
            if fenced:
                continue
            if line.strip():
                if not block:
                    start = n
                block.append(line)
            elif block:
                yield start, "".join(block)
                block = []
    if block:
        yield start, "".join(block)


def doc_pages(root):
    pages = ["README.md"] if os.path.exists(os.path.join(root, "README.md")) else []
    for d, _, files in os.walk(os.path.join(root, "docs")):
        pages += [os.path.relpath(os.path.join(d, f), root) for f in sorted(files) if f.endswith(".md")]
    return pages


def check_variant_files(root, rows):
    bfs = os.path.join(root, "src/graph/bfs")
    for name in rows:
        rel = f"src/graph/bfs/HT_Bfs{capital(name)}.cpp"
        if not os.path.exists(os.path.join(root, rel)):
            yield f"HT_BfsVariant.def: row {name}: no file {rel}"
            continue
        text = read(os.path.join(root, rel))
        if not re.search(r"\bBfsVariant\s+bfs_" + name + r"\s*\{\s*\"" + name + '"', text):
            yield f"{rel}: defines no row `BfsVariant bfs_{name}{{\"{name}\", ...}}`"
        if os.path.exists(os.path.join(bfs, f"HT_Bfs{capital(name)}.hpp")):
            yield f"src/graph/bfs/HT_Bfs{capital(name)}.hpp: variant {name} is one file; " \
                  "what others share goes to impl/"
    heads = {f"HT_Bfs{capital(name)}." for name in rows}
    for rel in files_under(root, ("src", "tests", "apps", "examples", "perf")):
        text = read(os.path.join(root, rel))
        for n, line in enumerate(text.splitlines(), 1):
            m = re.match(r'\s*#\s*include\s*["<][^">]*/(HT_Bfs\w+\.)', line)
            if m and m.group(1) in heads:
                yield f"{rel}:{n}: includes a variant's file; what it shares goes to impl/"
        if rel.startswith("src/") and rel.endswith(".cpp"):
            for m in re.finditer(r"\bBfsVariant\s+bfs_(\w+)\s*\{", text):
                if m.group(1) not in rows:
                    yield f"{rel}: row bfs_{m.group(1)} is not in HT_BfsVariant.def"


def check_variant_lists(root, rows):
    own = {f"src/graph/bfs/HT_Bfs{capital(n)}.cpp" for n in rows} | {"src/graph/bfs/HT_BfsVariant.def"}
    tops = list(LISTING_DIRS) + ["CMakeLists.txt"]
    for rel in files_under(root, tops):
        if rel in own:
            continue
        for n, line in enumerate(read(os.path.join(root, rel)).splitlines(), 1):
            named = words_named(line, rows)
            if len(named) >= 2:
                yield (f"{rel}:{n}: names the variants {', '.join(sorted(named))}: a list of its "
                       "own; select by --list variants (work, traits) or the table")
    every = set(rows)
    for rel in doc_pages(root):
        for n, text in paragraphs(os.path.join(root, rel)):
            spans = set(re.findall(r"`(\w+)`", text))
            if len(every) > 1 and every <= spans:
                yield (f"{rel}:{n}: names every BFS variant: a list the next one misses; "
                       "point at `graph500_bfs --list variants` or --help")
            for m in re.finditer(COUNT + r" (?:BFS )?variants\b", text, re.I):
                yield (f"{rel}:{n}: '{m.group(0)}': a count the next variant breaks; "
                       "point at `graph500_bfs --list variants`")


def check_drivers(root):
    names = drivers(root)
    if not names:
        yield "apps/: no driver mains (apps/<name>.cpp)"
        return
    tops = list(LISTING_DIRS) + ["CMakeLists.txt", "input", "spack", ".ci"]
    for rel in list(files_under(root, tops)) + doc_pages(root):
        for n, line in enumerate(read(os.path.join(root, rel)).splitlines(), 1):
            if len(names) > 1 and words_named(line, names) == set(names):
                yield (f"{rel}:{n}: names every driver: a second list; the drivers are "
                       "apps/*.cpp (CMake's HT_DRIVERS, ht::driver_names())")
    for rel in doc_pages(root):
        for n, text in paragraphs(os.path.join(root, rel)):
            for m in re.finditer(COUNT + r" (drivers|applications)\b", text, re.I):
                if number(m.group(1)) != len(names):
                    yield f"{rel}:{n}: '{m.group(0)}': there are {len(names)} (apps/*.cpp)"


def check_file_counts(root):
    for rel in doc_pages(root):
        for n, text in paragraphs(os.path.join(root, rel)):
            for m in re.finditer(COUNT + r" (?:[a-z-]+ )?files\b", text, re.I):
                listed = set(FILE_SPAN.findall(text[m.end():]))
                if number(m.group(1)) != len(listed):
                    yield (f"{rel}:{n}: '{m.group(0)}', then {len(listed)} file names in "
                           "backticks: name them all, or give no number")


def check_test_folders(root):
    where = {}
    for p in glob.glob(os.path.join(root, "src", "**", "HT_*.*"), recursive=True):
        name = os.path.basename(p).split(".")[0][3:]
        where.setdefault(name, set()).add(os.path.relpath(os.path.dirname(p), os.path.join(root, "src")))
    for p in sorted(glob.glob(os.path.join(root, "tests", "**", "tst*.cpp"), recursive=True)):
        rel = os.path.relpath(p, root)
        folder = os.path.relpath(os.path.dirname(p), os.path.join(root, "tests"))
        if folder == ".":
            continue  # the tests' main
        name = os.path.basename(p)[3:-4]
        if not os.path.isdir(os.path.join(root, "src", folder)):
            yield f"{rel}: tests/{folder}/ mirrors no src/{folder}/"
        elif name in where and folder not in where[name]:
            yield (f"{rel}: HT_{name} is in src/{', src/'.join(sorted(where[name]))}/; "
                   f"its test goes to tests/ the same way")


def check(root):
    rows = variant_rows(root)
    problems = []
    for part in (check_variant_files(root, rows), check_variant_lists(root, rows),
                 check_drivers(root), check_file_counts(root), check_test_folders(root)):
        problems.extend(part)
    print(f"{len(rows)} BFS variants ({', '.join(rows)}), {len(drivers(root))} drivers "
          f"({', '.join(drivers(root))}), {len(doc_pages(root))} pages checked")
    return problems


def self_test():
    """Each check must fail a tree that breaks its claim, and pass one that does not."""
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)

        write("src/graph/bfs/HT_BfsVariant.def", "// the list\nHT_BFS_VARIANT(plain)\nHT_BFS_VARIANT(claim)\n")
        for name in ("plain", "claim"):
            write(f"src/graph/bfs/HT_Bfs{capital(name)}.cpp",
                  f'#include "graph/bfs/impl/HT_Share.hpp"\n'
                  f'extern const BfsVariant bfs_{name}{{"{name}", "doc"}};\n')
        write("src/graph/bfs/impl/HT_Share.hpp", "// what plain shares\n")
        write("src/graph/HT_Csr.hpp", "std::plain<int> x; ht::claim::x; --plain=1;  // claim\n")
        write("src/drivers/HT_Config.cpp", 'std::string doc = "tasks: " + names(); // plain\n')
        write("apps/one.cpp", "int main() {}\n")
        write("apps/two.cpp", "int main() {}\n")
        write("scripts/run", 'drivers=("$HT_ROOT"/apps/*.cpp)\nrun one\n')
        write("perf/bfs.sh", 'variants=$(ht_pick "$exe" visits_once)  # e.g. claim\n')
        write("tests/graph/tstCsr.cpp", "// plain and claim, both\n")
        write("tests/graph/bfs/tstBfsShapes.cpp", "\n")
        write("tests/tstMain.cpp", "\n")
        write("README.md", "Two drivers:\n\n| `one` |\n| `two` |\n\n"
                           "Variants: `plain` and more (`--list variants`).\n")
        write("docs/a.md", "# A\n\nA search in 2 files: `src/a.cpp`, `HT_B.hpp`.\n\n"
                           "```\nplain claim in code, `plain` `claim`, 9 files\n```\n")
        good = check(root)
        assert good == [], good

        write("src/graph/bfs/HT_BfsVariant.def", "HT_BFS_VARIANT(plain)\nHT_BFS_VARIANT(claim)\n"
                                                 "HT_BFS_VARIANT(gone)\n")
        write("src/graph/bfs/HT_BfsClaim.hpp", "struct Shared {};\n")
        write("src/graph/bfs/HT_BfsOther.cpp", '#include "graph/bfs/HT_BfsClaim.hpp"\n'
                                               'extern const BfsVariant bfs_other{"other"};\n')
        write("src/drivers/HT_Config.cpp", 'std::string doc = "tasks: plain and claim";\n')
        write("perf/bfs.sh", 'variants=${4:-plain claim}\n')
        write("scripts/run", "drivers=(one two)\n")
        write("README.md", "Three drivers.\n\nVariants: `plain`, `claim` and `gone`.\n\n"
                           "Both 2 variants.\n")
        write("docs/a.md", "# A\n\nA search in 3 files: `src/a.cpp`, `HT_B.hpp`.\n")
        write("tests/nowhere/tstX.cpp", "\n")
        write("tests/graph/tstShare.cpp", "\n")
        bad = check(root)
        expect = ["HT_BfsVariant.def: row gone: no file src/graph/bfs/HT_BfsGone.cpp",
                  "src/graph/bfs/HT_BfsClaim.hpp: variant claim is one file",
                  "src/graph/bfs/HT_BfsOther.cpp:1: includes a variant's file",
                  "src/graph/bfs/HT_BfsOther.cpp: row bfs_other is not in HT_BfsVariant.def",
                  "src/drivers/HT_Config.cpp:1: names the variants claim, plain",
                  "perf/bfs.sh:1: names the variants claim, plain",
                  "README.md:3: names every BFS variant",
                  "README.md:5: '2 variants'",
                  "scripts/run:1: names every driver",
                  "README.md:1: 'Three drivers': there are 2",
                  "docs/a.md:3: '3 files', then 2 file names",
                  "tests/nowhere/tstX.cpp: tests/nowhere/ mirrors no src/nowhere/",
                  "tests/graph/tstShare.cpp: HT_Share is in src/graph/bfs/impl/"]
        for e in expect:
            assert any(p.startswith(e) for p in bad), (e, bad)
        assert len(bad) == len(expect), bad
    print("self-test: passed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return 0
    if not a.root:
        ap.error("--root is needed (the clone to check)")
    problems = check(a.root)
    for p in problems:
        print("error:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
