#!/usr/bin/env python3
"""Where a sweep's prediction errors come from: the level or the shape, and the visits.

    bench/sweep_phases.py SWEEP_PREFIX [SWEEP_PREFIX ...]

SWEEP_PREFIX names a sweep's two files, PREFIX.csv (`streampipe sweep --output=`) and PREFIX.log
(its standard error). Per issue mode it prints:
  - the calibrated prediction's error |P / m - 1| over all points ("absolute"), and with each
    configuration's level at the adaptive pipeline's chosen n divided out ("shape": P(n) /
    P(n*) against m(n) / m(n*)): where a configuration is off at every n by the same factor,
    the adaptive run saw another machine than the sweep's measurements did;
  - what the adaptive pipeline measured itself (the log's "adaptive measured" lines) over the
    sweep's median at the same n, time and issue time, for its chosen n (10 or more samples)
    and for the visits (fewer; n >= 64 apart): a visit measured slower than the same n in the
    sweep's rounds biases the prediction there.
Only the Python standard library is used.
"""
import csv
import re
import sys
from collections import defaultdict

LINE = re.compile(r"\s+(\S+)\s+(\S+)\s+in\s+([\d.]+) MiB.*intensity (\S+)\s+(\S+)\s+(\S+)\s+best")
MEASURED = re.compile(r"n=(\d+):(\d+)x([\d.]+)/([\d.]+)")


def stats(values):
    v = sorted(values)
    if not v:
        return "none"
    return "n=%d median %.3f p10 %.3f p90 %.3f max %.3f" % (
        len(v), v[len(v) // 2], v[len(v) // 10], v[9 * len(v) // 10], v[-1])


def errors(rows):
    configs = defaultdict(list)
    for r in rows:
        key = (r["workload"], r["grid"], r["in_bytes"], r["out_bytes"], r["intensity"],
               r["order"], r.get("issue", "streams"))
        configs[key].append(r)
    out = defaultdict(lambda: defaultdict(list))
    for key, cfg in configs.items():
        star = [r for r in cfg if r["streams"] == r["chosen_adaptive"]]
        level = (float(star[0]["pred_calibrated"]) / float(star[0]["median_ms"])) if star else None
        for r in cfg:
            p, m = float(r["pred_calibrated"]), float(r["median_ms"])
            out[key[6]]["absolute"].append(abs(p / m - 1.0))
            if level:
                out[key[6]]["shape"].append(abs(p / level / m - 1.0))
    return out


def visits(rows, log_lines):
    index = {}
    for r in rows:
        index[(r["workload"], r["grid"], r["intensity"], r["order"], r.get("issue", "streams"),
               int(r["streams"]), round(float(r["in_bytes"]) / 2**20, 1))] = r
    out = defaultdict(list)
    for i, line in enumerate(log_lines[:-1]):
        m = LINE.match(line)
        if not m or "adaptive measured" not in log_lines[i + 1]:
            continue
        workload, grid, in_mib, intensity, order, issue = m.groups()
        for n, k, ms, issue_ms in MEASURED.findall(log_lines[i + 1]):
            r = index.get((workload, grid, intensity, order, issue, int(n), float(in_mib)))
            if r is None or int(k) == 0:
                continue
            kind = "chosen n" if int(k) >= 10 else ("visit n>=64" if int(n) >= 64 else "visit n<64")
            out[(issue, kind, "time")].append(float(ms) / float(r["median_ms"]))
            if float(r["issue_ms"]) > 0:
                out[(issue, kind, "issue")].append(float(issue_ms) / float(r["issue_ms"]))
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    for prefix in argv[1:]:
        with open(prefix + ".csv") as f:
            rows = list(csv.DictReader(f))
        with open(prefix + ".log") as f:
            log_lines = f.read().split("\n")
        print(prefix)
        for mode, kinds in sorted(errors(rows).items()):
            for kind, e in kinds.items():
                over = sum(x > 0.1 for x in e)
                print("  %-7s %-8s error %s, %d over 10 %%" % (mode, kind, stats(e), over))
        for (mode, kind, what), ratios in sorted(visits(rows, log_lines).items()):
            print("  %-7s adaptive/sweep %-11s %-5s %s" % (mode, kind, what, stats(ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
