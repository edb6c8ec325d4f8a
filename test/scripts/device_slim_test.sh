#!/usr/bin/env bash
# ctest device_slim: scripts/device-slim on a scratch git checkout. It takes the committed files
# of the run folders not kept out of the working tree, leaves untracked and changed files and the
# kept folders, and --restore brings back exactly what it took (git status as before); bad
# options exit 64, a folder that is no git checkout 66.
#   device_slim_test.sh SCRIPT
set -u
script="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() {  # check DESCRIPTION COMMAND...: the command must succeed
  local what="$1"
  shift
  if ! "$@"; then
    echo "FAIL: $what" >&2
    fails=$((fails + 1))
  fi
}
repo="$tmp/repo"
mkdir -p "$repo/scripts" "$repo/docs/evidence/runA" "$repo/docs/evidence/runB/sub" "$repo/lib"
cp "$script" "$repo/scripts/device-slim"
cd "$repo"
git init -q .
printf 'a\n' > docs/evidence/runA/log.txt
printf 'b1\n' > docs/evidence/runB/log.txt
printf 'b2\n' > docs/evidence/runB/sub/trace.csv
printf 'b3\n' > docs/evidence/runB/changed.txt
printf 'code\n' > lib/x.cpp
mkdir -p docs/evidence/runC docs/evidence/runD docs/evidence/runE docs/evidence/runF
printf 'e\n' > docs/evidence/runE/log.txt
printf 'f\n' > docs/evidence/runF/only.txt
ln -s log.txt docs/evidence/runE/link.txt                # a tracked link: stays
printf 'sw\n' > docs/evidence/runE/skip.txt             # skip-worktree below: stays
printf 'c\n' > "docs/evidence/runC/caf$(printf '\303\251').txt"   # a name git quotes
printf 'g\n' > 'docs/evidence/runC/a[1].txt'                       # a name that is a glob ...
printf 'y\n' > docs/evidence/runC/a1.txt                            # ... matching this one
printf 's\n' > docs/evidence/runC/staged.txt
printf 'mine\n' > docs/evidence/runC/gone.txt
printf 'd\n' > docs/evidence/runD/log.txt
git add -A
git -c user.name=t -c user.email=t@example.com commit -qm init
printf 'b3 edited\n' > docs/evidence/runB/changed.txt   # an uncommitted change
printf 'new\n' > docs/evidence/runB/fresh.txt           # untracked: a run's new output
mkdir -p docs/evidence/runB/empty                       # an empty untracked folder
printf 'edited\n' > "docs/evidence/runC/caf$(printf '\303\251').txt"
printf 'EDIT\n' > docs/evidence/runC/a1.txt
printf 'staged\n' > docs/evidence/runC/staged.txt      # staged, then the working copy put back
git add docs/evidence/runC/staged.txt
printf 's\n' > docs/evidence/runC/staged.txt
rm docs/evidence/runC/gone.txt                          # deleted by hand: stays deleted
git update-index --skip-worktree docs/evidence/runE/skip.txt
printf 'sw edited\n' > docs/evidence/runE/skip.txt      # an edit git diff does not show
before=$(git status --porcelain)

