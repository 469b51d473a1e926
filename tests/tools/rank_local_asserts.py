#!/usr/bin/env python3
"""Lists the rank-local exits of tests/ that leave other ranks waiting: an
ASSERT_* (ASSERT_NO_FATAL_FAILURE of a helper that has one), FAIL(),
GTEST_SKIP() or `return;` that one rank may take alone, in a function that
makes a communicating call after it, or anywhere in a loop around it; and
an agreed assertion (HT_ASSERT_ALL*) in an `if` on the rank, which the
other ranks never reach.  The rank that returns never reaches the call; the
others wait in it for ever.

  rank_local_asserts.py [--root R]    (the clone; default .)  exits 1 on any
  rank_local_asserts.py --self-test   (the rules on planted snippets)
  rank_local_asserts.py --list-calls  (the communicating calls it knows)

Communicating calls: MPI's collectives and point-to-point calls; the
functions and constructors of src/ that take an MPI_Comm or whose /// brief
calls them collective, called with as many arguments as one of their
declarations takes; the agreed assertions; and, repeatedly, the functions
and named lambdas of tests/ that make one, in the files that include them.
A lambda is a function of its own (its exits return from it alone), and so
is the statement of HT_ASSERT_ALL_NO_FATAL_FAILURE; a SetUp()'s exit skips
a test body that communicates.  The fix: an agreed assertion
(tests/assert_all.hpp) or an EXPECT_*.  An exit whose condition is the same
on every rank may say so, with the reason, on its line or in the comment
just above:  // lint: rank-uniform: <why>

A scan, not a parser: comments, strings and preprocessor lines are blanked,
brackets matched; a body without braces ends at its statement's `;`.
"""
import argparse
import os
import re
import sys
import tempfile

MPI_CALLS = re.compile(
    r"MPI_(I?(Barrier|Bcast|Reduce|Allreduce|Reduce_scatter(_block)?|Gatherv?|Allgatherv?|"
    r"Scatterv?|Alltoall[vw]?|Scan|Exscan)|Neighbor_\w+|Comm_(split(_type)?|dup|idup|create|"
    r"free)|Cart_create|Win_\w+|File_\w+|[BIS]?[Ss]end|Issend|Ibsend|Recv|Irecv|Sendrecv\w*|"
    r"Probe|Mprobe|Wait\w*)$")
# Named by src/'s rules but making no call: edge_slice and VertexRange read
# the rank and size, a Watchdog keeps its communicator; the briefs of
# Backoff and CommRecord::add_steps name a collective in passing.
NOT_CALLS = {"edge_slice", "VertexRange", "Watchdog", "Backoff", "add_steps"}
AGREED = ("HT_ASSERT_ALL", "HT_ASSERT_ALL_EQ", "HT_ASSERT_ALL_NO_FATAL_FAILURE")
KEYWORDS = {"if", "for", "while", "switch", "catch", "return", "sizeof", "do", "else", "try",
            "void", "decltype", "static_cast", "const_cast", "reinterpret_cast", "alignof"}
TEST_MACROS = {"TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P"}
RANK = re.compile(r"\b(\w+_)?rank(_\w+)?\b")
MARK = re.compile(r"lint:\s*rank-uniform:?\s*(.*)")
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b[^()]*$")
SPECIFIER = re.compile(r"(\b(const|override|noexcept|mutable|final|constexpr)|"
                       r"->\s*[\w:]+(\s*<[^{};]*>)?\s*[&*]*)\s*$")


