#!/usr/bin/env python3
"""Checks that the library's layers hold, from the areas the build declared (cmake/areas.cmake):

  1. every header of an area preprocesses with that area's include view alone (its own headers, the
     areas below it, include/): a header that reaches up does not;
  2. no area can include a header of an area that is not below it (each such include must fail);
  3. no source under src/ or testkit/ escapes its view with a relative "../" include;
  4. every symbol an area's archive uses and another area defines is defined by an area below it.

Usage: check_layers.py AREAS_TXT LAYERS_DIR SOURCE_DIR CC
AREAS_TXT has one line per area: "<name> <dir> <archive> <layered|public-only> <dep,dep,...>"; a
public-only area (the engine) links the areas below it but sees none of their headers, only include/.
"""
import os
import re
import subprocess
import sys
import tempfile


def read_areas(path):
    areas = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            name, src_dir, archive, mode = parts[0], parts[1], parts[2], parts[3]
            deps = parts[4].split(",") if len(parts) > 4 and parts[4] else []
            areas[name] = {"dir": src_dir, "archive": archive, "deps": deps,
                           "public_only": mode == "public-only"}
    return areas


def closure(areas, name):
    seen, todo = set(), list(areas[name]["deps"])
    while todo:
        d = todo.pop()
        if d not in seen:
            seen.add(d)
            todo.extend(areas[d]["deps"])
    return seen


def headers_of(source_dir, area_dir, other_dirs):
    """Headers under the area's directory, less those of nested areas."""
    root = os.path.join(source_dir, "src", area_dir)
    if not os.path.isdir(root):
        root = os.path.join(source_dir, area_dir)
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        rel_area = os.path.normpath(os.path.join(area_dir, rel_dir))
        if rel_dir != "." and rel_area in other_dirs:
            dirnames[:] = []
            continue
        out += [os.path.normpath(os.path.join(rel_area, f)) for f in sorted(filenames) if f.endswith(".h")]
    return out


def preprocess(cc, flags, text, workdir):
    """Whether every include of text resolves (the working directory holds nothing: standard input's
    quote includes look there first). Template headers that #error without their parameters count as
    resolved: only a missing file is a failure."""
    r = subprocess.run([cc, "-E", "-x", "c", "-o", os.devnull] + flags + ["-"], input=text,
                       capture_output=True, text=True, cwd=workdir)
    missing = [l for l in r.stderr.splitlines() if "No such file or directory" in l]
    return not missing, missing[:1]


def defined_and_used(archive):
    out = subprocess.run(["nm", "-g", archive], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        m = re.match(r"^\s*(?:[0-9a-fA-F]+)?\s+([A-Za-z])\s+(\S+)$", line)
        if not m:
            continue
        kind, sym = m.groups()
        (used if kind == "U" else defined).add(sym)
    return defined, used - defined


def main():
    areas_txt, layers_dir, source_dir, cc = sys.argv[1:5]
    layers_dir, source_dir = os.path.abspath(layers_dir), os.path.abspath(source_dir)
    areas = read_areas(areas_txt)
    dirs = {a["dir"] for a in areas.values()}
    problems = []

    def view_flags(names):
        return [f for n in sorted(names) for f in ("-I", os.path.join(layers_dir, n))] + \
               ["-I", os.path.join(source_dir, "include")]

    headers = {n: headers_of(source_dir, a["dir"], dirs - {a["dir"]}) for n, a in areas.items()}
    checked_headers = checked_refusals = 0
    workdir = tempfile.mkdtemp(prefix="check_layers.")
    for name in sorted(areas):
        below = closure(areas, name)
        seen = {name} if areas[name]["public_only"] else below | {name}
        flags = view_flags(seen)
        for h in headers[name]:
            ok, msg = preprocess(cc, flags, f'#include "{h}"\n', workdir)
            checked_headers += 1
            if not ok:
                problems.append(f"{name}: header {h} does not stand on its layer: {' '.join(msg)}")
        for other in sorted(set(areas) - seen):
            if not headers[other]:
                continue
            h = headers[other][0]
            ok, _ = preprocess(cc, flags, f'#include "{h}"\n', workdir)
            checked_refusals += 1
            if ok:
                why = "it sees public headers only" if other in below else "it is not below it"
                problems.append(f"{name}: can include {h} of {other}, but {why}")

    os.rmdir(workdir)
    relative = 0
    for top in ("src", "testkit"):
        for dirpath, _, filenames in os.walk(os.path.join(source_dir, top)):
            for f in filenames:
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                with open(path, errors="replace") as fh:
                    for i, line in enumerate(fh, 1):
                        if re.match(r'\s*#\s*include\s*"[^"]*\.\./', line):
                            relative += 1
                            problems.append(f"{os.path.relpath(path, source_dir)}:{i}: relative include "
                                            f"escapes the area's view: {line.strip()}")

    owner = {}
    symbols = {}
    for name, a in areas.items():
        defined, used = defined_and_used(a["archive"])
        symbols[name] = used
        for s in defined:
            owner.setdefault(s, set()).add(name)
    calls = 0
    for name in sorted(areas):
        allowed = closure(areas, name) | {name}
        for s in sorted(symbols[name]):
            if s in owner:
                calls += 1
                if not owner[s] & allowed:
                    problems.append(f"{name}: calls {s}, defined in {', '.join(sorted(owner[s]))}, "
                                    "which is not below it")

    print(f"areas={len(areas)} headers_checked={checked_headers} upward_includes_refused={checked_refusals} "
          f"cross_area_symbols={calls} relative_includes={relative}")
    for p in problems:
        print("LAYER VIOLATION:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
