#!/bin/sh
# make check's end-to-end tests: one runtest per .exp file, JOBS of them at
# a time (default: the number of CPUs), each with its own output directory
# (out/DIR-NAME) and work folder (work/DIR-NAME/, PPGCC_WORK_ROOT in
# lib/ppgcc.exp), so that two files' tests of the same name do not meet.
# One runtest for all 53 files took 42 minutes of CI's 43; the files run
# longest first (exp-order, measured), the rest after them, and the ones
# that measure time alone at the end (exp-order's "serial:" list).  Then the
# files' .sum and .log are joined into ppgcc.sum and ppgcc.log in a fixed
# order (the directory's), so the tally and a diff of two runs read as
# from one runtest.
#
# Usage: run-exp-parallel.sh SRCDIR RUNTEST [runtest arguments...]
# Exit status 1 when any runtest failed (a FAIL, an ERROR, an unresolved
# test), as automake's serial check-DEJAGNU.
set -u
# One file (the script runs itself under xargs for each): its runtest, its
# seconds in out/NAME/seconds, its exit status in out/NAME/status.
if [ "$1" = --one ]; then
  exp=$2 srcdir=$3 runtest=$4
  shift 4
  name=$(echo "$exp" | sed 's|/|-|; s|\.exp$||')
  mkdir -p "out/$name"
  start=$(date +%s)
  "$runtest" --tool ppgcc --srcdir "$srcdir" --outdir "out/$name" "$@" \
    PPGCC_WORK_ROOT="$(pwd)/work/$name" "$exp" > "out/$name/stdout" 2>&1
  echo $? > "out/$name/status"
  echo $(( $(date +%s) - start )) > "out/$name/seconds"
  echo "$exp: $(grep -c '^PASS' "out/$name/ppgcc.sum" 2>/dev/null) passed," \
    "$(grep -c '^FAIL' "out/$name/ppgcc.sum" 2>/dev/null) failed" \
    "($(cat "out/$name/seconds") s)"
  exit 0
fi
srcdir=$1 runtest=$2
shift 2
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
rm -rf out
mkdir -p out work

# The .exp files: the measured order first, then any others by name.
all=$(cd "$srcdir" && ls ppgcc.*/*.exp)
echo "$all" > out/all
# exp-order's files after its line "serial:" measure time (a metric's
# ratio, timer samples): they run one at a time, after the others, on an
# otherwise idle machine (two at once, record/lines.exp's sampled rates
# and cctrt's dumpmetric ratio failed under a load of 3 on 2 CPUs).
order=/dev/null
[ -f "$srcdir/exp-order" ] && order=$srcdir/exp-order
awk '/^serial:/ { s = 1; next } !/^#/ && NF && s { print $1 }' "$order" > out/serial
{
  grep -v '^#' "$order" | grep -v '^serial:'
  cat out/all
} | awk 'FILENAME == ARGV[1] { ok[$1] = 1; next }
         FILENAME == ARGV[2] { serial[$1] = 1; next }
         NF && ok[$1] && !serial[$1] && !seen[$1]++ { print $1 }' \
      out/all out/serial - > out/order

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
xargs -P "$jobs" -I{} sh "$self" --one {} "$srcdir" "$runtest" "$@" < out/order
awk 'NR == FNR { ok[$1] = 1; next } ok[$1]' out/all out/serial \
  | xargs -P 1 -I{} sh "$self" --one {} "$srcdir" "$runtest" "$@"
rc=0
: > ppgcc.sum
: > ppgcc.log
for exp in $all; do
  name=$(echo "$exp" | sed 's|/|-|; s|\.exp$||')
  if [ ! -f "out/$name/status" ]; then
    echo "ERROR: $exp did not run" | tee -a ppgcc.sum
    rc=1
    continue
  fi
  [ "$(cat "out/$name/status")" = 0 ] || rc=1
  cat "out/$name/ppgcc.sum" >> ppgcc.sum 2>/dev/null
  cat "out/$name/ppgcc.log" >> ppgcc.log 2>/dev/null
done
# The seconds each file took, slowest first: what exp-order is made from.
for d in out/*/; do
  [ -f "$d/seconds" ] || continue
  n=$(basename "$d")
  echo "$(cat "$d/seconds") $(echo "$n" | sed 's|-|/|').exp"
done | sort -rn > out/seconds
grep -E '^(FAIL|ERROR|UNRESOLVED|XPASS)' ppgcc.sum | head -50
exit $rc
