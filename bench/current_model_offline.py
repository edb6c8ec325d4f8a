#!/usr/bin/env python3
"""The current model's device paths recomputed from a sweep CSV and a device profile.

    bench/current_model_offline.py SWEEP_CSV PROFILE_TOML [--c0=US] [--measured=held_ms]

An independent re-implementation of docs/models.md, "The current-GPU model" (T1-T3, the issue
cost s = 0), from each row's components (h2d_ms, kernel_ms, d2h_ms) and the profile's L+o, G,
G', g and c. It prints the median and maximum of |model - measured| / measured (default
measured: held_ms, the device's time alone; the CSV must come from run 75 on), and the points
over 10 %, for the model without c0 (c for every sub-chunk, the model before run 81) and with
c0 (the profile's streams.idle_stream_overhead_ms, or --c0 in microseconds), each also over the
points whose measurement repeated within 5 % (halves_ratio). Where the profile has c0, the
figures "with c0" must match the CSV's pred_current_device: the script says how closely (run 81
and 82: within 1e-15).
Only the Python standard library is used; gzip'd CSVs are read as they are.
"""
import csv
import gzip
import re
import statistics
import sys


def read_profile(path):
    """{section.key: float} of a streampipe device profile (numbers only)."""
    out, section = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            m = re.match(r"\[(\w+)\]$", line)
            if m:
                section = m.group(1)
                continue
            m = re.match(r"(\w+) = ([-0-9.eE+]+)$", line)
            if m:
                out[section + "." + m.group(1)] = float(m.group(2))
    return out


def read_rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return list(csv.DictReader(f))


def terms(row, p):
    """ModelTerms from the measured components (ComputeModelTerms with times)."""
    t = {}
    for d, col in (("hd", "h2d"), ("dh", "d2h")):
        measured = float(row[col + "_ms"])
        lat, g_inv, dup = (p[col + ".latency_ms"], p[col + ".ms_per_byte"],
                           p[col + ".duplex_ms_per_byte"])
        x = max(0.0, measured - lat) if measured > 0 else 0.0
        ratio = dup / g_inv if g_inv > 0 and dup > 0 else 1.0
        t["x_" + d], t["xdup_" + d] = x, x * ratio
        t["lat_" + d] = min(lat, measured) if measured > 0 else 0.0
        t["g_" + d] = p[col + ".gap_ms"] if measured > 0 else 0.0
    for d, o in (("hd", "dh"), ("dh", "hd")):
        t["phi_" + d] = min(1.0, t["x_" + o] / t["x_" + d]) if t["x_" + d] > 0 else 0.0
        t["xeff_" + d] = t["x_" + d] + (t["xdup_" + d] - t["x_" + d]) * t["phi_" + d]
    t["te"] = float(row["kernel_ms"])
    t["c"] = p["streams.stream_overhead_ms"]
    return t


def device_paths(t, n, c0):
    """max(T1, T2, T3); c0 None: c for every sub-chunk."""
    c = t["c"]

    def overhead(d, o):
        if c0 is None:
            return c
        y = t["xdup_" + o] / n
        u = y / (y + max(0.0, t["g_" + o] + c)) if y > 0 else 0.0
        return c0 + (c - c0) * t["phi_" + d] * u

    first = t["lat_hd"] + t["x_hd"] / n
    last = t["lat_dh"] + t["x_dh"] / n
    t1 = (first + t["xeff_hd"] - t["xeff_hd"] / n + t["te"] / n + last +
          (t["g_hd"] + overhead("hd", "dh")) * (n - 1))
    t2 = first + t["te"] + last
    t3 = (first + t["te"] / n + last + t["xeff_dh"] - t["xeff_dh"] / n +
          (t["g_dh"] + overhead("dh", "hd")) * (n - 1))
    return max(t1, t2, t3)


def errors(rows, p, c0, measured):
    return sorted(abs(device_paths(terms(r, p), int(r["streams"]), c0) - float(r[measured])) /
                  float(r[measured]) for r in rows)


def line(label, errs):
    return "%-34s %4d points: median %5.1f %%, max %6.1f %%, %4d over 10 %%" % (
        label, len(errs), 100 * statistics.median(errs), 100 * errs[-1],
        sum(e > 0.10 for e in errs))


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    flags = dict(a[2:].split("=", 1) for a in argv[1:] if a.startswith("--") and "=" in a)
    if len(args) != 2 or set(flags) - {"c0", "measured"}:
        sys.stderr.write(__doc__)
        return 64
    rows, p = read_rows(args[0]), read_profile(args[1])
    measured = flags.get("measured", "held_ms")
    if measured not in rows[0]:
        sys.stderr.write("%s: no column %s\n" % (args[0], measured))
        return 65
    c0 = float(flags["c0"]) / 1e3 if "c0" in flags else p.get("streams.idle_stream_overhead_ms",
                                                               -1.0)
    if c0 < 0:
        sys.stderr.write("the profile has no c0: give --c0=US\n")
        return 64
    print("c %.2f us, c0 %.2f us, g %.2f / %.2f us; measured: %s" % (
        1e3 * p["streams.stream_overhead_ms"], 1e3 * c0, 1e3 * p["h2d.gap_ms"],
        1e3 * p["d2h.gap_ms"], measured))
    if "c0" not in flags and rows[0].get("pred_current_device"):
        diff = max(abs(device_paths(terms(r, p), int(r["streams"]), c0) -
                       float(r["pred_current_device"])) / float(r["pred_current_device"])
                   for r in rows)
        print("against the CSV's pred_current_device: largest relative difference %.1e" % diff)
    repeating = [r for r in rows
                 if r.get("halves_ratio") and abs(float(r["halves_ratio"]) - 1) <= 0.05]
    for label, c in (("without c0 (c for every sub-chunk)", None), ("with c0", c0)):
        print(line(label, errors(rows, p, c, measured)))
        if repeating:
            print(line("  repeating within 5 %", errors(repeating, p, c, measured)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
