#!/usr/bin/python3
"""Plots of a `streampipe sweep` CSV and of streampipe Chrome traces (PNG, headless).

    bench/plot.py SWEEP.csv[.gz] --out DIR [--trace TRACE.json ...]

writes into DIR:
  measured_vs_predicted_<workload>_<grid>.png
      Like Fig. 4 of Gomez-Luna et al.: the x axis is grouped by configuration (kernel
      intensity, and sizes where they vary), one column of points per number of streams n in
      each group; measured median time as markers (p10-p90 as error bars), the predictions of
      `current`, `werkhoven-2ce`, `gomez-luna-cc2` and the on-line calibrated one as lines.
      One subplot per issue order (only depth-first when the plot would be too crowded).
  chosen_vs_best_<grid>.png
      Per configuration, the best measured n against the n chosen by the adaptive pipeline
      and by a few models (log2 y axis).
  timeline_<trace basename>.png  (for each --trace)
      A Gantt chart of the first batch of the trace: one row per stream, bars for copy-in,
      kernel and copy-out.

The CSV columns are those of streampipe::SweepCsvColumns() (include/streampipe/core/sweep.hpp);
the model columns are read from the header, so new models need no change here. Needs Debian's
python3-matplotlib and python3-numpy.
"""

import argparse
import csv
import gzip
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")  # headless

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FixedLocator, NullLocator  # noqa: E402

DPI = 100
KEY_COLUMNS = ["workload", "grid", "in_bytes", "out_bytes", "intensity", "order"]
FIXED_COLUMNS = KEY_COLUMNS[:6] + ["streams", "median_ms", "p10_ms", "p90_ms", "repetitions",
                                   "h2d_ms", "kernel_ms", "d2h_ms"]
# The predictions drawn as lines in measured_vs_predicted: (column, label, style).
PREDICTION_LINES = [
    ("pred_current", "current", dict(color="tab:blue", linestyle="-")),
    ("pred_werkhoven-2ce", "werkhoven-2ce", dict(color="tab:orange", linestyle="--")),
    ("pred_gomez-luna-cc2", "gomez-luna-cc2", dict(color="tab:green", linestyle=":")),
    ("pred_calibrated", "calibrated (adaptive)", dict(color="tab:red", linestyle="-.")),
]
# The choosers drawn in chosen_vs_best: (column, label, marker style).
CHOOSERS = [
    ("chosen_adaptive", "adaptive", dict(marker="x", color="tab:red", s=60)),
    ("chosen_current", "current", dict(marker="^", color="tab:blue", s=40)),
    ("chosen_werkhoven-2ce", "werkhoven-2ce", dict(marker="s", color="tab:orange", s=30)),
    ("chosen_gomez-luna-cc2", "gomez-luna-cc2", dict(marker="D", color="tab:green", s=25)),
]
TRACE_COLORS = {"copy-in": "tab:blue", "kernel": "tab:orange", "copy-out": "tab:green"}
# Past this many x positions a measured_vs_predicted subplot keeps only depth-first.
MAX_POSITIONS_ALL_ORDERS = 60


class PlotError(Exception):
    pass


# ---- reading ----------------------------------------------------------------------------------


def parse_float(text, where):
    text = text.strip()
    if text == "":
        return math.nan
    try:
        return float(text)
    except ValueError:
        raise PlotError(f"{where}: '{text}' is not a number") from None


def parse_int(text, where):
    try:
        return int(text.strip())
    except ValueError:
        raise PlotError(f"{where}: '{text}' is not an integer") from None


