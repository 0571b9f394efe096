#!/bin/sh
# make check: ppnum's output on the graphs here must match the expected
# files exactly (see README).  Usage: check-ppnum.sh [PPNUM]
srcdir=$(cd "$(dirname "$0")" && pwd)
ppnum=${1:-${PPNUM:-../ppnum/ppnum}}
case $ppnum in /*) ;; *) ppnum=$(pwd)/$ppnum ;; esac
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
cd "$srcdir" || exit 99
pass=0 fail=0
for g in *.graph; do
  name=${g%.graph}
  case $name in
    err_*)
      "$ppnum" --json "$g" >"$tmp/out" 2>"$tmp/err"; rc=$?
      if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && cmp -s "$tmp/err" "$name.err"; then
        pass=$((pass + 1))
      else
        fail=$((fail + 1)); echo "FAIL: $g (exit $rc)"; diff "$name.err" "$tmp/err"
      fi ;;
    *)
      "$ppnum" --json "$g" >"$tmp/out" 2>"$tmp/err"; rc=$?
      if [ $rc -eq 0 ] && cmp -s "$tmp/out" "$name.json"; then
        pass=$((pass + 1))
      else
        fail=$((fail + 1)); echo "FAIL: $g (exit $rc)"; diff "$name.json" "$tmp/out" | head -20; cat "$tmp/err"
      fi ;;
  esac
done
echo "ppnum: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
