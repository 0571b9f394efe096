# fnpaths.py FN: the paths of function FN in `ppprof report --json` on
# stdin, one "id count" line each, sorted by id.
import json
import sys

fn = sys.argv[1]
report = json.load(sys.stdin)
paths = sorted((p["id"], p["count"])
               for f in report["functions"] if f["name"] == fn
               for p in f["paths"])
for i, c in paths:
    print(i, c)