def read_sweep(path):
    """The rows of a sweep CSV as dicts: strings for the key names, floats and ints otherwise."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        # Each line with its number in the file, blank ones skipped: a row is one line (the
        # sweep quotes no field), so messages name the file's own line, as `sweep --from` does
        # (numbered after the blank lines were dropped, before session 50).
        lines = [(n, line) for n, line in enumerate(f, start=1) if line.strip()]
        if not lines:
            raise PlotError(f"{path}: empty file, no header")
        header = [c.strip() for c in next(csv.reader([lines[0][1]]))]
        for i, name in enumerate(FIXED_COLUMNS):
            if i >= len(header) or header[i] != name:
                found = header[i] if i < len(header) else "(nothing)"
                raise PlotError(f"{path}: header column {i + 1}: expected '{name}', "
                                f"found '{found}'")
        rows = []
        for line_no, line in lines[1:]:
            fields = next(csv.reader([line]))
            if len(fields) != len(header):
                raise PlotError(f"{path}: line {line_no}: {len(fields)} fields, "
                                f"expected {len(header)}")
            row = {}
            for name, value in zip(header, fields):
                where = f"{path}: line {line_no}, column '{name}'"
                if name in ("workload", "grid", "order", "issue", "settings"):
                    row[name] = value.strip()
                elif name in ("streams", "repetitions") or name.startswith("chosen_"):
                    row[name] = parse_int(value, where)
                else:
                    row[name] = parse_float(value, where)
            rows.append(row)
    if not rows:
        raise PlotError(f"{path}: no rows")
    return rows


def config_key(row):
    return tuple(row[c] for c in KEY_COLUMNS)


def group_configs(rows):
    """{config key: rows sorted by n}, in order of first appearance."""
    configs = {}
    for row in rows:
        configs.setdefault(config_key(row), []).append(row)
    for key in configs:
        configs[key].sort(key=lambda r: r["streams"])
    return configs


def fmt_number(x):
    """1048576 -> '1Mi', 10 -> '10', 0.5 -> '0.5'."""
    if x != x:
        return "?"
    for factor, suffix in ((1 << 30, "Gi"), (1 << 20, "Mi"), (1 << 10, "Ki")):
        if x >= factor and x % factor == 0:
            return f"{int(x // factor)}{suffix}"
    return f"{x:g}"


def fmt_bytes(x):
    """A size in bytes, short and never in scientific notation: exact binary multiples as
    fmt_number does (1048576 -> '1Mi'), others to one decimal (2796202 -> '2.7Mi')."""
    if x != x:
        return "?"
    for factor, suffix in ((1 << 30, "Gi"), (1 << 20, "Mi"), (1 << 10, "Ki")):
        if x >= factor:
            return fmt_number(x) if x % factor == 0 else f"{x / factor:.1f}{suffix}"
    return f"{x:g}"


def size_label(in_bytes, out_bytes, rows):
    """How a configuration's sizes are told apart from the others' in `rows`: where every
    configuration moves the same total (the asymmetric grid), the share that goes in, as
    'in 4 %'; else both sizes ('2.7MiB/61MiB')."""
    totals = {r["in_bytes"] + r["out_bytes"] for r in rows}
    if len(totals) == 1 and in_bytes + out_bytes > 0:
        return f"in {100.0 * in_bytes / (in_bytes + out_bytes):.0f} %"
    return f"{fmt_bytes(in_bytes)}B/{fmt_bytes(out_bytes)}B"


def is_power_of(n, base):
    while n > 1 and n % base == 0:
        n //= base
    return n == 1


def safe(name):
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


def save(fig, path):
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    try:
        # Line plots need few colours: a 64-colour palette keeps the PNGs committable (about
        # a third of the size). Pillow comes with Debian's python3-matplotlib.
        from PIL import Image
        with Image.open(path) as im:
            small = im.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
        small.save(path, optimize=True)
    except ImportError:
        pass
    print(f"wrote {path}")


# ---- measured vs predicted --------------------------------------------------------------------


def plot_measured_vs_predicted(rows, out_dir):
    by_workload_grid = {}
    for row in rows:
        by_workload_grid.setdefault((row["workload"], row["grid"]), []).append(row)
    for (workload, grid), wg_rows in by_workload_grid.items():
        configs = group_configs(wg_rows)
        orders = list(dict.fromkeys(r["order"] for r in wg_rows))
        positions = sum(len(v) for v in configs.values())
        if len(orders) > 1 and positions > MAX_POSITIONS_ALL_ORDERS and "depth-first" in orders:
            orders = ["depth-first"]
        # Do the sizes vary within this workload and grid? Then they label the columns too.
        sizes_vary = len({(r["in_bytes"], r["out_bytes"]) for r in wg_rows}) > 1
        columns_max = max(sum(len(v) for k, v in configs.items() if k[5] == o) for o in orders)
        width = min(max(7.0, 0.32 * columns_max + 2.5), 20.0)
        handles = [Line2D([], [], color="black", marker="o", linestyle="none",
                          label="measured (median, p10-p90)")]
        handles += [Line2D([], [], label=label, **style) for _, label, style in PREDICTION_LINES]
        ncol = len(handles) if width >= 12 else 3
        legend_in = 0.25 * math.ceil(len(handles) / ncol) + 0.1
        height = (3.6 if width < 12 else 4.4) * len(orders) + legend_in
        fig, axes = plt.subplots(len(orders), 1, figsize=(width, height), squeeze=False)
        for ax, order in zip(axes[:, 0], orders):
            draw_measured_vs_predicted(ax, [(k, v) for k, v in configs.items() if k[5] == order],
                                       sizes_vary)
            ax.set_title(f"{workload} / {grid}: {order}", fontsize=10,
                         pad=26 if sizes_vary else 16)
        fig.legend(handles=handles, loc="lower center", ncol=ncol, fontsize=8, frameon=False)
        fig.tight_layout(rect=(0, legend_in / height, 1, 1))
        save(fig, os.path.join(out_dir,
                               f"measured_vs_predicted_{safe(workload)}_{safe(grid)}.png"))


def draw_measured_vs_predicted(ax, configs, sizes_vary):
    # Columns sorted by intensity, then sizes.
    configs = sorted(configs, key=lambda kv: (kv[0][4], kv[0][2], kv[0][3]))
    key_rows = [{"in_bytes": k[2], "out_bytes": k[3]} for k, _ in configs]
    x = 0
    ticks, tick_labels, group_centers, group_labels = [], [], [], []
    all_times = []
    for key, crows in configs:
        xs = np.arange(x, x + len(crows))
        measured = np.array([r["median_ms"] for r in crows])
        low = measured - np.array([r["p10_ms"] for r in crows])
        high = np.array([r["p90_ms"] for r in crows]) - measured
        yerr = np.nan_to_num(np.vstack([low, high]).clip(min=0))
        ax.errorbar(xs, measured, yerr=yerr, fmt="o", color="black", markersize=4,
                    elinewidth=0.8, capsize=2, zorder=3)
        all_times.extend(measured)
        for column, _, style in PREDICTION_LINES:
            ys = np.array([r.get(column, math.nan) for r in crows])
            if np.isfinite(ys).any():
                ax.plot(xs, ys, linewidth=1.4, **style)
                all_times.extend(ys[np.isfinite(ys)])
        ticks.extend(xs)
        tick_labels.extend(str(r["streams"]) for r in crows)
        group_centers.append(xs.mean())
        group_labels.append((key[4], size_label(key[2], key[3], key_rows) if sizes_vary else None))
        if x > 0:
            ax.axvline(x - 1, color="0.85", linewidth=0.8, zorder=0)
        x += len(crows) + 1
    ax.set_xticks(ticks)
    # Over about seven columns an inch the labels run together: then only n = 1, 4, 16, 64 (and
    # any n not a power of two) are written, the other ticks left bare.
    inches = ax.get_figure().get_figwidth() * ax.get_position().width
    if len(ticks) > 7 * inches:
        tick_labels = [t if not is_power_of(int(t), 2) or is_power_of(int(t), 4) else ""
                       for t in tick_labels]
    ax.set_xticklabels(tick_labels, fontsize=7)
    ax.set_xlim(-0.8, x - 1.2)
    ax.set_xlabel("streams n, grouped by configuration", fontsize=8)
    ax.set_ylabel("time per batch (ms)", fontsize=8)
    positive = [t for t in all_times if t > 0 and math.isfinite(t)]
    if positive and max(positive) / min(positive) > 20:
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    ax.grid(axis="y", color="0.9")
    # Where the sizes vary, each group is labelled by its sizes and the intensity once above the
    # groups that share it (one label per group overlapped its neighbours on the asymmetric grid).
    runs = []  # [intensity, first center, last center]
    for center, (intensity, sizes) in zip(group_centers, group_labels):
        if sizes is not None:
            ax.annotate(sizes, xy=(center, 1.0), xycoords=("data", "axes fraction"),
                        xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
                        fontsize=6)
        if runs and runs[-1][0] == intensity:
            runs[-1][2] = center
        else:
            runs.append([intensity, center, center])
    for intensity, first, last in runs:
        ax.annotate(f"intensity {fmt_number(intensity)}", xy=((first + last) / 2, 1.0),
                    xycoords=("data", "axes fraction"), xytext=(0, 12 if sizes_vary else 2),
                    textcoords="offset points", ha="center", va="bottom", fontsize=7)
    ax.tick_params(axis="y", labelsize=7)


# ---- chosen vs best ---------------------------------------------------------------------------


def plot_chosen_vs_best(rows, out_dir):
    by_grid = {}
    for row in rows:
        by_grid.setdefault(row["grid"], []).append(row)
    for grid, grid_rows in by_grid.items():
        configs = list(group_configs(grid_rows).items())
        configs.sort(key=lambda kv: (kv[0][0], kv[0][5], kv[0][4], kv[0][2], kv[0][3]))
        width = min(max(7.0, 0.3 * len(configs) + 4.5), 20.0)
        fig, ax = plt.subplots(figsize=(width, 4.2))
        ns = set()
        xs = np.arange(len(configs))
        best = []
        for _, crows in configs:
            measured = [r for r in crows if math.isfinite(r["median_ms"])]
            best.append(min(measured, key=lambda r: (r["median_ms"], r["streams"]))["streams"]
                        if measured else math.nan)
            ns.update(r["streams"] for r in crows)
            # The measured range, as a faint bar.
            lo, hi = crows[0]["streams"], crows[-1]["streams"]
            ax.plot([xs[len(best) - 1]] * 2, [lo, hi], color="0.88", linewidth=6,
                    solid_capstyle="butt", zorder=0)
        ax.scatter(xs, best, marker="o", s=110, facecolors="none", edgecolors="black",
                   linewidths=1.5, label="best measured n", zorder=2)
        offsets = np.linspace(-0.22, 0.22, len(CHOOSERS))
        for (column, label, style), dx in zip(CHOOSERS, offsets):
            ys = np.array([crows[0].get(column, 0) for _, crows in configs], dtype=float)
            ys[ys <= 0] = np.nan  # 0: not computed
            ns.update(int(y) for y in ys[np.isfinite(ys)])
            if np.isfinite(ys).any():
                ax.scatter(xs + dx, ys, label=label, zorder=3, **style)
        ax.set_yscale("log", base=2)
        finite_ns = sorted(n for n in ns if n > 0)
        if finite_ns:
            lo = 2 ** math.floor(math.log2(finite_ns[0]))
            hi = 2 ** math.ceil(math.log2(finite_ns[-1]))
            ticks = [2 ** k for k in range(int(math.log2(lo)), int(math.log2(hi)) + 1)]
            ax.yaxis.set_major_locator(FixedLocator(ticks))
            ax.yaxis.set_minor_locator(NullLocator())
            ax.set_yticklabels([str(t) for t in ticks])
            ax.set_ylim(lo / 1.4, hi * 1.4)
        ax.set_xticks(xs)
        ax.set_xticklabels([config_label(key, grid_rows) for key, _ in configs], rotation=45,
                           ha="right", fontsize=7)
        ax.set_xlim(-0.7, len(configs) - 0.3)
        ax.set_ylabel("streams n", fontsize=8)
        ax.set_title(f"chosen vs best measured n: grid {grid} "
                     f"(grey: measured range)", fontsize=10)
        ax.grid(axis="y", color="0.9")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        fig.tight_layout()
        save(fig, os.path.join(out_dir, f"chosen_vs_best_{safe(grid)}.png"))


def config_label(key, rows):
    """The fields that vary among `rows`' configurations, short."""
    workload, _, in_bytes, out_bytes, intensity, order = key
    parts = []
    if len({r["workload"] for r in rows}) > 1:
        parts.append(workload)
    if len({(r["in_bytes"], r["out_bytes"]) for r in rows}) > 1:
        parts.append(size_label(in_bytes, out_bytes, rows))
    parts.append(f"i={fmt_number(intensity)}")
    if len({r["order"] for r in rows}) > 1:
        parts.append({"depth-first": "DF", "breadth-first": "BF",
                      "engine-per-stream": "EPS"}.get(order, order))
    return " ".join(parts)


