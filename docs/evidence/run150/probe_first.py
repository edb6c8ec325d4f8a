#!/usr/bin/env python3
"""Run 150 (session 25): the calibration probe first after a kept re-derivation (a) against
a844b5a (b), six whole-grid pairs in ABBA order. Per pair: points over 10 % on each side, in the
configurations where the change acted (the a log says "(probe first)"), and in those whose
adaptive run kept n after a drift on either side or on neither. Then, over the configurations
whose run kept n after a drift (each side its own), the points over 10 % by where n lies
against the adaptive n: below n/2, from n/2 to 2n ("near"), above 2n.
  python3 docs/evidence/run150/probe_first.py docs/evidence/run150 1 2 3 4 5 6"""
import collections
import csv
import gzip
import re
import sys


def load(path):
    groups = collections.OrderedDict()
    for r in csv.DictReader(gzip.open(path, "rt")):
        k = (r["workload"], r["grid"], r["in_bytes"], r["out_bytes"], r["intensity"], r["order"],
             r["issue"])
        groups.setdefault(k, []).append(r)
    runs = []
    for line in gzip.open(path.replace(".csv.gz", ".log.gz"), "rt"):
        m = re.match(r"  \S+\s+\S+\s+in\s+[\d.]+ MiB out.*best n=.*adaptive n=(\d+)", line)
        if m:
            runs.append({"n": int(m.group(1)), "events": ""})
        m = re.match(r"    adaptive events \(kind:old->new n@batch\): (.*)", line)
        if m and runs:
            runs[-1]["events"] = m.group(1)
    assert len(runs) == len(groups), path
    out = collections.OrderedDict()
    for run, (k, rs) in zip(runs, groups.items()):
        errs = {int(r["streams"]): abs(float(r["pred_calibrated"]) / float(r["median_ms"]) - 1)
                for r in rs}
        out[k] = {"kept": "(kept)" in run["events"], "pf": "(probe first)" in run["events"],
                  "n": run["n"], "over": sum(e > 0.1 for e in errs.values()), "errs": errs}
    return out


folder, tags = sys.argv[1], sys.argv[2:]
classes = {s: collections.Counter() for s in "ab"}
for tag in tags:
    a = load(f"{folder}/sweep-a{tag}.csv.gz")
    b = load(f"{folder}/sweep-b{tag}.csv.gz")
    s = lambda side, ks: sum(side[k]["over"] for k in ks)
    pf = [k for k in a if a[k]["pf"]]
    either = [k for k in a if a[k]["kept"] or b[k]["kept"]]
    neither = [k for k in a if not (a[k]["kept"] or b[k]["kept"])]
    print(f"pair {tag}: points over 10 % a {s(a, a)} b {s(b, b)}; where the probe came first "
          f"({len(pf)} configurations) a {s(a, pf)} b {s(b, pf)}; kept n after a drift on either "
          f"side ({len(either)}) a {s(a, either)} b {s(b, either)}; on neither ({len(neither)}) "
          f"a {s(a, neither)} b {s(b, neither)}; kept configurations a {sum(a[k]['kept'] for k in a)}"
          f" b {sum(b[k]['kept'] for k in b)}")
    for side, d in (("a", a), ("b", b)):
        for k, v in d.items():
            if not v["kept"]:
                continue
            for n, e in v["errs"].items():
                cls = "above 2n" if n > 2 * v["n"] else ("below n/2" if 2 * n < v["n"] else "near")
                classes[side][cls, "all"] += 1
                classes[side][cls, "over"] += e > 0.1
print("configurations that kept n after a drift, points over 10 % by n against the adaptive n:")
for side in "ab":
    c = classes[side]
    total = sum(c[x, "over"] for x in ("below n/2", "near", "above 2n"))
    points = sum(c[x, "all"] for x in ("below n/2", "near", "above 2n"))
    print(f"  {side}: " + "; ".join(
        f"{x} {c[x, 'over']} of {c[x, 'all']} ({100 * c[x, 'over'] / max(1, c[x, 'all']):.1f} %)"
        for x in ("below n/2", "near", "above 2n")) +
        f"; all {total} of {points} ({100 * total / max(1, points):.1f} %)")