def blank(text):
    """Comments, literals and preprocessor lines become spaces; newlines stay."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|R"(\w*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|'
                         r"'(?:\\.|[^'\\\n])*'|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.S | re.M)
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def marked_lines(text):
    """Lines whose exit is declared rank-uniform with a reason: the mark's own
    line, or the first code line after the comment block that holds it."""
    lines = text.split("\n")
    comment_only = [bool(re.match(r"\s*//", ln)) for ln in lines]
    out = set()
    for i, ln in enumerate(lines):
        m = MARK.search(ln)
        if not m or "//" not in ln[:m.start()] or len(m.group(1).strip()) < 10:
            continue
        out.add(i + 1)
        if comment_only[i]:
            j = i
            while j < len(lines) and comment_only[j]:
                j += 1
            out.add(j + 1)
    return out


class Source:
    """One file's blanked code, its matched brackets and its blocks."""

    def __init__(self, path, text):
        self.path, self.text, self.code = path, text, blank(text)
        self.match = {}
        stack = []
        for i, c in enumerate(self.code):
            if c in "({[":
                stack.append(i)
            elif c in ")}]" and stack:
                j = stack.pop()
                self.match[i], self.match[j] = j, i
        self.blocks = [self.classify(i) for i, c in enumerate(self.code) if c == "{"]
        self.blocks = [b for b in self.blocks if b]
        self.loops = self.find_loops()
        self.rank_branches = self.find_rank_branches()
        self.marked = marked_lines(text)

    def line(self, i):
        return self.code.count("\n", 0, i) + 1

    def classify(self, i):
        """(kind, open, close, name) of the block at \\p i: function, lambda, loop or None."""
        if i not in self.match:
            return None
        close, before = self.match[i], self.code[:i].rstrip()
        while True:
            m = SPECIFIER.search(before)
            if not m or m.start() == len(before):
                break
            before = before[:m.start()].rstrip()
        if before.endswith("]") and len(before) - 1 in self.match:
            return ("lambda", i, close, self.lambda_name(self.match[len(before) - 1]))
        if re.search(r"\bdo$", before):
            return ("loop", i, close, None)
        if not before.endswith(")") or len(before) - 1 not in self.match:
            return None
        head_start = max(before.rfind(";"), before.rfind("{"), before.rfind("}")) + 1
        if SCOPE.search(self.code[head_start:i]):
            return None
        paren = self.match[len(before) - 1]
        ahead = self.code[:paren].rstrip()
        if ahead.endswith("]") and len(ahead) - 1 in self.match:
            return ("lambda", i, close, self.lambda_name(self.match[len(ahead) - 1]))
        word = re.search(r"([~\w]+)\s*$", ahead)
        if not word:
            return None
        if word.group(1) in ("for", "while"):
            return None  # find_loops has it
        if word.group(1) in KEYWORDS or ahead.rstrip().endswith("="):
            return None
        return ("function", i, close, word.group(1))

    def lambda_name(self, bracket):
        """The variable a lambda whose capture opens at \\p bracket is stored in."""
        m = re.search(r"(\w+)\s*=\s*$", self.code[max(0, bracket - 200):bracket])
        return m.group(1) if m else None

    def find_loops(self):
        """(start, end) of each loop's repeated part: a while's condition, a
        for's condition and increment (not a range-for's range), and the body."""
        loops = []
        for m in re.finditer(r"\b(for|while|do)\b", self.code):
            if m.group(1) == "do":
                at = self.code.find("{", m.end())
                if at >= 0 and not self.code[m.end():at].strip() and at in self.match:
                    loops.append((m.start(), self.match[at]))
                continue
            paren = self.code.find("(", m.end())
            if paren < 0 or self.code[m.end():paren].strip() or paren not in self.match:
                continue
            after = self.match[paren] + 1
            rest = self.code[after:].lstrip()
            if rest.startswith(";"):
                continue  # do { } while (...);
            header = self.code[paren + 1:self.match[paren]]
            start = m.start() if m.group(1) == "while" or ";" in header else self.match[paren]
            loops.append((start, self.statement_end(after)))
        return loops

    def find_rank_branches(self):
        """(start, end) of each if statement whose condition names a rank."""
        out = []
        for m in re.finditer(r"\bif\s*\(", self.code):
            paren = m.end() - 1
            if paren in self.match and RANK.search(self.code[paren:self.match[paren]]):
                out.append((m.start(), self.statement_end(self.match[paren] + 1)))
        return out

    def statement_end(self, i):
        """The end of the statement from \\p i: its `;` at depth 0, or its block."""
        while i < len(self.code) and self.code[i].isspace():
            i += 1
        while i < len(self.code):
            c = self.code[i]
            if c in "([{" and i in self.match:
                j = self.match[i]
                if c == "{" and not re.match(r"\s*(else\b|\))", self.code[j + 1:]):
                    return j
                i = j
            elif c == ";":
                return i
            i += 1
        return i

    def params(self, brace):
        """The parameter list's text of the function or lambda opening at \\p brace."""
        before = self.code[:brace].rstrip()
        while True:
            m = SPECIFIER.search(before)
            if not m or m.start() == len(before):
                break
            before = before[:m.start()].rstrip()
        if before.endswith(")") and len(before) - 1 in self.match:
            return self.code[self.match[len(before) - 1] + 1:len(before) - 1]
        return ""

    def function_of(self, i):
        """The innermost function or lambda block around \\p i."""
        best = None
        for b in self.blocks:
            if b[0] in ("function", "lambda") and b[1] < i < b[2]:
                if best is None or b[1] > best[1]:
                    best = b
        return best