out=$(scripts/device-slim --keep=runA,docs/evidence/runD/ 2>&1)
rc=$?
check "slim exits 0 (got $rc: $out)" test "$rc" = 0
check "the report counts what it took: $out" grep -q "took 5 committed files" <<<"$out"
check "a tracked link stays" test -L docs/evidence/runE/link.txt
check "a skip-worktree file stays" grep -qx 'sw edited' docs/evidence/runE/skip.txt
check "runB's committed files are out" test ! -e docs/evidence/runB/log.txt -a ! -e docs/evidence/runB/sub/trace.csv
check "an emptied folder goes" test ! -e docs/evidence/runB/sub
check "an empty untracked folder stays" test -d docs/evidence/runB/empty
check "the kept folder stays" test -e docs/evidence/runA/log.txt
check "a kept folder named with its path and a slash stays" test -e docs/evidence/runD/log.txt
check "a changed file stays" grep -qx 'b3 edited' docs/evidence/runB/changed.txt
check "a changed file with a quoted name stays" grep -qx edited "docs/evidence/runC/caf$(printf '\303\251').txt"
check "an unchanged file named like a glob goes" test ! -e 'docs/evidence/runC/a[1].txt'
check "the file that glob matches, changed, stays" grep -qx EDIT docs/evidence/runC/a1.txt
check "a staged change stays" test -e docs/evidence/runC/staged.txt
check "an untracked file stays" test -e docs/evidence/runB/fresh.txt
check "code outside the run folders stays" test -e lib/x.cpp
scripts/device-slim --keep=runA >/dev/null 2>"$tmp/err"
rc=$?
check "a second slim before --restore exits 64 (got $rc)" test "$rc" = 64

# Meanwhile: a listed file made again, a file where a removed folder was, the deletions staged.
printf 'remade\n' > docs/evidence/runE/log.txt
printf 'a file\n' > docs/evidence/runF
GIT_LITERAL_PATHSPECS=1 git rm -q --cached docs/evidence/runB/log.txt 'docs/evidence/runC/a[1].txt'
out=$(scripts/device-slim --restore 2>&1)
rc=$?
check "restore exits 0 (got $rc: $out)" test "$rc" = 0
check "it says what it left out: $out" grep -q "1 left out" <<<"$out"
check "a file where a removed folder was is kept" grep -qx 'a file' docs/evidence/runF
check "a listed file made again is left as made" grep -qx remade docs/evidence/runE/log.txt
rm docs/evidence/runF
git checkout -q -- docs/evidence/runF/only.txt
printf 'e\n' > docs/evidence/runE/log.txt
check "restore brings the files back" grep -qx 'b2' docs/evidence/runB/sub/trace.csv
check "and the glob-named one" grep -qx 'g' 'docs/evidence/runC/a[1].txt'
check "git status as before: $(git status --porcelain | tr "\n" ";") against $(tr "\n" ";" <<<"$before")" test "$(git status --porcelain)" = "$before"
check "the change survives" grep -qx 'b3 edited' docs/evidence/runB/changed.txt
check "the glob-matched change survives" grep -qx EDIT docs/evidence/runC/a1.txt
check "a file deleted by hand stays deleted" test ! -e docs/evidence/runC/gone.txt
out=$(scripts/device-slim --restore 2>&1)
check "a second restore has nothing to do: $out" grep -q "nothing to restore" <<<"$out"

scripts/device-slim --keep=runZ >/dev/null 2>"$tmp/err"
rc=$?
check "a kept folder that is not there exits 64 (got $rc)" test "$rc" = 64
check "and names it" grep -q "docs/evidence/runZ" "$tmp/err"
check "nothing was taken out" test -e docs/evidence/runB/log.txt
for bad in ./runA runB/sub ../evidence/runA; do
  scripts/device-slim --keep="$bad" >/dev/null 2>"$tmp/err"
  rc=$?
  check "--keep=$bad exits 64 (got $rc)" test "$rc" = 64
done
check "nothing was taken out by them" test -e docs/evidence/runB/log.txt
scripts/device-slim --frobnicate >/dev/null 2>"$tmp/err"
rc=$?
check "a bad option exits 64 (got $rc)" test "$rc" = 64
check "and names it" grep -q "'--frobnicate'" "$tmp/err"

mkdir -p "$tmp/plain/scripts"
cp "$script" "$tmp/plain/scripts/device-slim"
(cd "$tmp" && GIT_CEILING_DIRECTORIES="$tmp" plain/scripts/device-slim >/dev/null 2>"$tmp/err")
rc=$?
check "outside a git checkout exits 66 (got $rc)" test "$rc" = 66
if [ "$fails" -gt 0 ]; then
  echo "device_slim: $fails checks failed" >&2
  exit 1
fi
echo "device_slim: all checks passed"
