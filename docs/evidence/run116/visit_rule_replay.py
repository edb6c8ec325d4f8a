"""Replays a burst-visit rule on sweeps' logs (session 20).

    python3 docs/evidence/run116/visit_rule_replay.py TOL CSV LOG [CSV LOG ...]

For each configuration, drops every adaptive visit whose issue time per sub-chunk exceeds TOL
times that of a smaller visited n, refits the issue line as bench/issue_line_check.py does (the
line through the origin where the free intercept is < 0), and rebuilds the calibrated
prediction max(device part, line) at each point of the configurations it changes (where the
sweep's own prediction is that of the line through all the visits; with one visit left, the line
through the origin at it). Prints, per issue mode, the errors as the sweep ran and with the rule,
and each changed configuration at its largest n.
"""
import os, sys, importlib.util
from collections import defaultdict
spec = importlib.util.spec_from_file_location(
    "ilc", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../bench/issue_line_check.py"))
ilc = importlib.util.module_from_spec(spec); spec.loader.exec_module(ilc)
TOL = float(sys.argv[1]); pairs = sys.argv[2:]
res = defaultdict(list)
changed = []
for csv_path, log_path in zip(pairs[0::2], pairs[1::2]):
    configs = ilc.read_csv(csv_path)
    lines = ilc.open_text(log_path).read().splitlines()
    for i, line in enumerate(lines[:-1]):
        m = ilc.CONFIG.match(line)
        if not m or "adaptive measured" not in lines[i + 1]: continue
        workload, grid, in_mib, out_mib, intensity, order, mode = m.groups()
        matches = [c for c in configs if c[:5] == (workload, grid, float(intensity), order, mode)
                   and abs(c[5] / 2**20 - float(in_mib)) < 0.06 and abs(c[6] / 2**20 - float(out_mib)) < 0.06]
        visits = [(int(n), float(t)) for n, t in ilc.VISIT.findall(lines[i + 1]) if float(t) > 0]
        # robust: drop a visit whose per-sub-chunk time exceeds TOL x that of a smaller visited n
        keep = [(n, t) for n, t in visits if not any(m_ < n and t / n > TOL * (u / m_) for m_, u in visits)]
        for n, row in configs[matches[0]].items():
            med = float(row["median_ms"]); ran = float(row["pred_calibrated"])
            res[(mode, "as it ran")].append(abs(ran / med - 1))
            pred = ran
            if len(keep) < len(visits):
                f_all = ilc.fits(visits); f_keep = ilc.fits(keep)
                try: device = float(row["pred_calibrated_device"] or 0.0)
                except ValueError: device = 0.0
                if f_all is not None and abs(max(device, f_all[1][0] + f_all[1][1] * n) / ran - 1) < 1e-3:
                    if f_keep is not None:
                        pred = max(device, f_keep[1][0] + f_keep[1][1] * n)
                    elif len(keep) == 1:
                        nk, tk = keep[0]; pred = max(device, tk / nk * n)
                if n == max(configs[matches[0]]) : changed.append((csv_path.split('/')[-2:], workload, grid, in_mib, intensity, order, mode, visits, keep, n, med, ran, pred))
            res[(mode, "robust")].append(abs(pred / med - 1))
for k, e in sorted(res.items()):
    e.sort(); print(k, len(e), "median %.1f%% max %.1f%% over10 %d" % (100*e[len(e)//2], 100*e[-1], sum(x > 0.1 for x in e)))
print(len(changed), "configurations changed")
for c in changed: print(c[1:7], "visits", c[7], "kept", [n for n,_ in c[8]], "n=%d meas %.3f ran %.3f robust %.3f" % c[9:])
