# Drift re-derivations kept or not, by batch size, from the sweeps' "adaptive events" lines
# (tiny: the 0.5 and 2 MiB matrix products and the 1.5 and 6.2 MiB histograms).
# `bash docs/evidence/run123/kept_by_size.sh` from the repository root.
cd docs/evidence
for f in run121/sweep-a1 run121/sweep-a2 run121/sweep-a3 run123/sweep-e1 run123/sweep-e2; do
  zcat $f.log.gz | grep -B2 "adaptive events" | grep -E "^  [a-z]|adaptive events" | paste - - |
    awk -v f=$f '{tiny = ($0 ~ /in +0\.5 MiB|in +1\.5 MiB|in +2\.0 MiB|in +6\.2 MiB/) ? "tiny" : "larger";
      n = split($0, a, "drift:"); for (i = 2; i <= n; i++) cnt[f " " tiny " " ((a[i] ~ /^[0-9]+->[0-9]+@[0-9]+\(kept\)/) ? "kept" : "not-kept")]++}
      END {for (k in cnt) print k, cnt[k]}' | sort
done
