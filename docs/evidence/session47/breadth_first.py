# Breadth-first order's kernel issue delay, offline (session 47; a candidate model path, not in
# the library). Issued breadth-first, a batch's first kernel is issued only after the host has
# issued all n copies in: with a share f of the batch's issue time I(n) spent on them, the
# kernel engine cannot finish before
#     T5(n) = f * I(n) + t_e + t_dh / n        (t_e, t_dh: the non-streamed kernel and copy out)
# The current model has no such path (its paths do not depend on the issue order). Here I(n) is
# the sweep's own measured issue time at n (issue_ms), f = 1/3 (a copy in, a kernel, a copy out
# per sub-chunk), and the prediction max(current, T5) is compared with the measured median:
# signed median error per order, issue mode, intensity and n over the sweeps given.
#   python3 docs/evidence/session47/breadth_first.py docs/evidence/run258/sweep-[1-8].csv.gz
import csv
import gzip
import statistics
import sys
from collections import defaultdict

F = 1.0 / 3
errors = defaultdict(list)
for path in sys.argv[1:]:
    for r in csv.DictReader(gzip.open(path, "rt")):
        n = int(r["streams"])
        if r["grid"] != "symmetric" or n < 8 or float(r["intensity"]) < 1000 or not r["issue_ms"]:
            continue
        measured = float(r["median_ms"])
        current = float(r["pred_current"])
        t5 = F * float(r["issue_ms"]) + float(r["kernel_ms"]) + float(r["d2h_ms"]) / n
        errors[(r["order"], r["issue"], float(r["intensity"]), n)].append(
            ((current - measured) / measured, (max(current, t5) - measured) / measured))
print("order              issue    intensity    n   current   with T5   (median signed error, %d sweeps)"
      % len(sys.argv[1:]))
for key in sorted(errors):
    v = errors[key]
    print("%-18s %-8s %9g %4d  %+7.1f%%  %+7.1f%%" % (
        key + (100 * statistics.median(e for e, _ in v), 100 * statistics.median(e for _, e in v))))