# ---- timelines --------------------------------------------------------------------------------


def plot_timeline(trace_path, out_dir):
    try:
        with open(trace_path) as f:
            trace = json.load(f)
    except (OSError, ValueError) as e:
        raise PlotError(f"{trace_path}: {e}") from None
    events = trace.get("traceEvents") if isinstance(trace, dict) else trace
    if not isinstance(events, list):
        raise PlotError(f"{trace_path}: no traceEvents array")
    names = {}
    spans, batch_events = [], []
    for e in events:
        if not isinstance(e, dict):
            continue
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[e.get("tid")] = (e.get("args") or {}).get("name")
        elif e.get("ph") == "X" and isinstance(e.get("ts"), (int, float)) \
                and isinstance(e.get("dur"), (int, float)):
            (batch_events if e.get("cat") == "batch" else spans).append(e)
    if not spans:
        raise PlotError(f"{trace_path}: no copy or kernel events ('ph':'X')")

    def batch_of(e):
        return (e.get("args") or {}).get("batch")

    batches = [b for b in (batch_of(e) for e in spans) if b is not None]
    title = os.path.basename(trace_path)
    if batches:
        first = min(batches)
        spans = [e for e in spans if batch_of(e) == first]
        batch_events = [e for e in batch_events if batch_of(e) == first]
        title += f": batch {first}"
        if batch_events:
            title = f"{os.path.basename(trace_path)}: {batch_events[0].get('name', '')}"
    t0 = min([e["ts"] for e in spans] + [e["ts"] for e in batch_events])
    tids = sorted({e.get("tid", 0) for e in spans})
    row_of = {tid: i for i, tid in enumerate(tids)}
    fig, ax = plt.subplots(figsize=(10, max(2.2, 0.45 * len(tids) + 1.4)))
    span_ms = max((e["ts"] + e["dur"] - t0) / 1000.0 for e in spans)
    cats = []
    for e in spans:
        cat = e.get("cat", "")
        if cat not in cats:
            cats.append(cat)
        start = (e["ts"] - t0) / 1000.0
        width = e["dur"] / 1000.0
        y = row_of[e.get("tid", 0)]
        ax.broken_barh([(start, width)], (y - 0.38, 0.76),
                       facecolors=TRACE_COLORS.get(cat, "tab:gray"), edgecolor="white",
                       linewidth=0.5)
        chunk = (e.get("args") or {}).get("chunk")
        if chunk is not None and width > 0.04 * span_ms:
            ax.text(start + width / 2, y, str(chunk), ha="center", va="center", fontsize=7,
                    color="white")
    ax.set_yticks(range(len(tids)))
    ax.set_yticklabels([names.get(t) or f"tid {t}" for t in tids], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, span_ms * 1.02)
    ax.set_xlabel("time since the batch's first operation (ms); numbers: sub-chunk",
                  fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", color="0.9")
    ax.set_axisbelow(True)
    ax.legend(handles=[Patch(color=TRACE_COLORS.get(c, "tab:gray"), label=c) for c in cats],
              fontsize=8, loc="upper right", ncol=len(cats))
    fig.tight_layout()
    base = os.path.splitext(os.path.basename(trace_path))[0]
    save(fig, os.path.join(out_dir, f"timeline_{safe(base)}.png"))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sweep_csv", help="CSV written by streampipe sweep")
    parser.add_argument("--out", required=True, help="directory for the PNGs (created)")
    parser.add_argument("--issue", choices=("streams", "graph"), default="streams",
                        help="plot the points of this issue mode (CSV column issue; CSVs "
                             "without it are all streams)")
    parser.add_argument("--trace", action="append", default=[],
                        help="Chrome trace JSON written by streampipe (repeatable)")
    args = parser.parse_args(argv)
    try:
        os.makedirs(args.out, exist_ok=True)
        rows = [r for r in read_sweep(args.sweep_csv) if r.get("issue", "streams") == args.issue]
        if not rows:
            raise PlotError(f"{args.sweep_csv}: no rows with issue {args.issue}")
        plot_measured_vs_predicted(rows, args.out)
        plot_chosen_vs_best(rows, args.out)
        for trace in args.trace:
            plot_timeline(trace, args.out)
    except (PlotError, OSError) as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
