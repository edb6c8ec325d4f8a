# Each sweep's calibrated prediction (carry_anchor on, the default) against the same run's
# prediction with the anchor at n = 1 from the last measurement (pred_calibrated_measured_anchor),
# per issue mode: median / max error and points over 10 %, over the whole grid and the symmetric
# add-scalar grid; then over all sweeps, the points the option moved (by over 0.5 %), how many it
# moved toward the rounds' median, and the points over 10 % in configurations with a kept drift.
#   python3 docs/evidence/run172/paired.py docs/evidence/run172/sweep-*.csv.gz
import csv, gzip, sys, statistics as st
moved = closer = 0
over = [0, 0]
for f in sys.argv[1:]:
    rows = list(csv.DictReader(gzip.open(f, 'rt')))
    for mode in ('graph', 'streams'):
        for grid in ('whole', 'symmetric'):
            pts = [r for r in rows if r['issue'] == mode and (grid == 'whole' or r['grid'] == 'symmetric')]
            out = []
            for col in ('pred_calibrated', 'pred_calibrated_measured_anchor'):
                e = [abs(float(r[col]) / float(r['median_ms']) - 1) for r in pts]
                out.append('%.1f %% / %.1f %% (%d)' % (100 * st.median(e), 100 * max(e), sum(x > 0.1 for x in e)))
                if grid == 'whole': over[col != 'pred_calibrated'] += sum(x > 0.1 for x in e)
            print('%-16s %-7s %-9s carried %-22s measured anchor %s' % (f.split('/')[-1], mode, grid, out[0], out[1]))
    for r in rows:
        m = float(r['median_ms']); a = float(r['pred_calibrated']); b = float(r['pred_calibrated_measured_anchor'])
        if abs(a / b - 1) > 0.005:
            moved += 1; closer += abs(a / m - 1) < abs(b / m - 1)
print()
print('points over 10 %%, whole grid, all sweeps: carried %d, measured anchor %d' % (over[0], over[1]))
print('points the option moved by over 0.5 %%: %d, toward the rounds: %d' % (moved, closer))
