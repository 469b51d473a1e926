#!/usr/bin/env python3
"""Compares results files with docs/results.md, so that the two cannot drift:
every dataset of a file is listed in the document with the file's type,
number of dimensions and units, every attribute of the file is listed with
its type, and every dataset the document lists for the file's driver is in
the file (give files whose runs write everything: both Graph500 kernels, the
profile on).

usage: check_results_doc.py <results.md> <file.h5>...
"""
import itertools
import re
import sys

import h5py
import numpy as np

# The kernels of each driver, for comm/<kernel> and profile/<kernel>.
KERNELS = {"cannon_gemm": ["gemm"], "graph500_bfs": ["bfs", "sssp"], "uts": ["uts"]}
# The groups each driver's own datasets live in.
GROUPS = {"cannon_gemm": {"gemm"}, "graph500_bfs": {"graph", "held", "bfs", "sssp"}, "uts": {"uts"}}
COMMON = {"run", "comm", "profile"}


def expand(pattern):
    """'a/{b,c}_d' -> ['a/b_d', 'a/c_d'] (every brace, every combination)."""
    parts = re.split(r"(\{[^}]*\})", pattern)
    choices = [p[1:-1].split(",") if p.startswith("{") else [p] for p in parts]
    return ["".join(c) for c in itertools.product(*choices)]


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def names_in(cell):
    return [n for quoted in re.findall(r"`([^`]+)`", cell) for n in expand(quoted)]


def read_doc(path):
    """{dataset pattern: (type, dims, units, kernels without it)},
    {attribute: (type, driver, optional)}."""
    datasets, attributes = {}, {}
    header = None
    for line in open(path, encoding="utf-8"):
        if not line.startswith("|"):
            header = None
            continue
        row = cells(line)
        if header is None:
            header = row
            continue
        if set(line.strip()) <= set("|-"):
            continue
        if header[0] == "dataset":
            name, kind, shape, units, meaning = row[0], row[1], row[2], row[3], row[4]
            # "(not uts)": a kernel that does not write it.
            skip = set(re.findall(r"\(not (\w+)\)", meaning))
            dims = 0 if shape == "[]" else len(shape.strip("[]").split(","))
            unit = re.fullmatch(r"`([^`]*)`", units)
            assert unit, f"{path}: units of {name} not in backticks: {units}"
            for n in names_in(name):
                assert n not in datasets, f"{path}: {n} listed twice"
                datasets[n] = (kind, dims, unit.group(1), skip)
        elif header[0] == "attribute":
            names = names_in(row[0])
            kinds = [k.strip() for k in row[1].split(",")]
            if len(kinds) == 1:
                kinds = kinds * len(names)
            assert len(kinds) == len(names), f"{path}: types of {row[0]}: {row[1]}"
            optional = "(" in row[2]
            driver = row[2].split("(")[0].strip()
            for n, k in zip(names, kinds):
                attributes[n] = (k, driver, optional)
    return datasets, attributes


def dtype_name(d):
    if d.dtype.kind in "SOU":
        return "string"
    return {np.dtype("float64"): "float64", np.dtype("int64"): "int64",
            np.dtype("uint8"): "uint8"}.get(d.dtype, str(d.dtype))


def documented(pattern, skip, app):
    """The names a documented pattern stands for in a file of driver app."""
    if "<kernel>" in pattern:
        return [pattern.replace("<kernel>", k) for k in KERNELS[app] if k not in skip]
    group = pattern.split("/")[0]
    return [pattern] if group in GROUPS[app] | {"run"} else []


def check(doc_datasets, doc_attributes, path):
    wrong = []
    with h5py.File(path, "r") as f:
        app = f.attrs["app"]
        app = app.decode() if isinstance(app, bytes) else str(app)
        want = {}
        for pattern, spec in doc_datasets.items():
            for n in documented(pattern, spec[3], app):
                want[n] = spec[:3]
        found = {}

        def visit(n, o):
            if isinstance(o, h5py.Dataset):
                found[n] = o

        f.visititems(visit)
        for n, d in sorted(found.items()):
            if n not in want:
                wrong.append(f"{path}: dataset {n} is not in the document")
                continue
            kind, dims, units = want[n]
            u = d.attrs.get("units")
            u = u.decode() if isinstance(u, bytes) else u
            if dtype_name(d) != kind:
                wrong.append(f"{path}: {n} is {dtype_name(d)}, the document says {kind}")
            if d.ndim != dims:
                wrong.append(f"{path}: {n} has {d.ndim} dimensions {d.shape}, "
                             f"the document {dims}")
            if u != units:
                wrong.append(f"{path}: {n} has units {u!r}, the document {units!r}")
        for n in sorted(set(want) - set(found)):
            wrong.append(f"{path}: the document lists {n}, which the file lacks")
        for n, v in f.attrs.items():
            if n not in doc_attributes:
                wrong.append(f"{path}: attribute {n} is not in the document")
                continue
            kind, driver, _ = doc_attributes[n]
            got = ("string" if isinstance(v, (bytes, str)) else dtype_name(np.asarray(v)))
            if got != kind:
                wrong.append(f"{path}: attribute {n} is {got}, the document says {kind}")
            if driver not in ("every", app):
                wrong.append(f"{path}: attribute {n} is documented for {driver}, not {app}")
        for n, (kind, driver, optional) in doc_attributes.items():
            if driver in ("every", app) and not optional and n not in f.attrs:
                wrong.append(f"{path}: the document lists attribute {n}, which the file lacks")
    return app, len(found), wrong


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    doc_datasets, doc_attributes = read_doc(sys.argv[1])
    assert doc_datasets and doc_attributes, "no tables found in the document"
    wrong = []
    for path in sys.argv[2:]:
        app, n, w = check(doc_datasets, doc_attributes, path)
        wrong += w
        print(f"{path}: {app}, {n} datasets")
    if wrong:
        print("\n".join(wrong))
        sys.exit(1)
    print(f"{sys.argv[1]} and {len(sys.argv) - 2} results files agree")


if __name__ == "__main__":
    main()
