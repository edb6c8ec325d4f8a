#!/usr/bin/env bash
# ctest bench_bad_flags: each benchmark tool (and the matmul example) refuses a flag it cannot
# read whole with exit 64 and a message naming the flag and the value, before it looks for a
# GPU; and reads good flags, then stops for want of a device (CUDA_VISIBLE_DEVICES=-1 hides it).
#   bad_flags_test.sh [--allow-missing] BENCH_DIR [MATMUL]
# --allow-missing: skip a tool the folder lacks (a device bundle has no controller_replay);
# without it (ctest) a missing tool fails.
set -u
allow_missing=0
if [ "${1:-}" = --allow-missing ]; then allow_missing=1; shift; fi
dir="$1"
matmul="${2:-}"
fails=0
# expect CODE NEEDLE TOOL ARGS...: the tool exits CODE and its stderr contains NEEDLE.
expect() {
  local code="$1" needle="$2" tool="$3"
  shift 3
  local err rc
  if [ ! -x "$tool" ]; then
    if [ "$allow_missing" = 1 ]; then
      echo "skip: $(basename "$tool") is not in $(dirname "$tool")"
    else
      echo "FAIL: $(basename "$tool") is not in $(dirname "$tool")"
      fails=$((fails + 1))
    fi
    return
  fi
  err="$(CUDA_VISIBLE_DEVICES=-1 timeout 60 "$tool" "$@" 2>&1 >/dev/null)"
  rc=$?
  if [ "$rc" != "$code" ] || [[ "$err" != *"$needle"* ]]; then
    echo "FAIL: $(basename "$tool") $*: exit $rc (want $code), stderr: $err (want: $needle)"
    fails=$((fails + 1))
  else
    echo "ok: $(basename "$tool") $* -> $rc: $err"
  fi
}
a="$dir/adaptive_bench"
expect 64 "--batches: '12x'" "$a" --batches=12x
expect 64 "--batches: '0'" "$a" --batches=0
expect 64 "--two-phase-mib: 'nan'" "$a" --two-phase-mib=nan
expect 64 "--heavy-ratio: ''" "$a" --heavy-ratio=
expect 64 "--measure-batches: '16'" "$a" --measure-batches=16
expect 64 "--probe-ratio: '-1'" "$a" --probe-ratio=-1
expect 64 "--second-visit-batches: '-1'" "$a" --second-visit-batches=-1
expect 64 "--drift-threshold: '0' is not a number in (0, 10]" "$a" --drift-threshold=0
expect 64 "--ramp-repeats: '0'" "$a" --ramp-repeats=0
expect 64 "--issue:" "$a" --issue=bogus
expect 64 "unknown argument 'stationry'" "$a" stationry
expect 0 "no CUDA device" "$a" stationary --batches=10 --two-phase-mib=1.5 --heavy-ratio=3 \
  --measure-batches=15 --probe-ratio=0 --drift-threshold=10 --ramp-repeats=1 --issue=graph \
  --second-visit-batches=40
