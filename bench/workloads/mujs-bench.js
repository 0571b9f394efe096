// Deterministic mujs workload (bench/run): a recursive-descent parser and
// evaluator of arithmetic expressions (a tree walker and closures compiled
// from the tree), merge sorts of numbers and of strings with a comparator,
// string building and splitting, object and array property traffic through
// prototypes, closures.  ES5 only (mujs); no Date, no Math.random: the
// numbers come from a Park-Miller generator, exact in doubles.
//   mujs mujs-bench.js [SCALE [SEED]]
var scale = Number(scriptArgs[0]) || 1;
var seed = Number(scriptArgs[1]) || 1;
function rand(n) { seed = seed * 48271 % 2147483647; return seed % n; }
var M = 1000003;
function mod(x) { x = x % M; return x < 0 ? x + M : x; }

// ---------------------------------------------------------------- expressions
var VARS = ["a", "b", "c", "x", "y", "z", "n", "k"];
// Three levels of operators at most: mujs's value stack (256 values) holds
// about forty calls, and parsing and evaluating take several a level (four
// levels overflow it).
function genExpr(depth) {
  var r = rand(depth > 2 ? 2 : 10);
  if (r === 0) return String(rand(1000));
  if (r === 1) return VARS[rand(VARS.length)];
  if (r === 2) return "(" + genExpr(depth + 1) + ")";
  if (r === 3) return "-" + genExpr(depth + 1);
  if (r === 4) return "f(" + genExpr(depth + 1) + ", " + genExpr(depth + 1) + ")";
  return genExpr(depth + 1) + " " + "+-*/%"[r - 5] + " " + genExpr(depth + 1);
}
function Lexer(s) { this.s = s; this.i = 0; this.tok = null; this.val = null; this.next(); }
Lexer.prototype.next = function () {
  var s = this.s, i = this.i, c;
  while (i < s.length && s.charAt(i) === " ") i++;
  if (i >= s.length) { this.tok = "eof"; this.i = i; return; }
  c = s.charCodeAt(i);
  if (c >= 48 && c <= 57) {
    var v = 0;
    while (i < s.length && (c = s.charCodeAt(i)) >= 48 && c <= 57) { v = v * 10 + (c - 48); i++; }
    this.tok = "num"; this.val = v;
  } else if (c >= 97 && c <= 122) {
    var j = i;
    while (i < s.length && (c = s.charCodeAt(i)) >= 97 && c <= 122) i++;
    this.tok = "id"; this.val = s.substring(j, i);
  } else {
    this.tok = s.charAt(i); i++;
  }
  this.i = i;
};
Lexer.prototype.expect = function (t) {
  if (this.tok !== t) throw new Error("expected " + t + " at " + this.i + ", got " + this.tok);
  this.next();
};
// expr := term (('+'|'-') term)*; term := unary (('*'|'/'|'%') unary)*;
// unary := '-' unary | primary; primary := num | id | id '(' expr ',' expr ')' | '(' expr ')'
function parseExpr(lx) {
  var l = parseTerm(lx);
  while (lx.tok === "+" || lx.tok === "-") { var op = lx.tok; lx.next(); l = { op: op, l: l, r: parseTerm(lx) }; }
  return l;
}
function parseTerm(lx) {
  var l = parseUnary(lx);
  while (lx.tok === "*" || lx.tok === "/" || lx.tok === "%") { var op = lx.tok; lx.next(); l = { op: op, l: l, r: parseUnary(lx) }; }
  return l;
}
function parseUnary(lx) {
  if (lx.tok === "-") { lx.next(); return { op: "neg", l: parseUnary(lx) }; }
  return parsePrimary(lx);
}
function parsePrimary(lx) {
  var t = lx.tok, v = lx.val;
  if (t === "num") { lx.next(); return { op: "num", v: v }; }
  if (t === "id") {
    lx.next();
    if (lx.tok !== "(") return { op: "var", v: v };
    lx.next();
    var a = parseExpr(lx); lx.expect(",");
    var b = parseExpr(lx); lx.expect(")");
    return { op: "call", v: v, l: a, r: b };
  }
  if (t === "(") { lx.next(); var e = parseExpr(lx); lx.expect(")"); return e; }
  throw new Error("unexpected " + t);
}
function idiv(a, b) { return b === 0 ? 0 : Math.floor(a / b); }
function imod(a, b) { return b === 0 ? 0 : mod(a % b); }
function fcall(a, b) { return mod(a * 31 + b * 17 + 7); }
// The tree walker: a switch on the node's operator.
function evalTree(e, env) {
  switch (e.op) {
  case "num": return e.v;
  case "var": return env[e.v];
  case "neg": return mod(-evalTree(e.l, env));
  case "+": return mod(evalTree(e.l, env) + evalTree(e.r, env));
  case "-": return mod(evalTree(e.l, env) - evalTree(e.r, env));
  case "*": return mod(evalTree(e.l, env) * evalTree(e.r, env));
  case "/": return idiv(evalTree(e.l, env), evalTree(e.r, env));
  case "%": return imod(evalTree(e.l, env), evalTree(e.r, env));
  case "call": return fcall(evalTree(e.l, env), evalTree(e.r, env));
  }
  throw new Error("bad node " + e.op);
}
// The same tree compiled into closures.
var BIN = {
  "+": function (a, b) { return mod(a + b); },
  "-": function (a, b) { return mod(a - b); },
  "*": function (a, b) { return mod(a * b); },
  "/": idiv, "%": imod, "call": fcall
};
function compile(e) {
  if (e.op === "num") { var v = e.v; return function () { return v; }; }
  if (e.op === "var") { var name = e.v; return function (env) { return env[name]; }; }
  if (e.op === "neg") { var f = compile(e.l); return function (env) { return mod(-f(env)); }; }
  var l = compile(e.l), r = compile(e.r), op = BIN[e.op];
  return function (env) { return op(l(env), r(env)); };
}
function show(e) {
  switch (e.op) {
  case "num": return String(e.v);
  case "var": return e.v;
  case "neg": return "-(" + show(e.l) + ")";
  case "call": return e.v + "(" + show(e.l) + ", " + show(e.r) + ")";
  }
  return "(" + show(e.l) + " " + e.op + " " + show(e.r) + ")";
}
function exprBench(n) {
  var sum = 0, nodes = 0, chars = 0, errors = 0;
  for (var i = 0; i < n; i++) {
    var src = genExpr(0);
    chars += src.length;
    var tree = parseExpr(new Lexer(src));
    // Printed back fully parenthesised, parsed again: the same value.
    var again = parseExpr(new Lexer(show(tree)));
    var fn = compile(tree);
    for (var j = 0; j < 4; j++) {
      var env = {};
      for (var k = 0; k < VARS.length; k++) env[VARS[k]] = rand(10000);
      var a = evalTree(tree, env), b = fn(env), c = evalTree(again, env);
      if (a !== b || a !== c) errors++;
      sum = mod(sum * 7 + a);
    }
    nodes += countNodes(tree);
    try { var bad = new Lexer("f(1 2)"); parseExpr(bad); } catch (err) { if (err.message.indexOf("expected ,") !== 0) errors++; }
  }
  print("expr", n, "chars", chars, "nodes", nodes, "sum", sum, "errors", errors);
}
function countNodes(e) { return e.op === "num" || e.op === "var" ? 1 : 1 + countNodes(e.l) + (e.r ? countNodes(e.r) : 0); }

