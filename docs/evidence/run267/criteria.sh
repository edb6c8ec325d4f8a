# Run 267's criteria 1 and 2 (run.sh), on the CPU, from the repository root:
#   bash docs/evidence/run267/criteria.sh [BUILD_DIR]
set -u
B=${1:-build/release}
D=docs/evidence/run267
T=$(mktemp -d)
for k in A B; do
  echo "== $k"
  zcat $D/sweep-$k.csv.gz > $T/s.csv; zcat $D/trace-$k.csv.gz > $T/t.csv
  "$B/bench/trace_replay" $T/s.csv $T/t.csv docs/evidence/run257/h200-1.toml 2>&1 |
    grep -E "not reproduced|replayed within|as the sweep wrote|^[a-z]+: [0-9]+ configurations"
  echo "trace_replay rc=${PIPESTATUS[0]}"
  # The first streamed (or explored) n of each configuration of its kept adaptive run.
  zcat $D/trace-$k.csv.gz | awk -F, 'NR > 1 && ($10 == "streamed" || $10 == "explore") {
      key = $1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $7
      if (!(key in first) || $8 > run[key]) { if ($8 > run[key]) delete first[key]; run[key] = $8 }
      if (!(key in first) && $8 == run[key]) first[key] = $11 }
    END { for (k in first) print k, first[k] }' | sort > $T/first-$k.txt
done
echo "== configurations whose first streamed n differs (A then B); the kernel's share of the non-streamed batch"
join -j1 <(awk '{k=$1; for(i=2;i<=7;i++) k=k"|"$i; print k, $8}' $T/first-A.txt | sort) \
         <(awk '{k=$1; for(i=2;i<=7;i++) k=k"|"$i; print k, $8}' $T/first-B.txt | sort) |
  awk '$2 != $3' | while read -r key a b; do
    IFS='|' read -r w g ib ob it ord iss <<<"$key"
    share=$(zcat $D/sweep-B.csv.gz | awk -F, -v w=$w -v g=$g -v ib=$ib -v it=$it -v o=$ord -v is=$iss \
      '$1==w && $2==g && $3==ib && $5==it && $6==o && $36==is && $7==1 {printf "%.2f", $13/($12+$13+$14); exit}')
    echo "  $w $g in $ib intensity $it $ord $iss: n $a -> $b (kernel share $share)"
  done
echo "configurations compared: $(wc -l < $T/first-A.txt) / $(wc -l < $T/first-B.txt)"
rm -rf $T
