# The pcre2 workload (bench/run): one pcre2grep run per line over the
# input, "OPTIONS<TAB>PATTERN"; the outputs, in order, are compared with
# O2's.  Blank lines and lines starting with # are skipped.
-o	\b[\w.]+@[\w-]+\.(?:com|org|net|de)\b
-c	(?i)\b(?:error|warn(?:ing)?|fatal)\b
-o	\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b
-c	\b(\w+) \1\b
-o	"(?:[^"\\]|\\.)*"
-c	^(?=.*\bkey\d=)(?!.*\bcold\b).*\d{4}-\d{2}-\d{2}
-o -u	\b\p{Lu}\p{Ll}+\b
-c	(?:[aeiou]){2,}.*?(?<![aeiou])x
-o	\b(\w)(\w)?\w?\2\1\b
-o	(?:\d+,)+\d+;
-c	\b[a-z]++\d+\b
-o	\((?:[^()]++|(?R))*\)
-c -i	^\S+ (?:info|debug) .*(?:hash|tree).*\d{5}$