// ---------------------------------------------------------------- merge sort
function mergeSort(a, cmp) {
  if (a.length < 2) return a;
  var mid = a.length >> 1;
  var l = mergeSort(a.slice(0, mid), cmp), r = mergeSort(a.slice(mid), cmp);
  var out = [], i = 0, j = 0;
  while (i < l.length && j < r.length) out.push(cmp(r[j], l[i]) < 0 ? r[j++] : l[i++]);
  while (i < l.length) out.push(l[i++]);
  while (j < r.length) out.push(r[j++]);
  return out;
}
function numCmp(a, b) { return a - b; }
function strCmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
var SYLL = ["ka", "lo", "mi", "ne", "ru", "so", "ta", "vi", "xe", "zu", "ba", "do"];
function word() {
  var w = "", n = 1 + rand(4);
  for (var i = 0; i < n; i++) w += SYLL[rand(SYLL.length)];
  return w;
}
function sortBench(n) {
  var nums = [], strs = [], recs = [];
  for (var i = 0; i < n; i++) { nums.push(rand(1000000) - 500000); strs.push(word()); }
  var sn = mergeSort(nums, numCmp), ss = mergeSort(strs, strCmp);
  var bad = 0, h = 0;
  for (i = 1; i < n; i++) { if (sn[i - 1] > sn[i]) bad++; if (ss[i - 1] > ss[i]) bad++; }
  for (i = 0; i < n; i += 97) h = mod(h * 31 + sn[i] + ss[i].length);
  // Records by two keys: the comparator reads properties.
  for (i = 0; i < n; i++) recs.push({ name: strs[i], score: nums[i] % 100, id: i });
  var sr = mergeSort(recs, function (a, b) { return b.score - a.score || strCmp(a.name, b.name) || a.id - b.id; });
  for (i = 0; i < n; i += 89) h = mod(h * 31 + sr[i].id);
  print("sort", n, "bad", bad, "min", sn[0], "max", sn[n - 1], "first", ss[0], "last", ss[n - 1], "hash", h);
}

