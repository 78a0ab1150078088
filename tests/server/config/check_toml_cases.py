#!/usr/bin/env python3
"""Checks toml_cases.txt against Python's tomllib (an independent TOML 1.0 reader): every "ok"
document reads to its expect block, every "err" document is refused, every "unsupported" one is
accepted (it is valid TOML outside the subset); "range" cases (numbers beyond 64 bits) are not
compared, tomllib having unbounded integers. --write rewrites the expect blocks from tomllib.
Exit 77 (CTest's skip) without Python 3.11."""
import math
import re
import sys

try:
    import tomllib
except ImportError:
    print("tomllib needs Python 3.11; skipped")
    sys.exit(77)

BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def quote(s):
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u%04X" % ord(ch))
        else:
            out.append(ch)
    return "".join(out) + '"'


def part(k):
    return k if BARE.match(k) else quote(k)


def scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return "%.17g" % v
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, list):
        return "[" + ", ".join(scalar(x) for x in v) + "]"
    raise ValueError("unexpected value %r" % (v,))


def flatten(d, prefix, out):
    for k, v in d.items():
        path = prefix + part(k)
        if isinstance(v, dict):
            if v:
                flatten(v, path + ".", out)
            else:
                out.append(path + " = {}")
        else:
            out.append(path + " = " + scalar(v))
    return out


def read_cases(text):
    cases, cur = [], None
    for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
        if line.startswith("=== "):
            cur = {"head": line, "doc": [], "expect": None}
            cases.append(cur)
        elif line == "--- expect" and cur is not None:
            cur["expect"] = []
        elif cur is not None:
            (cur["doc"] if cur["expect"] is None else cur["expect"]).append(line)
    return cases


def main():
    path = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "--write" else __file__.replace(
        "check_toml_cases.py", "toml_cases.txt")
    write = "--write" in sys.argv
    text = open(path, encoding="utf-8").read()
    preamble = text[: re.search(r"^=== ", text, re.M).start()]
    cases = read_cases(text)
    bad = 0
    for c in cases:
        doc = "".join(l + "\n" for l in c["doc"])
        kind = c["head"].split()[1]
        try:
            got = tomllib.loads(doc)
        except tomllib.TOMLDecodeError as e:
            got = e
        if kind == "ok":
            if isinstance(got, Exception):
                print("%s: tomllib refuses it: %s" % (c["head"], got))
                bad += 1
                continue
            flat = sorted(flatten(got, "", []), key=lambda s: s.encode())
            if write:
                c["expect"] = flat
            elif flat != c["expect"]:
                print("%s: tomllib reads\n  %s" % (c["head"], "\n  ".join(flat)))
                bad += 1
        elif kind == "err" and not isinstance(got, Exception):
            print("%s: tomllib accepts it" % c["head"])
            bad += 1
        elif kind == "unsupported" and isinstance(got, Exception):
            print("%s: tomllib refuses it too (%s): make it an err case" % (c["head"], got))
            bad += 1
    if write:
        with open(path, "w", encoding="utf-8") as f:
            f.write(preamble)
            for c in cases:
                f.write(c["head"] + "\n" + "".join(l + "\n" for l in c["doc"]))
                if c["expect"] is not None:
                    f.write("--- expect\n" + "".join(l + "\n" for l in c["expect"]))
    print("%d cases, %d disagree with tomllib" % (len(cases), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
