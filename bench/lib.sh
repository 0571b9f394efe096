# Shared by the bench/ scripts (realworld, overhead, residual, run).  Sourced, not run.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$BENCH_DIR/.." && pwd)
CACHE=${PPGCC_BENCH_CACHE:-$HOME/.cache/ppgcc-bench}
mkdir -p "$CACHE"

say() { printf '%s\n' "$*" >&2; }
die() { say "bench: $*"; exit 1; }

# The ppgcc build to use: $PPGCC_BUILD, else the repository's own in-tree
# build (README quick start), else one made in the cache.
find_ppgcc() {
  if [ -n "${PPGCC_BUILD:-}" ]; then B=$PPGCC_BUILD
  elif [ -x "$REPO/driver/ppgcc" ]; then B=$REPO
  else
    B=$CACHE/build
    if [ ! -x "$B/driver/ppgcc" ]; then
      say "bench: building ppgcc in $B"
      (cd "$REPO" && autoreconf -fi >/dev/null)
      mkdir -p "$B" && (cd "$B" && "$REPO/configure" -q && make -s -j2) >&2
    fi
  fi
  PPGCC=$B/driver/ppgcc
  PPPROF=$B/tools/ppprof
  [ -x "$PPGCC" ] && [ -x "$PPPROF" ] || die "no ppgcc build in $B"
}

# Debian source packages into the cache (deb-src enabled if missing).
fetch_source() {
  local pkg=$1
  if ! ls -d "$CACHE/$pkg"-*/ >/dev/null 2>&1; then
    if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
      say "bench: enabling deb-src"
      local sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
      sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
        | $sudo tee /etc/apt/sources.list.d/ppgcc-deb-src.sources >/dev/null
      $sudo apt-get update -qq
    fi
    # The newest version can be missing from the mirror (pcre2's security
    # update, 404): then try the other versions apt-cache knows, newest first.
    if ! (cd "$CACHE" && apt-get source -qq "$pkg" >/dev/null 2>&1); then
      local v ok=0
      for v in $(apt-cache showsrc "$pkg" 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -urV); do
        (cd "$CACHE" && apt-get source -qq "$pkg=$v" >/dev/null 2>&1) && { ok=1; break; }
      done
      [ $ok = 1 ] || die "apt-get source $pkg failed"
    fi
  fi
  ls -d "$CACHE/$pkg"-*/ | head -1 | sed 's:/$::'
}

# A fresh copy of a source tree.
fresh_copy() { rm -rf "$2"; cp -r "$1" "$2"; }

# Builds: bzip2 and lua with their own Makefiles, CC as given: DIR CC
# CFLAGS [LOG] (the compiler's messages go to LOG, else nowhere).
build_bzip2() { make -C "$1" -s CC="$2" CFLAGS="$3 -D_FILE_OFFSET_BITS=64" bzip2 >"${4:-/dev/null}" 2>&1; }
# lua: DIR CC CFLAGS [LOG], with a fixed hash seed (lua-fixed-seed.h) so
# that its instruction counts repeat.
build_lua() { make -C "$1/src" -s CC="$2" MYCFLAGS="$3 -include $BENCH_DIR/lua-fixed-seed.h" MYLDFLAGS="$3" linux-noreadline >"${4:-/dev/null}" 2>&1; }

# Deterministic input for bzip2: about $1 MB of varied text.
make_text() {
  local mb=$1 out=$2
  [ -s "$out" ] && return 0
  awk -v n=$((mb * 26000)) 'BEGIN { s = 12345; for (i = 0; i < n; i++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      printf "%d path %s %d %s\n", i, (s % 7 ? "hot" : "cold"), s % 100003, substr("abcdefghijklmnopqrstuvwxyz", 1 + s % 26) } }' > "$out"
}

# The upstream tree inside a source package (its orig tarball): PKG NAME.
upstream_source() {
  fetch_source "$1" >/dev/null
  local tarball; tarball=$(ls "$CACHE/$1"_*.orig.tar.gz | head -1)
  local dir="$CACHE/$2-upstream"
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir" && tar xzf "$tarball" -C "$dir" --strip-components=1
  fi
  echo "$dir"
}
lua_upstream_source() { upstream_source lua5.4 lua; }
bzip2_upstream_source() { upstream_source bzip2 bzip2; }