// ---------------------------------------------------------------- strings
function stringBench(n) {
  var lines = [], i, j;
  for (i = 0; i < n; i++) {
    var f = [];
    for (j = 0; j < 3 + rand(6); j++) f.push(rand(5) === 0 ? String(rand(100000)) : word());
    lines.push(f.join(","));
  }
  var text = lines.join("\n");
  var freq = {}, keys = [], total = 0, numsum = 0, upper = 0;
  var rows = text.split("\n");
  for (i = 0; i < rows.length; i++) {
    var cols = rows[i].split(",");
    for (j = 0; j < cols.length; j++) {
      var w = cols[j], c = w.charCodeAt(0);
      if (c >= 48 && c <= 57) { numsum = mod(numsum + parseInt(w, 10)); continue; }
      if (!freq.hasOwnProperty(w)) { freq[w] = 0; keys.push(w); }
      freq[w]++; total++;
      if (w.indexOf("zu") >= 0) upper += w.toUpperCase().length;
    }
  }
  keys = mergeSort(keys, function (a, b) { return freq[b] - freq[a] || strCmp(a, b); });
  // A template expander: ${name} from an object.
  var tpl = "word ${w} seen ${n} times, ${p} per mille";
  var out = [];
  for (i = 0; i < 40 && i < keys.length; i++) {
    var vals = { w: keys[i], n: freq[keys[i]], p: Math.floor(freq[keys[i]] * 1000 / total) };
    out.push(tpl.replace(/\$\{(\w+)\}/g, function (m, k) { return String(vals[k]); }));
  }
  var h = 0;
  for (i = 0; i < out.length; i++) for (j = 0; j < out[i].length; j += 3) h = mod(h * 31 + out[i].charCodeAt(j));
  var rev = keys.slice(0, 200).map(function (k) { return k.split("").reverse().join(""); }).join(" ");
  print("strings", n, "distinct", keys.length, "total", total, "numsum", numsum, "upper", upper, "top", out[0], "hash", h, "rev", rev.length, rev.substring(0, 24));
}