def arity(params):
    """(least, most) arguments of a parameter list's text; most None: variadic."""
    parts = [p for p in split_top(params) if p.strip() and p.strip() != "void"]
    if any("..." in p for p in parts):
        return (len([p for p in parts if "=" not in p and "..." not in p]), None)
    return (len([p for p in parts if "=" not in p]), len(parts))


def split_top(text):
    """\\p text split at its commas outside brackets."""
    parts, depth, cur = [], 0, ""
    for c in text:
        depth += {"(": 1, "[": 1, "{": 1, "<": 1, ")": -1, "]": -1, "}": -1, ">": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    return parts + [cur]


class Calls:
    """What the scan counts as communicating: src/'s names (with the argument
    counts of their declarations), its classes, and tests/' helpers, each
    seen only by the files that include the helper's file."""

    def __init__(self, root):
        self.names, self.classes = {}, set()
        for path in files(os.path.join(root, "src")):
            with open(path, encoding="utf-8") as f:
                self.read_src(f.read())
        for n in NOT_CALLS | KEYWORDS:
            self.names.pop(n, None)
        self.classes -= NOT_CALLS
        self.names.update({n: None for n in AGREED})
        self.helpers = {}  # name -> {path: (least, most)}

    def add(self, name, params):
        if self.names.get(name, ()) is not None:
            self.names.setdefault(name, set()).add(arity(params))

    def read_src(self, text):
        code = blank(text)
        for m in re.finditer(r"([A-Za-z_]\w*)\s*\(", code):
            depth, j = 1, m.end()
            while j < len(code) and depth:
                depth += {"(": 1, ")": -1}.get(code[j], 0)
                j += 1
            if "MPI_Comm" in code[m.end():j]:
                self.add(m.group(1), code[m.end():j - 1])
        lines, codes = text.split("\n"), code.split("\n")
        i = 0
        while i < len(lines):
            if not lines[i].lstrip().startswith("///"):
                i += 1
                continue
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("///"):
                j += 1
            doc = " ".join(lines[i:j])
            decl = ""
            while j < len(lines) and not re.search(r"[;{]", decl):
                decl += codes[j] + " "
                j += 1
            i = j
            if not re.search(r"(?<!no )\bcollective\b|\bCollective\b", doc):
                continue
            cls = re.match(r"\s*(?:class|struct)\s+(\w+)", decl)
            fn = re.search(r"([A-Za-z_]\w*)\s*\(([^;{]*)\)", decl)
            if cls:
                self.classes.add(cls.group(1))
            elif fn:
                self.add(fn.group(1), fn.group(2))
        for m in re.finditer(r"\b(?:class|struct)\s+(\w+)", code):
            if m.group(1) in self.names:
                self.classes.add(m.group(1))

    def known(self, name, args, visible):
        """Whether a call of \\p name with \\p args arguments communicates."""
        if MPI_CALLS.match(name):
            return True
        counts = set()
        if name in self.names:
            if self.names[name] is None:
                return True
            counts |= self.names[name]
        counts |= {a for p, a in self.helpers.get(name, {}).items() if p in visible}
        return any(lo <= args and (hi is None or args <= hi) for lo, hi in counts)

    def communicating(self, src, lo, hi):
        """Positions of the communicating calls in src.code[lo:hi]."""
        code, out = src.code, []
        for m in re.finditer(r"\b([A-Za-z_]\w*)\b", code[lo:hi]):
            name, at = m.group(1), lo + m.start()
            if code[max(0, at - 5):at] == "std::":
                continue
            rest = code[lo + m.end():hi]
            call = re.match(r"\s*(<[^;{}()]*>)?\s*\(", rest)
            if call:
                paren = lo + m.end() + call.end() - 1
                inside = code[paren + 1:src.match.get(paren, paren)]
                args = len(split_top(inside)) if inside.strip() else 0
                if self.known(name, args, src.visible):
                    out.append(at)
                    continue
            if name in self.classes and re.match(r"\s*(<[^;{}()]*>\s*)?(>\s*\(|(\w+\s*)?[({])",
                                                  rest):
                out.append(at)
        return out


def files(top):
    for d, _, names in sorted(os.walk(top)):
        for f in sorted(names):
            if f.endswith((".cpp", ".hpp", ".h")):
                yield os.path.join(d, f)


EXIT = re.compile(r"\b(ASSERT_\w+|GTEST_ASSERT_\w+|FAIL|GTEST_FAIL|GTEST_SKIP)\s*\(|"
                  r"\breturn\s*;")


def exits(src, fatal):
    """(start, end, what, fatal) of each exit in \\p src not marked rank-uniform."""
    agreed = [(m.end(), src.match.get(m.end() - 1, m.end()))
              for m in re.finditer(r"\bHT_ASSERT_ALL_NO_FATAL_FAILURE\s*\(", src.code)]
    for m in EXIT.finditer(src.code):
        if any(lo <= m.start() < hi for lo, hi in agreed):
            continue  # the statement runs in a function of its own, then all ranks agree
        what = m.group(1) or "return;"
        end = m.end()
        if m.group(1):
            end = src.match.get(m.end() - 1, m.end())
        if what == "ASSERT_NO_FATAL_FAILURE":
            inner = src.code[m.end():end]
            called = set(re.findall(r"\b(\w+)\s*(?:<[^;{}()]*>)?\s*\(", inner))
            if not any(fatal.get(c, set()) & src.visible for c in called):
                continue
        if src.line(m.start()) in src.marked:
            continue
        fails = what.startswith(("ASSERT", "GTEST_ASSERT")) or what in ("FAIL", "GTEST_FAIL")
        yield m.start(), end, what, fails


def read_tests(root):
    """The Sources of root/tests/, each knowing the test files it includes."""
    sources = {}
    for path in files(os.path.join(root, "tests")):
        with open(path, encoding="utf-8") as f:
            sources[os.path.relpath(path, root)] = Source(os.path.relpath(path, root), f.read())
    for s in sources.values():
        s.includes = set()
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', s.text, re.M):
            for cand in (os.path.join(os.path.dirname(s.path), inc), os.path.join("tests", inc)):
                if os.path.normpath(cand) in sources:
                    s.includes.add(os.path.normpath(cand))
                    break
    for s in sources.values():
        seen, todo = {s.path}, [s.path]
        while todo:
            for inc in sources[todo.pop()].includes - seen:
                seen.add(inc)
                todo.append(inc)
        s.visible = seen
    return list(sources.values())


def scan(root):
    """The hazards in root/tests/ as 'path:line: message' lines."""
    calls = Calls(root)
    sources = read_tests(root)
    # Test helpers and named lambdas that communicate, or fail fatally on one rank.
    fatal = {}
    while True:
        before = (sum(map(len, calls.helpers.values())), sum(map(len, fatal.values())))
        for s in sources:
            for kind, lo, hi, name in s.blocks:
                if kind not in ("function", "lambda") or not name or name in TEST_MACROS:
                    continue
                params = s.params(lo)
                if calls.communicating(s, lo, hi):
                    calls.helpers.setdefault(name, {})[s.path] = arity(params)
                if any(f for a, _, _, f in exits(s, fatal) if lo < a < hi):
                    fatal.setdefault(name, set()).add(s.path)
        if (sum(map(len, calls.helpers.values())), sum(map(len, fatal.values()))) == before:
            break
    found = []
    for s in sources:
        for start, end, what, _ in exits(s, fatal):
            fn = s.function_of(start)
            if fn is None:
                continue
            inner = [b for b in s.blocks if b[0] == "function" and fn[1] < b[1] < fn[2]]
            sites = [c for c in calls.communicating(s, fn[1], fn[2])
                     if not any(b[1] < c < b[2] for b in inner)]
            loops = [lp for lp in s.loops if fn[1] < lp[0] and lp[0] <= start <= lp[1]]
            later = [c for c in sites if c > end or any(lp[0] <= c <= lp[1] for lp in loops)]
            if fn[3] in ("SetUp", "SetUpTestSuite"):
                found.append(f"{s.path}:{s.line(start)}: {what} in {fn[3]}() skips the test body "
                             "on this rank alone; the others run it")
            elif later:
                c = later[0]
                name = re.match(r"\w+", s.code[c:]).group(0)
                where = "in the loop around it" if c < end else "after it"
                found.append(f"{s.path}:{s.line(start)}: {what} leaves this rank alone, while the "
                             f"others go on into {name} (line {s.line(c)}, {where})")
        for m in re.finditer(r"\b(%s)\s*\(" % "|".join(AGREED), s.code):
            fn = s.function_of(m.start())
            for lo, hi in s.rank_branches:
                if lo <= m.start() <= hi and (fn is None or fn[1] < lo):
                    found.append(f"{s.path}:{s.line(m.start())}: {m.group(1)} in a branch on the "
                                 f"rank (line {s.line(lo)}): the other ranks never reach it")
                    break
    return calls, found


def self_test():
    """Planted hazards are each found once; the safe forms are not."""
    src = {
        "src/comm/HT_Wait.hpp": "namespace ht {\nbool on_every_rank(bool ok, MPI_Comm comm);\n"
                                "/// \\brief The checks of a tree (collective).\n"
                                "int check_tree(const Tree& t);\n"
                                "/// A plain local count, no collective at all.\nint local(int);\n"
                                "class Grid { public:\n  Grid(int n, MPI_Comm comm);\n};\n"
                                "void join(MPI_Comm comm);\n}\n",
    }
    bad = {
        "loop": "TEST(A, Loop) {\n  for (int k : keys) {\n    ht::check_tree(t);\n"
                "    ASSERT_EQ(k, 1);\n  }\n}\n",
        "after": "TEST(A, After) {\n  ASSERT_TRUE(x) << \"x\";\n"
                 "  MPI_Allreduce(a, b, 1, t, o, c);\n}\n",
        "helper": "void helper(int k) {\n  ASSERT_EQ(k, 2);\n}\nTEST(A, Helper) {\n"
                  "  for (int k : keys) {\n    ASSERT_NO_FATAL_FAILURE(helper(k));\n"
                  "    MPI_Barrier(MPI_COMM_WORLD);\n  }\n}\n",
        "fail": "TEST(A, Fail) {\n  if (rank == 1) FAIL() << \"one\";\n"
                "  ht::on_every_rank(true, c);\n}\n",
        "skip": "TEST(A, Skip) {\n  if (rank == 0) GTEST_SKIP() << \"zero\";\n"
                "  MPI_Barrier(c);\n}\n",
        "return": "void f(int rank) {\n  if (rank) return;\n  MPI_Bcast(a, 1, t, 0, c);\n}\n",
        "braceless": "TEST(A, Braceless) {\n  for (int i = 0; i < n; ++i)\n"
                     "    ASSERT_EQ(v[i], 1);\n  ht::Grid grid(4, MPI_COMM_WORLD);\n}\n",
        "transitive": "void talk() {\n  MPI_Send(a, 1, t, 1, 0, c);\n}\n"
                      "void more() {\n  talk();\n}\n"
                      "TEST(A, Transitive) {\n  ASSERT_GT(n, 0);\n  more();\n}\n",
        "included": "#include \"talks.hpp\"\nTEST(A, Included) {\n  ASSERT_GT(n, 0);\n"
                    "  talk_there(n);\n}\n",
        "reasonless": "TEST(A, Reasonless) {\n  ASSERT_EQ(n, 1);  // lint: rank-uniform\n"
                      "  MPI_Barrier(c);\n}\n",
        "setup": "class F : public ::testing::Test {\n protected:\n  void SetUp() override {\n"
                 "    ASSERT_TRUE(ok);\n  }\n};\n",
        "while": "TEST(A, While) {\n  int more = 1;\n  while (ht::check_tree(t)) {\n"
                 "    ASSERT_LT(more, 9);\n    ++more;\n  }\n}\n",
        "branch": "TEST(A, Branch) {\n  if (rank == 0) {\n    HT_ASSERT_ALL(x);\n  }\n"
                  "  if (ht::on_every_rank(true, c) && my_rank > 0) HT_ASSERT_ALL_EQ(a, b);\n}\n",
        "lambda": "TEST(A, Lambda) {\n  auto judge = [&](int k) { return ht::check_tree(k); };\n"
                  "  ASSERT_EQ(n, 2);\n  judge(3);\n}\n",
    }
    good = {
        "expect": "TEST(B, Expect) {\n  for (int k : keys) {\n    EXPECT_EQ(k, 1);\n"
                  "    MPI_Barrier(c);\n  }\n}\n",
        "last": "TEST(B, Last) {\n  ht::check_tree(t);\n  ASSERT_EQ(n, 1);\n"
                "  EXPECT_EQ(m, 2);\n}\n",
        "agreed": "void all(int k) {\n  HT_ASSERT_ALL(k == 1) << \"k\";\n}\nTEST(B, Agreed) {\n"
                  "  for (int k : keys) {\n    ASSERT_NO_FATAL_FAILURE(all(k));\n"
                  "    HT_ASSERT_ALL(k > 0);\n    HT_ASSERT_ALL_EQ(k, 2);\n"
                  "    ht::check_tree(t);\n  }\n}\n",
        "agreedlocal": "void rows(int n) {\n  for (int i = 0; i < n; ++i) ASSERT_EQ(v[i], 1);\n}\n"
                       "TEST(B, AgreedLocal) {\n  const auto more = [&] {\n"
                       "    for (int x : mine) ASSERT_GT(x, 0);\n  };\n"
                       "  for (int k : keys) {\n    HT_ASSERT_ALL_NO_FATAL_FAILURE(rows(k));\n"
                       "    HT_ASSERT_ALL_NO_FATAL_FAILURE(more());\n"
                       "    HT_ASSERT_ALL_NO_FATAL_FAILURE(ASSERT_EQ(k, 3));\n    MPI_Barrier(c);\n"
                       "  }\n}\n",
        "marked": "TEST(B, Marked) {\n  // lint: rank-uniform: the world's size, the same on all\n"
                  "  if (size < 2) GTEST_SKIP() << \"needs two\";\n"
                  "  ASSERT_EQ(size % 2, 0);  // lint: rank-uniform: the world's size again\n"
                  "  MPI_Barrier(c);\n}\n",
        "inlambda": "TEST(B, InLambda) {\n  run([&] {\n    ASSERT_EQ(task, 1);\n  });\n"
                    "  MPI_Barrier(c);\n}\n",
        "text": "// ASSERT_EQ(a, b); MPI_Barrier(c);\nTEST(B, Text) {\n"
                "  const char* s = \"ASSERT_TRUE(x) MPI_Barrier(c)\";\n  ASSERT_TRUE(s);\n"
                "  local(3);\n  v.end();\n  std::next(it);\n  ht::check_tree_size(t);\n"
                "  th.join();\n  elsewhere(1);\n}\n",
        "other": "void elsewhere(int k) {\n  MPI_Barrier(c);\n}\n",
        "macro": "#define CHECK(x) \\\n  ASSERT_TRUE(x); \\\n  MPI_Barrier(c)\nint z;\n",
        "ranks": "TEST(B, Ranks) {\n  if (ranks > 1) HT_ASSERT_ALL(x);\n"
                 "  if (rank == 0) [&] { ASSERT_TRUE(y); }();\n  MPI_Barrier(c);\n}\n",
        "nonvoid": "int g(int rank) {\n  if (rank) return 1;\n  MPI_Barrier(c);\n  return 0;\n}\n",
    }
    with tempfile.TemporaryDirectory() as root:
        def write(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)

        for rel, text in src.items():
            write(rel, text)
        for name, text in good.items():
            write(f"tests/good/{name}.cpp", text)
        calls, found = scan(root)
        assert found == [], found
        assert {"on_every_rank", "check_tree"} <= set(calls.names), calls.names
        assert "local" not in calls.names and "Grid" in calls.classes, calls.names
        for name, text in bad.items():
            write(f"tests/bad/{name}.cpp", text)
        write("tests/bad/talks.hpp", "inline void talk_there(int k) {\n  ht::check_tree(k);\n}\n")
        _, found = scan(root)
        expect = {"loop": ":4: ASSERT_EQ", "after": ":2: ASSERT_TRUE",
                  "helper": ":6: ASSERT_NO_FATAL_FAILURE", "fail": ":2: FAIL",
                  "skip": ":2: GTEST_SKIP", "return": ":2: return;", "braceless": ":3: ASSERT_EQ",
                  "transitive": ":8: ASSERT_GT", "included": ":3: ASSERT_GT",
                  "reasonless": ":2: ASSERT_EQ",
                  "setup": ":4: ASSERT_TRUE in SetUp()", "while": ":4: ASSERT_LT",
                  "lambda": ":3: ASSERT_EQ", "branch": ":3: HT_ASSERT_ALL in a branch",
                  "branch.cpp:5": ": HT_ASSERT_ALL_EQ in a branch"}
        for name, e in expect.items():
            where = f"tests/bad/{name}" + ("" if ".cpp" in name else ".cpp")
            hits = [f for f in found if f.startswith(f"{where}{e}")]
            assert len(hits) == 1, (name, e, found)
        assert len(found) == len(expect), found
    print(f"self-test: passed ({len(expect)} planted hazards found, {len(good)} safe forms passed)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--list-calls", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return 0
    calls, found = scan(a.root)
    if a.list_calls:
        print("src/ calls:", " ".join(sorted(calls.names)))
        print("src/ constructors:", " ".join(sorted(calls.classes)))
        print("tests/ helpers:", " ".join(sorted(calls.helpers)))
    for f in found:
        print(f)
    print(f"{len(found)} rank-local exit(s) beside a communicating call in tests/; make each "
          "HT_ASSERT_ALL (tests/assert_all.hpp) or EXPECT_*, or mark it "
          "`// lint: rank-uniform: <why>`")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
