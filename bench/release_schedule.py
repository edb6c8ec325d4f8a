#!/usr/bin/env python3
"""The issue order's composition: a batch's time as its device work released by the host's calls.

    bench/release_schedule.py oracle SWEEP_CSV [SWEEP_CSV ...]
    bench/release_schedule.py replay SWEEP_CSV SWEEP_LOG [SWEEP_CSV SWEEP_LOG ...]

Each of a batch's 3n calls (copy in, kernel, copy out of each sub-chunk, in the issue order:
depth-first k by k, breadth-first all copies in, then all kernels, then all copies out) is
released when the host has issued it, the calls spread evenly over the batch's issue time I.
Each engine (copies in, kernels, copies out) runs its n operations in sub-chunk order, an
operation starting once it is released, its engine is free and the sub-chunk's previous stage
is done; the batch ends with the last copy out. The operations' lengths are the non-streamed
batch's parts over n (h2d_ms, kernel_ms, d2h_ms of the CSV), all scaled by one factor so that
the schedule with every call released at once (the GPU held until the host has issued them)
takes the held time. The prediction is max(held, schedule, I).

oracle: at every add-scalar point (engine-per-stream left out: its calls wait on events), with
  the rounds' own held_ms and issue_ms: how much of the unheld time the composition explains,
  against max(held_ms, issue_ms) alone, per issue order, mode and n (n >= 8), and the points
  over 10 % either way.
replay: the live controller's view. Per add-scalar configuration its adaptive run's visits
  (the log's "adaptive measured" line) give the issue line (least squares, a >= 0, as
  bench/issue_line_check.py), and the largest n it visited. Only at breadth-first points above
  that n (where the calibrated prediction holds the residual of the largest visit) is the
  prediction rebuilt: the schedule over the calibrated device part (pred_calibrated_device),
  normalized by its ratio at the largest visit; elsewhere the sweep's own pred_calibrated.
  Per sweep and mode over the symmetric grid (the baseline's): max error and points over 10 %,
  as the sweep ran and rebuilt.
Only the Python standard library is used; gzip'd files are read as they are.
"""
import collections
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from issue_line_check import CONFIG, VISIT, fits, open_text, read_csv  # noqa: E402


def schedule(order, n, release, h2d, kernel, d2h):
    """The batch's end: n sub-chunks' three stages released at release(j, 3n), j = 1..3n."""
    if order == "breadth-first":
        calls = [(s, k) for s in range(3) for k in range(n)]
    else:
        calls = [(s, k) for k in range(n) for s in range(3)]
    rel = {c: release(j + 1, 3 * n) for j, c in enumerate(calls)}
    length = (h2d / n, kernel / n, d2h / n)
    done = [[0.0] * n for _ in range(3)]
    for s in range(3):
        free = 0.0
        for k in range(n):
            start = max(rel[(s, k)], free, done[s - 1][k] if s else 0.0)
            free = done[s][k] = start + length[s]
    return done[2][n - 1]


def composed(order, n, held, issue_fixed, issue_per_n, parts):
    """max(held, schedule with the ops scaled to take `held` when released at once, issue)."""
    at_once = schedule(order, n, lambda j, total: 0.0, *parts)
    f = held / at_once
    issue = issue_fixed + issue_per_n * n
    released = schedule(order, n, lambda j, total: issue_fixed + issue_per_n * n * j / total,
                        *(f * p for p in parts))
    return max(held, released, issue)


def parts_of(row):
    return float(row["h2d_ms"]), float(row["kernel_ms"]), float(row["d2h_ms"])