h="$dir/histogram_bench"
expect 64 "--frames: 'abc'" "$h" --frames=abc
expect 64 "--frames: '63'" "$h" --frames=63
expect 64 "--cont-batches: '0'" "$h" --cont-batches=0
expect 64 "--kernel: shared or shared-atomic, not 'global'" "$h" --kernel=global
expect 64 "unknown argument 'sizez'" "$h" sizez
expect 0 "no CUDA device" "$h" s44 --frames=64 --cont-batches=1 --kernel=shared-atomic
s="$dir/soak"
expect 64 "--frames: '10'" "$s" --frames=10
expect 64 "--frames: '12287'" "$s" --frames=12287
expect 64 "--width: '0'" "$s" --width=0
expect 64 "--height: '99999'" "$s" --height=99999
expect 64 "--remeasure-every: '-1'" "$s" --remeasure-every=-1
expect 64 "unknown argument '--frame=5'" "$s" --frame=5
expect 0 "no CUDA device" "$s" --frames=12288 --width=16 --height=16 --remeasure-every=0
i="$dir/instance_spread"
expect 64 "--size-mib: '5000'" "$i" --size-mib=5000
expect 64 "--streams: 'x'" "$i" --streams=1,x
expect 64 "--rounds: 3 is odd" "$i" --rounds=3
expect 64 "unknown argument '--bogus'" "$i" --bogus
expect 0 "instance_spread: no CUDA device" "$i" --size-mib=1 --rounds=2
l="$dir/inline_ladder"
expect 64 "--reps: '0'" "$l" --reps=0
expect 64 "--streams: '0'" "$l" --streams=4,0
expect 0 "inline_ladder: no CUDA device" "$l" --streams=4 --reps=1
expect 0 "issue_cost: no CUDA device" "$dir/issue_cost" --rounds=1 --calls=1
expect 64 "--launches" "$dir/histogram_shapes" --launches=0
expect 0 "histogram_shapes: no CUDA device" "$dir/histogram_shapes" --launches=3
expect 64 "bad flag --calls=2000" "$dir/issue_cost" --calls=2000
expect 64 "--seeds" "$dir/controller_replay" --seeds=0 x.csv
expect 64 "--revisit-batches" "$dir/controller_replay" --revisit-batches=0 x.csv
expect 64 "--samples-per-candidate" "$dir/controller_replay" --samples-per-candidate=33 x.csv
# A sweep replayed with another profile than the one its rows name is refused (65), as
# trace_replay refuses it (replayed quietly before session 50); a directory is no sweep (66).
root="$(cd "$(dirname "$0")/.." && pwd)"
sweep229="$root/docs/evidence/run229/sweep-1A1.csv.gz"
if [ -f "$sweep229" ]; then
  tmp_csv="$(mktemp)"
  zcat "$sweep229" > "$tmp_csv"
  expect 65 "was measured with the profile fnv1a64:51dd535dba0a7d8b" "$dir/controller_replay" \
    "$tmp_csv" "$root/docs/evidence/run257/h200-1.toml" --seeds=1
  rm -f "$tmp_csv"
fi
expect 66 ": a directory" "$dir/controller_replay" "$root" "$root/docs/evidence/run117/h100.toml"
expect 64 "--list=-1" "$dir/trace_replay" --list=-1 a b c
expect 64 "--set=adaptive.bogus=1" "$dir/trace_replay" --set=adaptive.bogus=1 a b c
expect 64 "--set=noequals: not KEY=VALUE" "$dir/trace_replay" --set=noequals a b c
expect 64 "unknown flag --frob" "$dir/trace_replay" --frob a b c
expect 64 "usage: trace_replay" "$dir/trace_replay" a b
expect 64 "--hand-join takes after or interleaved, not 'before'" "$dir/pipeline_bench" \
  --hand-join=before
expect 64 "unrecognized command-line flag: --bogus" "$dir/pipeline_bench" --bogus
expect 0 "pipeline_bench: no CUDA device" "$dir/pipeline_bench" --benchmark_filter=BM_Paired/1/1/ \
  --hand-join=after
expect 64 "pipeline_bench: no benchmark ran" "$dir/pipeline_bench" --benchmark_filter=BM_Nothing
expect 64 "unrecognized command-line flag: --frobnicate" "$dir/optimizer_bench" --frobnicate
expect 64 "optimizer_bench: no benchmark ran" "$dir/optimizer_bench" --benchmark_filter=BM_Nothing
expect 0 "" "$dir/optimizer_bench" --benchmark_filter=BM_ChooseBest64/current --benchmark_min_time=0.01
if [ -n "$matmul" ]; then
  expect 64 "not '12x'" "$matmul" 12x
  expect 64 "not '0'" "$matmul" 0
  expect 64 "one argument, not 2" "$matmul" 12x 5
  expect 69 "no CUDA device" "$matmul" 64
fi
# --help (and -h): the synopsis on stdout, exit 0, before any GPU is looked for (an unknown
# flag, 64, before session 50).
for tool in adaptive_bench histogram_bench soak histogram_shapes issue_cost trace_replay \
            controller_replay inline_ladder instance_spread; do
  if [ ! -x "$dir/$tool" ]; then
    [ "$allow_missing" = 1 ] && { echo "skip: $tool"; continue; }
    echo "FAIL: $tool is not in $dir"; fails=$((fails + 1)); continue
  fi
  for flag in --help -h; do
    out="$(CUDA_VISIBLE_DEVICES=-1 timeout 60 "$dir/$tool" "$flag" 2>/dev/null)"
    rc=$?
    if [ "$rc" != 0 ] || [[ "$out" != "usage: $tool "* ]] || [[ "$out" != *"bench/$tool.cpp"* ]]; then
      echo "FAIL: $tool $flag: exit $rc, stdout: $out"
      fails=$((fails + 1))
    else
      echo "ok: $tool $flag -> 0: $(echo "$out" | head -c 60)..."
    fi
  done
done
echo "$fails failed"
[ "$fails" = 0 ]
