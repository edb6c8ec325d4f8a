#!/usr/bin/env python3
"""Scores two fits of the host's issue line against a sweep's issue-bound points.

    bench/issue_line_check.py SWEEP_CSV SWEEP_LOG [SWEEP_CSV SWEEP_LOG ...] [--inline=L:K]

Each pair is what `streampipe sweep --output=CSV 2> LOG` wrote (either may be gzipped). For
every configuration the log prints what the adaptive run measured at each n it visited
("adaptive measured (n:samples x ms/issue ms): n=8:32x0.9491/0.0910 ..."): the median issue
times the controller fits its issue line I(n) = a + s n to (StreamController::
MeasuredIssueLine). This refits that line two ways from those medians:

  clamped   the free least squares, a clamped to 0 where it falls below (up to session 18)
  origin    the least squares with a >= 0: where the free a < 0, the line through the origin,
            s = sum(n I) / sum(n^2) (session 19)

and scores each line against the sweep's median issue time at the points where the host bounds
the batch (issue time >= 0.9 of the batch's median): median, 90th percentile and maximum of
|line / measured - 1|, and the points over 10 %, per issue mode over all the pairs given. Also
how many configurations had a free intercept below 0 (only there do the two fits differ).

A second table replays the calibrated prediction itself at every point of those configurations,
max(device part, line) as StreamController::CalibratedMs takes it (the device part from the
CSV's pred_calibrated_device), with either line, against the sweep's medians; and says with
which line the sweep's own pred_calibrated agrees (within 0.1 %), i.e. which code ran.

--inline=L:K adds a third line, "inline": the origin fit to the medians less the host's inline
copying (K ms per byte of every copy in of at most L bytes, as the profile's h2d.inline_*;
each sub-chunk's copy taken as in_bytes / n, the pipeline's split to within an item) and that
part added back at each n (StreamController::InlineIssueMs). Its second table then covers every
configuration, and a third table scores the three, and the sweep's own pred_calibrated ("as
it ran"), at the points whose copies in are inline.
Only the Python standard library is used.
"""
import csv
import gzip
import re
import statistics
import sys
from collections import defaultdict

CONFIG = re.compile(r"^\s+(\S+)\s+(\S+)\s+in\s+([\d.]+) MiB out\s+([\d.]+) MiB intensity (\S+)"
                    r"\s+(\S+)\s+(\S+)\s+best")
VISIT = re.compile(r"n=(\d+):\d+x[\d.]+/([\d.]+)")


def open_text(path):
    return gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="")


def read_csv(path):
    try:
        with open_text(path) as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"issue_line_check: cannot read {path}: {e.strerror or e}")
    if not rows or "issue_ms" not in rows[0]:
        sys.exit(f"issue_line_check: {path}: not a sweep CSV (no issue_ms column)")
    configs = defaultdict(dict)
    for r in rows:
        key = (r["workload"], r["grid"], float(r["intensity"]), r["order"],
               r.get("issue") or "streams")
        configs[key + (int(r["in_bytes"]), int(r["out_bytes"]))][int(r["streams"])] = r
    return configs


def inline_ms(limit, rate, in_bytes, n):
    """The host's inline copying of a batch of in_bytes on n sub-chunks (0 without a limit)."""
    return rate * in_bytes if limit > 0 and in_bytes / n <= limit else 0.0


def fits(visits):
    """(clamped, origin) lines (a, s) from [(n, issue_ms)], or None without a rising line."""
    if len({n for n, _ in visits}) < 2:
        return None
    k = len(visits)
    mean_n = sum(n for n, _ in visits) / k
    mean_i = sum(i for _, i in visits) / k
    sxx = sum((n - mean_n) ** 2 for n, _ in visits)
    s = sum((n - mean_n) * (i - mean_i) for n, i in visits) / sxx
    a = mean_i - s * mean_n
    if not s > 0:
        return None
    if a >= 0:
        return (a, s), (a, s)
    origin = sum(n * i for n, i in visits) / sum(n * n for n, _ in visits)
    if not origin > 0:
        return None  # as the controller: no rising line
    return (0.0, s), (0.0, origin)


