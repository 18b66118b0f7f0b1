#!/usr/bin/env python3
"""bench/tpch_compare.py FLOE_CSV DUCK_OUT — do floe's rows (floe --csv -t)
equal DuckDB's ("result a,b,c" lines from bench/duck_time.mjs)?  Text equal
after trimming, numbers equal within a relative 1e-6 (engines print
averages and decimal scales differently).  Prints "ok" or the first
difference; exit status 0 either way (a bench, not a test)."""
import csv, sys

def num(s):
    try:
        return float(s)
    except ValueError:
        return None

def same(a, b):
    a, b = a.strip(), b.strip()
    if a == b:
        return True
    x, y = num(a), num(b)
    if x is None or y is None:
        return False
    return abs(x - y) <= 1e-6 * max(1.0, abs(x), abs(y))

floe = list(csv.reader(open(sys.argv[1])))
raw = [l[len('result '):].rstrip('\n') for l in open(sys.argv[2]) if l.startswith('result ')]
duck = [r.split(',') for r in raw]
if len(floe) != len(duck):
    print(f"MISMATCH(rows {len(floe)}/{len(duck)})")
    sys.exit(0)
for i, (f, d) in enumerate(zip(floe, duck)):
    # DuckDB's line is split on every comma: a text value with commas
    # makes the field counts differ, then the whole lines must match
    if len(f) != len(d) and ','.join(f) == raw[i]:
        continue
    if len(f) != len(d) or not all(same(x, y) for x, y in zip(f, d)):
        print(f"MISMATCH(row {i + 1}: {','.join(f)} | {','.join(d)})")
        sys.exit(0)
print("ok")