// ---------------------------------------------------------------- objects
function Shape(kind, a, b) { this.kind = kind; this.a = a; this.b = b; }
Shape.prototype.area = function () { throw new Error("abstract " + this.kind); };
Shape.prototype.describe = function () { return this.kind + ":" + this.area(); };
function Rect(a, b) { Shape.call(this, "rect", a, b); }
Rect.prototype = Object.create(Shape.prototype);
Rect.prototype.area = function () { return this.a * this.b; };
function Circle(r) { Shape.call(this, "circle", r, r); }
Circle.prototype = Object.create(Shape.prototype);
Circle.prototype.area = function () { return 3 * this.a * this.a; };
function Tri(a, b) { Shape.call(this, "tri", a, b); }
Tri.prototype = Object.create(Shape.prototype);
Tri.prototype.area = function () { if (this.a < 0) throw new Error("negative"); return (this.a * this.b) >> 1; };
var MAKERS = [
  function () { return new Rect(rand(50), rand(50)); },
  function () { return new Circle(rand(30)); },
  function () { return new Tri(rand(60) - 5, rand(40)); },
  function () { return new Shape("blob", 0, 0); }
];
function objectBench(n) {
  var shapes = [], i, byKind = {}, errors = 0, areas = 0, descr = 0;
  for (i = 0; i < n; i++) shapes.push(MAKERS[rand(MAKERS.length)]());
  for (i = 0; i < shapes.length; i++) {
    var s = shapes[i];
    try { areas = mod(areas + s.area()); descr += s.describe().length; } catch (e) { errors++; }
    var g = byKind[s.kind] || (byKind[s.kind] = { count: 0, items: [] });
    g.count++; g.items.push(i);
  }
  // A grid as arrays of arrays, and an index of records by computed keys.
  var size = 32, grid = [], r, c;
  for (r = 0; r < size; r++) { grid.push([]); for (c = 0; c < size; c++) grid[r].push((r * c) % 7); }
  var idx = {}, life = 0;
  for (var step = 0; step < Math.max(1, n >> 9); step++) {
    var next = [];
    for (r = 0; r < size; r++) {
      var row = [];
      for (c = 0; c < size; c++) {
        var sum = 0;
        for (var dr = -1; dr <= 1; dr++) for (var dc = -1; dc <= 1; dc++) sum += grid[(r + dr + size) % size][(c + dc + size) % size];
        row.push(sum % 7);
      }
      next.push(row);
    }
    grid = next;
  }
  for (r = 0; r < size; r++) for (c = 0; c < size; c++) life += grid[r][c];
  for (i = 0; i < n; i++) {
    var key = "k" + (i % 97) + "_" + (i % 13);
    var rec = idx[key];
    if (!rec) rec = idx[key] = { hits: 0, last: -1, tags: [] };
    rec.hits++; rec.last = i;
    if (rec.tags.length < 8) rec.tags.push(i & 15);
  }
  var nkeys = 0, hits = 0, tags = 0;
  for (var k in idx) { nkeys++; hits += idx[k].hits; tags += idx[k].tags.length; }
  var kinds = Object.keys(byKind).sort();
  var kc = kinds.map(function (k) { return k + "=" + byKind[k].count; }).join(" ");
  print("objects", n, "areas", areas, "descr", descr, "errors", errors, kc, "life", life, "keys", nkeys, hits, tags);
}

// ---------------------------------------------------------------- closures
function counter() { var c = 0; return function (step) { c += step === undefined ? 1 : step; return c; }; }
function compose(f, g) { return function (x) { return f(g(x)); }; }
function adder(k) { return function (x) { return mod(x + k); }; }
function scaler(k) { return function (x) { return mod(x * k); }; }
function closureBench(n) {
  var acc = 0, i;
  for (i = 0; i < n; i++) {
    var f = counter();
    acc = mod(acc + f(i % 7) * f());
  }
  var chain = function (x) { return x; };
  for (i = 0; i < 12; i++) chain = compose(i & 1 ? adder(i) : scaler(i + 2), chain);
  for (i = 0; i < n; i++) acc = mod(acc + chain(i));
  var arr = [];
  for (i = 0; i < n; i++) arr.push(rand(1000));
  var m = arr.map(function (x) { return x * 3 + 1; })
             .filter(function (x) { return x % 4 !== 0; })
             .reduce(function (s, x) { return mod(s * 3 + x); }, 0);
  var memo = {};
  function fib(k) { if (k < 2) return k; var v = memo[k]; if (v !== undefined) return v; return memo[k] = mod(fib(k - 1) + fib(k - 2)); }
  function rfib(k) { return k < 2 ? k : rfib(k - 1) + rfib(k - 2); }
  // Upwards, so that the recursion stays two deep (mujs's value stack holds
  // 256 values).
  var fibs = 0;
  for (i = 0; i <= 300; i++) fibs = fib(i);
  var calls = 0;
  arr.forEach(function (x, j) { if ((x & 7) === 0) calls += j & 3; });
  print("closures", n, "acc", acc, "mapred", m, "fib", fibs, rfib(18), "calls", calls);
}

exprBench(150 * scale);
sortBench(500 * scale);
stringBench(400 * scale);
objectBench(800 * scale);
closureBench(1250 * scale);
