#!/usr/bin/env bash
# scripts/demo, as README gives it, on a binary this build made (STREAMPIPE_DEMO_BIN: no setup,
# no build): it exits 0 on a machine with a GPU or without one (the GPU's flags refused on the
# CPU made it exit 64 there until session 47), and writes 4096 histograms of 704x576 frames,
# each line a 0-based index and 256 counts that sum to 405504, in order: frames 0-2047 fill
# every bin (random luminance), frames 2048-4095 one bin each (one value a frame).
#   demo_test.sh SOURCE_DIR STREAMPIPE_BIN
set -euo pipefail
src="$1"
bin="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
out="$dir/histograms.csv"
if ! STREAMPIPE_DEMO_BIN="$bin" STREAMPIPE_DEMO_OUT="$out" bash "$src/scripts/demo" >"$dir/stdout" 2>"$dir/stderr"; then
  echo "FAIL: scripts/demo exited non-zero"
  cat "$dir/stdout" "$dir/stderr"
  exit 1
fi
cat "$dir/stdout"
if ! grep -q "^wrote 4096 histograms to $out" "$dir/stdout"; then
  echo "FAIL: scripts/demo did not say it wrote 4096 histograms"
  exit 1
fi
awk -F, -v want=405504 '
  NF != 257 { printf "FAIL: line %d has %d fields, not 257\n", NR, NF; bad = 1; exit }
  $1 != NR - 1 { printf "FAIL: line %d has index %s\n", NR, $1; bad = 1; exit }
  { s = 0; nz = 0; for (i = 2; i <= 257; ++i) { s += $i; nz += $i > 0 }
    if (s != want) { printf "FAIL: frame %s sums to %d, not %d\n", $1, s, want; bad = 1; exit }
    # Section 4.4: random luminance (every bin near 405504 / 256 = 1584) in the first half,
    # one value per frame in the second.
    if ($1 < 2048 && nz != 256) { printf "FAIL: random frame %s fills %d bins, not 256\n", $1, nz; bad = 1; exit }
    if ($1 >= 2048 && nz != 1) { printf "FAIL: degenerate frame %s fills %d bins, not 1\n", $1, nz; bad = 1; exit } }
  END { if (!bad && NR != 4096) { printf "FAIL: %d lines, not 4096\n", NR; bad = 1 }
        exit bad }' "$out"
echo "PASS: 4096 histograms of 704x576, each summing to 405504, random then one value a frame"
