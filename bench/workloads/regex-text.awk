# Deterministic log-like text for the pcre2 workload (bench/run): dates,
# levels, e-mail and IP addresses, key=value pairs, quoted strings with
# escapes, nested parentheses, repeated words and UTF-8 names, so that
# every pattern of regex.pat matches.  awk -v n=LINES -v seed=S -f ...
# Its own LCG (exact in a double), not rand(): the same text with any awk.
function r(k) { s = (s * 69069 + 1) % 4294967296; return int(s / 65536) % k }
function pick(a, k) { return a[1 + r(k)] }
BEGIN {
  s = seed + 0
  nw = split("path hot cold edge loop call return branch counter profile table hash segment merge node graph tree value key index block entry exit", w, " ")
  nl = split("INFO DEBUG warn WARNING error Fatal note trace", lv, " ")
  nu = split("Émile Zoë Ångström Łukasz Ñandú Øyvind Çelik Ärger Ölmühle Straße", u, " ")
  nd = split("com org net de io", dom, " ")
  for (i = 0; i < n; i++) {
    line = sprintf("%04d-%02d-%02d %s", 2000 + r(27), 1 + r(12), 1 + r(28), pick(lv, nl))
    k = 3 + r(9)
    for (j = 0; j < k; j++) {
      t = r(16)
      if (t < 6) x = pick(w, nw)
      else if (t == 6) x = pick(w, nw) "." pick(w, nw) "@" pick(w, nw) "-" r(100) "." pick(dom, nd)
      else if (t == 7) x = r(256) "." r(256) "." r(256) "." r(300)
      else if (t == 8) x = "key" r(10) "=" r(100000)
      else if (t == 9) x = "\"" pick(w, nw) (r(3) ? " " : "\\\" ") pick(w, nw) "\""
      else if (t == 10) x = "(" pick(w, nw) (r(2) ? " (" r(1000) (r(2) ? " (x)" : "") ")" : "") ")"
      else if (t == 11) { x = pick(w, nw); x = x " " x }
      else if (t == 12) x = pick(u, nu)
      else if (t == 13) x = r(10) "," r(100) "," r(1000) ";"
      else if (t == 14) x = substr("abcdefghijklmnopqrstuvwxyz", 1 + r(20), 2 + r(5))
      else x = r(1000000)
      line = line " " x
    }
    print line
  }
}
