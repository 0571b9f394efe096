#!/usr/bin/env python3
"""Prints a `ppprof cct --paths N --json` tree one line per call chain, in
a canonical form the tests compare exactly:
    main;a;c calls=2 paths=2,2,8190
The tree keeps call sites apart (PLDI'97 §4.1: a callee slot per call
site); contexts with the same chain of function names are added up here:
calls and path counts by path id (printed sorted).  --recursive adds
the folded recursive calls (which depend on how sites were told apart:
on inlining), --sites adds how many call-site contexts the chain had,
--versions names a function of several CFG versions (a program rebuilt
at another -O level) NAME@K, K its version.  --metric NAME
adds the metric's exclusive value and its source:  NAME=1234 (tsc)."""
import json
import sys

args = sys.argv[1:]
metric = None
sites = False
recursive = False
versions = False
while args and args[0].startswith("--"):
    if args[0] == "--metric":
        metric = args[1]
        args = args[2:]
    elif args[0] == "--recursive":
        recursive = True
        args = args[1:]
    elif args[0] == "--versions":
        versions = True
        args = args[1:]
    elif args[0] == "--sites":
        sites = True
        args = args[1:]
    else:
        sys.exit("contexts.py: unknown option " + args[0])
doc = json.load(open(args[0]) if args else sys.stdin)
source = {m["name"]: m["source"] for m in doc["metrics"]}
chains = {}


def walk(node, chain):
    name = node["name"]
    if versions and "cfg_version" in node:
        name += "@%d" % node["cfg_version"]
    chain = chain + [name]
    key = ";".join(chain)
    c = chains.setdefault(key, {"calls": 0, "recursive": 0, "paths": {},
                                "sites": 0, "metric": 0})
    c["calls"] += node["calls"]
    c["recursive"] += node["recursive"]
    c["sites"] += 1
    for p in node.get("paths", []):
        c["paths"][p["id"]] = c["paths"].get(p["id"], 0) + p["count"]
    if metric:
        c["metric"] += node[metric]["exclusive"] or 0
    for child in node["children"]:
        walk(child, chain)


for root in doc["tree"]:
    walk(root, [])
for key in sorted(chains):
    c = chains[key]
    line = "%s calls=%d" % (key, c["calls"])
    if recursive:
        line += " recursive=%d" % c["recursive"]
    line += " paths=" + ",".join(str(n) for n in sorted(c["paths"].values()))
    if sites:
        line += " sites=%d" % c["sites"]
    if metric:
        line += " %s=%d (%s)" % (metric, c["metric"], source[metric])
    print(line)
