#!/usr/bin/env python3
"""Every HT_* environment variable src/ reads goes through ht::setting()
(runtime/HT_Settings.hpp), which agrees it across ranks at start, save the
fault suite's per-rank switches (HT_TEST_*).  Fails, naming the place, on a
getenv of an HT_ variable anywhere else, and on a setting() of a name that
kSettings does not list; proves first that it finds HT_Settings.cpp's own.
  settings_read_once.py <src dir>"""
import os
import re
import sys

src = sys.argv[1]
listed = set(re.findall(r'"(HT_[A-Z_]+)"', open(os.path.join(
    src, "runtime", "HT_Settings.hpp")).read().split("kSettings = {", 1)[1].split(";", 1)[0]))
bad, seen_own = [], False
for root, _, files in os.walk(src):
    for f in files:
        path = os.path.join(root, f)
        if not f.endswith((".cpp", ".hpp")):
            continue
        for n, line in enumerate(open(path), 1):
            for name in re.findall(r'getenv\((?:"(HT_\w*)"|name\))', line):
                if f == "HT_Settings.cpp":
                    seen_own = True
                elif name and not name.startswith("HT_TEST_"):
                    bad.append("%s:%d: getenv(\"%s\"): read it with ht::setting()" % (path, n, name))
            for name in re.findall(r'\bsetting\("(\w+)"\)', line):
                if name not in listed:
                    bad.append("%s:%d: setting(\"%s\") is not in kSettings" % (path, n, name))
if not seen_own or len(listed) < 5:
    sys.exit("settings_read_once: found neither HT_Settings.cpp's getenv nor kSettings: "
             "the check would see nothing")
print("\n".join(bad) or "every HT_ variable read through ht::setting() (%d listed)" % len(listed))
sys.exit(1 if bad else 0)
