# The suite's programs as bench/run and bench/record run them: where each
# binary is, the sizes of the workloads, and the workloads.  Sourced after
# lib.sh; W (the suite's work directory, with its inputs in $W/in) set by
# the caller.

workload_sizes() { # 1: quick
  # Workload sizes: ref inputs take about 1-2 s at -O2; callgrind runs a
  # smaller ref input; training runs different inputs (see workload()).
  if [ "$1" = 1 ]; then
    MB_bzip2=4 MB_gzip=2 MB_zstd=4 MB_xz=1 LUA_SCALE=6 SQL_ROWS=25000 RE_LINES=15000 MUJS_SCALE=4
  else
    MB_bzip2=20 MB_gzip=10 MB_zstd=20 MB_xz=3 LUA_SCALE=25 SQL_ROWS=80000 RE_LINES=60000 MUJS_SCALE=16
  fi
  CG_MB=1 CG_LUA_SCALE=1 CG_SQL_ROWS=4000 TRAIN_LUA_SCALE=1 TRAIN_SQL_ROWS=20000 CG_RE_LINES=4000
  CG_MUJS_SCALE=1 TRAIN_MUJS_SCALE=2
}

bin_of() { # program dir
  case $1 in lua) echo "$2/src/lua" ;; xz) echo "$2/src/xz/xz" ;; zstd) echo "$2/programs/zstd" ;; pcre2) echo "$2/pcre2grep" ;; *) echo "$2/$1" ;; esac
}

# RUN prefixes every program invocation: empty, or callgrind_run.
RUN=
compress_rt() { # bin level in out compress-flags...: compress, check the round trip
  local b=$1 l=$2 in=$3 out=$4; shift 4
  $RUN "$b" "$@" "-$l" -c < "$in" > "$out" && $RUN "$b" "$@" -dc < "$out" | cmp -s - "$in"
}
# One workload: program binary kind(train|ref|cg) output-file.  The output
# file is what must equal O2's.
workload() {
  local p=$1 b=$2 k=$3 out=$4 i=$W/in
  case $p:$k in
    bzip2:train) compress_rt "$b" 1 "$i/$p.train" "$out.1" && compress_rt "$b" 9 "$i/$p.train" "$out" ;;
    bzip2:*) compress_rt "$b" 9 "$i/$p.$k" "$out" ;;
    gzip:train) compress_rt "$b" 1 "$i/$p.train" "$out.1" -n && compress_rt "$b" 9 "$i/$p.train" "$out" -n ;;
    gzip:*) compress_rt "$b" 9 "$i/$p.$k" "$out" -n ;;
    zstd:train) compress_rt "$b" 3 "$i/$p.train" "$out.1" -q --single-thread && compress_rt "$b" 12 "$i/$p.train" "$out" -q --single-thread ;;
    zstd:*) compress_rt "$b" 12 "$i/$p.$k" "$out" -q --single-thread ;;
    xz:train) compress_rt "$b" 1 "$i/$p.train" "$out.1" -q -T1 && compress_rt "$b" 6 "$i/$p.train" "$out" -q -T1 ;;
    xz:*) compress_rt "$b" 6 "$i/$p.$k" "$out" -q -T1 ;;
    lua:*)
      local s scale
      case $k in train) scale=$TRAIN_LUA_SCALE ;; ref) scale=$LUA_SCALE ;; cg) scale=$CG_LUA_SCALE ;; esac
      if [ $k = train ]; then set -- "$BENCH_DIR"/workloads/*.lua; else set -- "$BENCH_DIR"/workloads/ref/*.lua; fi
      : > "$out"
      for s in "$@"; do $RUN "$b" "$s" "$scale" >> "$out" || return 1; done ;;
    sqlite3:*) $RUN "$b" :memory: < "$i/$p.$k" > "$out" ;;
    pcre2:*) regex_run "$b" "$i/$p.$k" "$out" ;;
    # One script; its scale and seed (the numbers, expressions and words it
    # generates) differ by kind.
    mujs:train) $RUN "$b" "$BENCH_DIR/workloads/mujs-bench.js" "$TRAIN_MUJS_SCALE" 1 > "$out" ;;
    mujs:ref) $RUN "$b" "$BENCH_DIR/workloads/mujs-bench.js" "$MUJS_SCALE" 2 > "$out" ;;
    mujs:cg) $RUN "$b" "$BENCH_DIR/workloads/mujs-bench.js" "$CG_MUJS_SCALE" 4 > "$out" ;;
  esac
}
# pcre2grep once per pattern of regex.pat, outputs appended.  Exit status
# 1 is "no line matched" (training on C sources); 2 and up are errors.
regex_run() { # pcre2grep input output
  local b=$1 in=$2 out=$3 opts pat rc
  : > "$out"
  while IFS=$'\t' read -r opts pat; do
    case $opts in ''|'#'*) continue ;; esac
    rc=0; $RUN "$b" $opts -e "$pat" < "$in" >> "$out" || rc=$?
    [ $rc -le 1 ] || return 1
  done < "$BENCH_DIR/workloads/regex.pat"
}
