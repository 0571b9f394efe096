#!/bin/sh
# Csmith differential testing at scale: N random programs (seeds FIRST ..
# FIRST+N-1) must print the same checksum built with gcc -O2 and with
# ppgcc -fprofile-paths -O2.  Not part of make check (see ppgcc.csmith/).
#   testsuite/csmith-many.sh BUILD_DIR [N [FIRST]]
set -u
build=${1:?usage: csmith-many.sh BUILD_DIR [N [FIRST]]}
n=${2:-1000}
first=${3:-100000}
ppgcc="$build/driver/ppgcc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 skip=0
seed=$first
while [ "$seed" -lt $((first + n)) ]; do
  csmith --seed "$seed" --max-funcs 8 > "$work/t.c"
  if gcc -O2 -w -I/usr/include/csmith "$work/t.c" -o "$work/plain" \
     && want=$(cd "$work" && timeout 10 ./plain); then
    if "$ppgcc" -fprofile-paths -O2 -w -I/usr/include/csmith "$work/t.c" -o "$work/inst" \
       && got=$(cd "$work" && timeout 60 ./inst) && [ "$got" = "$want" ]; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); echo "FAIL: csmith seed $seed"
    fi
  else
    skip=$((skip + 1))
  fi
  rm -f "$work"/*.ppd
  seed=$((seed + 1))
done
echo "csmith: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
