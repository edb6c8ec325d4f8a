# Session 41's variant of docs/evidence/session40/windows.py: more spacings, and the minimum of
# the K batches (mKxS) beside their lower median, over n*'s runs of at least 100 batches.
# How well a few of the adaptive run's own batches at one n predict the sweep's rounds there.
#
# For every kept adaptive run in the committed traces (`streampipe sweep --adaptive-trace`) and
# every n it ran for at least MIN_RUN settled streamed batches (in practice n*), each window of k
# of those batches (consecutive, or every stride-th) is read as the controller reads a visit (the
# lower median) and compared with the rounds' median at that n in the same sweep's CSV: the share
# of windows more than 10 % (and 5 %) off. "all" is the lower median of every such batch of the
# run at that n, one estimate per (run, n). The rounds' median is taken as the truth, which it is
# only to its own repeatability.
#   python3 docs/evidence/session41/estimators.py [TRACE.csv.gz ...]   (default: every committed trace)
import csv, glob, gzip, sys
from collections import defaultdict

KEY = ("workload", "grid", "in_bytes", "out_bytes", "intensity", "order", "issue")
MIN_RUN = 100
VARIANTS = ((2, 1), (2, 20), (3, 20), (4, 20), (2, 40), (3, 40))


def lower_median(xs):
    xs = sorted(xs)
    return xs[(len(xs) - 1) // 2]


def main(traces):
    per_run = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for trace in traces:
        sweep = trace.replace("trace-", "sweep-")
        rounds = {}
        for r in csv.DictReader(gzip.open(sweep, "rt")):
            rounds[tuple(r[k] for k in KEY) + (r["streams"],)] = float(r["median_ms"])
        batches = defaultdict(lambda: defaultdict(list))
        for r in csv.DictReader(gzip.open(trace, "rt")):
            if r["kind"] == "streamed" and r["settled"] == "1":
                key = tuple(r[k] for k in KEY)
                batches[key + (r["adaptive_run"],)][r["streams"]].append(float(r["elapsed_ms"]))
        run = trace.split("/")[-2]
        for key, by_n in batches.items():
            for n, times in by_n.items():
                truth = rounds.get(key[:7] + (n,))
                if truth is None or len(times) < MIN_RUN:
                    continue
                estimates = {"all": [lower_median(times)]}
                for k, stride in VARIANTS:
                    span = (k - 1) * stride + 1
                    estimates[f"{k}x{stride}"] = [lower_median(times[i:i + span:stride])
                                                  for i in range(len(times) - span + 1)]
                    estimates[f"m{k}x{stride}"] = [min(times[i:i + span:stride])
                                                  for i in range(len(times) - span + 1)]
                for name, ests in estimates.items():
                    for scope in (run, "every run"):
                        c = per_run[scope][(key[1] == "symmetric", name)]
                        for e in ests:
                            err = abs(e / truth - 1)
                            c[0] += 1
                            c[1] += err > 0.10
                            c[2] += err > 0.05
    names = ["all"] + [f"{k}x{s}" for k, s in VARIANTS] + [f"m{k}x{s}" for k, s in VARIANTS if k > 2]
    print("share of estimates over 10 % (over 5 %) of the rounds' median; "
          "KxS: K batches, every S-th; all: every batch of the run at that n")
    print(f"{'run':10s} {'grid':9s} {'(run, n)':>8s} " + " ".join(f"{n:>15s}" for n in names))
    for scope in sorted(per_run, key=lambda s: (s == "every run", s)):
        for sym in (True, False):
            row = per_run[scope]
            if (sym, "all") not in row:
                continue
            cells = []
            for name in names:
                total, over10, over5 = row[(sym, name)]
                cells.append(f"{100 * over10 / total:5.2f} ({100 * over5 / total:5.2f})")
            print(f"{scope:10s} {'symmetric' if sym else 'others':9s} {row[(sym, 'all')][0]:8d} "
                  + " ".join(f"{c:>15s}" for c in cells))


if __name__ == "__main__":
    main(sys.argv[1:] or sorted(glob.glob("docs/evidence/run*/trace-*.csv.gz")))