def oracle(paths):
    errs = collections.defaultdict(lambda: ([], []))
    for path in paths:
        for rows in read_csv(path).values():
            for n, r in rows.items():
                if r["workload"] != "add-scalar" or r["order"] == "engine-per-stream":
                    continue
                median, held, issue = (float(r[k]) for k in ("median_ms", "held_ms", "issue_ms"))
                with_schedule = composed(r["order"], n, held, 0.0, issue / n, parts_of(r))
                key = (r["order"], r["issue"], n)
                errs[key][0].append(max(held, issue) / median - 1)
                errs[key][1].append(with_schedule / median - 1)
    print("| order | mode | n | points | max(held, I): signed median | over 10 % "
          "| with the schedule: signed median | max | over 10 % |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    total = [0, 0]
    for key in sorted(errs):
        base, new = errs[key]
        over = [sum(abs(e) > 0.1 for e in x) for x in (base, new)]
        total = [t + o for t, o in zip(total, over)]
        if key[2] >= 8:
            print(f"| {key[0]} | {key[1]} | {key[2]} | {len(base)} | "
                  f"{100 * statistics.median(base):+.1f} % | {over[0]} | "
                  f"{100 * statistics.median(new):+.1f} % | {100 * max(map(abs, new)):.1f} % | "
                  f"{over[1]} |")
    print(f"\npoints over 10 % (every n): max(held, I) {total[0]}, with the schedule {total[1]}")


def replay(argv):
    print("| sweep | mode | symmetric grid as it ran: max (over 10 %) | rebuilt |")
    print("| --- | --- | ---: | ---: |")
    beyond = collections.defaultdict(lambda: ([], []))
    for csv_path, log_path in zip(argv[0::2], argv[1::2]):
        configs = read_csv(csv_path)
        with open_text(log_path) as f:
            lines = f.read().splitlines()
        worst = collections.defaultdict(lambda: [0.0, 0.0, 0, 0])
        for i, line in enumerate(lines):
            m = CONFIG.match(line)
            measured = [x for x in lines[i + 1:i + 4] if "adaptive measured" in x]
            if not m or not measured:
                continue
            workload, grid, in_mib, out_mib, intensity, order, mode = m.groups()
            if workload != "add-scalar":
                continue
            key = [c for c in configs if c[:5] == (workload, grid, float(intensity), order, mode)
                   and abs(c[5] / 2**20 - float(in_mib)) < 0.06
                   and abs(c[6] / 2**20 - float(out_mib)) < 0.06]
            if len(key) != 1:
                sys.exit(f"release_schedule: {log_path}:{i + 1}: {len(key)} configurations match")
            rows = configs[key[0]]
            visits = [(int(n), float(t)) for n, t in VISIT.findall(measured[0]) if float(t) > 0]
            line_fit = fits(visits)
            top = max((n for n, _ in visits), default=0)
            norm = None
            if line_fit and order == "breadth-first" and top in rows:
                a, s = line_fit[1]
                r = rows[top]
                device = float(r["pred_calibrated_device"])
                norm = composed(order, top, device, a, s, parts_of(r)) / device
            for n, r in rows.items():
                median, ran = float(r["median_ms"]), float(r["pred_calibrated"])
                new = ran
                if norm and n > top:
                    new = max(composed(order, n, float(r["pred_calibrated_device"]), a, s,
                                       parts_of(r)) / norm, a + s * n)
                    beyond[(order, mode)][0].append(ran / median - 1)
                    beyond[(order, mode)][1].append(new / median - 1)
                if grid == "symmetric":
                    w = worst[mode]
                    e0, e1 = abs(ran / median - 1), abs(new / median - 1)
                    w[0], w[1] = max(w[0], e0), max(w[1], e1)
                    w[2] += e0 > 0.1
                    w[3] += e1 > 0.1
        for mode, w in sorted(worst.items()):
            print(f"| {csv_path} | {mode} | {100 * w[0]:.1f} % ({w[2]}) | "
                  f"{100 * w[1]:.1f} % ({w[3]}) |")
    print("\n| breadth-first points above every visited n | points | as it ran: signed median | "
          "over 10 % | rebuilt: signed median | over 10 % |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for (order, mode), (ran, new) in sorted(beyond.items()):
        print(f"| {mode} | {len(ran)} | {100 * statistics.median(ran):+.1f} % | "
              f"{sum(abs(e) > 0.1 for e in ran)} | {100 * statistics.median(new):+.1f} % | "
              f"{sum(abs(e) > 0.1 for e in new)} |")


def main(argv):
    if len(argv) >= 2 and argv[0] == "oracle":
        oracle(argv[1:])
    elif len(argv) >= 3 and argv[0] == "replay" and len(argv) % 2 == 1:
        replay(argv[1:])
    else:
        sys.stderr.write(__doc__)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