def main(argv):
    limit = rate = 0.0
    for arg in [a for a in argv if a.startswith("--")]:
        try:
            if not arg.startswith("--inline="):
                raise ValueError
            limit, rate = (float(x) for x in arg.split("=", 1)[1].split(":"))
        except ValueError:
            sys.exit(f"issue_line_check: bad flag {arg}; --inline=LIMIT_BYTES:MS_PER_BYTE\n"
                     + __doc__)
    argv = [a for a in argv if not a.startswith("--")]
    if len(argv) < 2 or len(argv) % 2:
        sys.exit(__doc__)
    inlined = defaultdict(list)  # (mode, fit) -> errors at the points whose copies are inline
    errors = defaultdict(list)  # (mode, fit) -> errors
    replayed = defaultdict(list)  # (mode, fit) -> errors of max(device, line), where a < 0
    agrees = defaultdict(int)  # fit -> points whose pred_calibrated it reproduces
    negative = defaultdict(int)
    fitted = defaultdict(int)
    for csv_path, log_path in zip(argv[0::2], argv[1::2]):
        configs = read_csv(csv_path)
        try:
            with open_text(log_path) as f:
                lines = f.read().splitlines()
        except OSError as e:
            sys.exit(f"issue_line_check: cannot read {log_path}: {e.strerror or e}")
        for i, line in enumerate(lines[:-1]):
            m = CONFIG.match(line)
            if not m or "adaptive measured" not in lines[i + 1]:
                continue
            workload, grid, in_mib, out_mib, intensity, order, mode = m.groups()
            matches = [c for c in configs
                       if c[:5] == (workload, grid, float(intensity), order, mode)
                       and abs(c[5] / 2**20 - float(in_mib)) < 0.06
                       and abs(c[6] / 2**20 - float(out_mib)) < 0.06]
            if len(matches) != 1:
                sys.exit(f"issue_line_check: {log_path}:{i + 1}: {len(matches)} configurations "
                         f"of {csv_path} match '{line.strip()}'")
            visits = [(int(n), float(t)) for n, t in VISIT.findall(lines[i + 1]) if float(t) > 0]
            lines_ab = fits(visits)
            if lines_ab is None:
                continue
            fitted[mode] += 1
            negative[mode] += lines_ab[0] != lines_ab[1]
            in_bytes = matches[0][5]
            part = lambda n: inline_ms(limit, rate, in_bytes, n)
            named = [("clamped", lines_ab[0], lambda n: 0.0), ("origin", lines_ab[1], lambda n: 0.0)]
            if limit > 0:
                with_inline = fits([(n, t - part(n)) for n, t in visits])
                if with_inline is not None:
                    named.append(("inline", with_inline[1], part))
                else:  # as the controller: the measured line, without the inline part
                    named.append(("inline", lines_ab[1], lambda n: 0.0))
            if limit > 0:
                for n, row in configs[matches[0]].items():
                    if part(n) > 0:  # the sweep's own prediction, as it ran
                        inlined[(mode, "as it ran")].append(
                            abs(float(row["pred_calibrated"]) / float(row["median_ms"]) - 1))
            for name, (a, s), extra in named:
                for n, row in configs[matches[0]].items():
                    if limit > 0 and part(n) > 0:
                        try:
                            device = float(row["pred_calibrated_device"] or 0.0)
                        except ValueError:
                            device = 0.0
                        inlined[(mode, name)].append(
                            abs(max(device, a + s * n + extra(n)) / float(row["median_ms"]) - 1))
                    issue, median = float(row["issue_ms"]), float(row["median_ms"])
                    if issue > 0 and issue >= 0.9 * median:
                        errors[(mode, name)].append(abs((a + s * n + extra(n)) / issue - 1))
                    if lines_ab[0] == lines_ab[1] and not limit > 0:
                        continue
                    try:
                        device = float(row["pred_calibrated_device"] or 0.0)
                        ran = float(row["pred_calibrated"])
                    except ValueError:
                        continue
                    predicted = max(device, a + s * n + extra(n))
                    replayed[(mode, name)].append(abs(predicted / median - 1))
                    agrees[name] += abs(predicted / ran - 1) <= 1e-3
    print("| mode | fit | configurations (free a < 0) | issue-bound points | median | p90 | max "
          "| over 10 % |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (mode, name), e in sorted(errors.items()):
        e.sort()
        print(f"| {mode} | {name} | {fitted[mode]} ({negative[mode]}) | {len(e)} | "
              f"{100 * statistics.median(e):.1f} % | {100 * e[int(0.9 * (len(e) - 1))]:.1f} % | "
              f"{100 * e[-1]:.1f} % | {sum(x > 0.1 for x in e)} |")
    print()
    print("| mode | line | points of the configurations with a < 0 (every one with --inline) "
          "| prediction: median | max | over 10 % |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for (mode, name), e in sorted(replayed.items()):
        e.sort()
        print(f"| {mode} | {name} | {len(e)} | {100 * statistics.median(e):.1f} % | "
              f"{100 * e[-1]:.1f} % | {sum(x > 0.1 for x in e)} |")
    total = sum(len(e) for (_, name), e in replayed.items() if name == "clamped")
    print()
    print(f"The sweeps' own pred_calibrated agrees with the clamped line at {agrees['clamped']} "
          f"and with the line through the origin at {agrees['origin']} of these {total} points"
          + (f", with the inline one at {agrees['inline']}." if limit > 0 else "."))
    if inlined:
        print()
        print(f"| mode | line | points whose copies in are inline (<= {limit:.0f} bytes) | "
              "prediction: median | max | over 10 % |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        for (mode, name), e in sorted(inlined.items()):
            e.sort()
            print(f"| {mode} | {name} | {len(e)} | {100 * statistics.median(e):.1f} % | "
                  f"{100 * e[-1]:.1f} % | {sum(x > 0.1 for x in e)} |")


if __name__ == "__main__":
    main(sys.argv[1:])
