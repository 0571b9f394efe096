/* Builds a pp_spec from the statements the graph-language parser
   (spec_parser.y) hands over, checks the rules of doc/graph-language.md
   that a grammar cannot express (declared nodes, one entry and one exit,
   no repeated attribute), and resolves paths against a numbering.  */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "spec_build.h"
#include "spec_parser.h"

/* Scanner entry points (flex, prefix pp_spec_yy).  */
int pp_spec_yylex_init_extra (pp_spec_lexstate *extra,
                              pp_spec_yyscan_t *scanner);
int pp_spec_yylex_destroy (pp_spec_yyscan_t scanner);
void *pp_spec_yy_scan_bytes (const char *bytes, int len,
                             pp_spec_yyscan_t scanner);

/* ------------------------------------------------------------- storage */

/* Strings handed to the parser live in chunks freed with the builder.  */
typedef struct chunk
{
  struct chunk *next;
  size_t used, size;
  char data[];
} chunk;

enum { CHUNK_SIZE = 16384 };

/* Where a name was first needed declared: an edge destination or a path.  */
enum { REF_NONE, REF_EDGE, REF_PATH };

typedef struct
{
  const char *name;  /* in the builder's chunks */
  int node;          /* graph node id */
  int declared;      /* by node, entry, exit or as an edge source */
  int ref;           /* REF_*: first use that needs the declaration */
  pp_spec_loc ref_loc;
} name_entry;

/* The function being built.  */
typedef struct
{
  int open;
  int anonymous;
  pp_spec_function fn;
  int paths_cap;
  int callers_cap;
  int derived_restarts_cap;
  name_entry *names;
  int num_names, names_cap;
  int *slots;        /* open addressing over names; -1 empty */
  int num_slots;     /* power of two */
  pp_spec_loc entry_loc, exit_loc, file_loc, checksum_loc, max_paths_loc;
} function_state;

struct pp_spec_builder
{
  const char *filename;
  char *err;
  size_t errlen;
  int failed;
  chunk *chunks;
  pp_spec_function *fns;
  int num_fns, fns_cap;
  function_state cur;
  pp_spec_path path;     /* the path statement being read */
  int path_cap;
};

char *
pp_spec_strdup (pp_spec_builder *b, const char *text, size_t len)
{
  chunk *c = b->chunks;
  char *s;
  if (!c || c->size - c->used < len + 1)
    {
      size_t size = len + 1 > CHUNK_SIZE ? len + 1 : CHUNK_SIZE;
      c = malloc (sizeof *c + size);
      if (!c)
        return NULL;
      c->size = size;
      c->used = 0;
      c->next = b->chunks;
      b->chunks = c;
    }
  s = c->data + c->used;
  memcpy (s, text, len);
  s[len] = '\0';
  c->used += len + 1;
  return s;
}

/* Grows *ARR (of *CAP elements of SIZE bytes) to hold at least NEED.  */
static int
grow (void *arr, int *cap, int need, size_t size)
{
  void **p = arr;
  int ncap;
  void *n;
  if (need <= *cap)
    return 0;
  ncap = *cap ? *cap : 8;
  while (ncap < need)
    {
      if (ncap > (1 << 29))
        return -1;
      ncap *= 2;
    }
  n = realloc (*p, (size_t) ncap * size);
  if (!n)
    return -1;
  *p = n;
  *cap = ncap;
  return 0;
}

static char *
xstrdup (const char *s)
{
  size_t n = strlen (s) + 1;
  char *d = malloc (n);
  if (d)
    memcpy (d, s, n);
  return d;
}

/* --------------------------------------------------------------- errors */

void
pp_spec_error (pp_spec_builder *b, pp_spec_loc loc, const char *fmt, ...)
{
  va_list ap;
  int n;
  if (b->failed)
    return;
  b->failed = 1;
  if (!b->err || b->errlen == 0)
    return;
  n = snprintf (b->err, b->errlen, "%s:%d:%d: ", b->filename, loc.line,
                loc.col);
  if (n < 0 || (size_t) n >= b->errlen)
    return;
  va_start (ap, fmt);
  vsnprintf (b->err + n, b->errlen - (size_t) n, fmt, ap);
  va_end (ap);
}

int
pp_spec_has_error (const pp_spec_builder *b)
{
  return b->failed;
}

static int
oom (pp_spec_builder *b, pp_spec_loc loc)
{
  pp_spec_error (b, loc, "out of memory");
  return -1;
}

/* ---------------------------------------------------------------- names */

static int
rehash (function_state *f, int nslots)
{
  int *slots = malloc ((size_t) nslots * sizeof *slots);
  int i;
  if (!slots)
    return -1;
  for (i = 0; i < nslots; i++)
    slots[i] = -1;
  for (i = 0; i < f->num_names; i++)
    {
      unsigned h = pp_hash_name (f->names[i].name) & (unsigned) (nslots - 1);
      while (slots[h] >= 0)
        h = (h + 1) & (unsigned) (nslots - 1);
      slots[h] = i;
    }
  free (f->slots);
  f->slots = slots;
  f->num_slots = nslots;
  return 0;
}

/* The entry for NAME in the current function; creates it, and its graph
   node, on first mention, so that nodes are numbered in order of first
   appearance.  NULL when out of memory.  */
static name_entry *
lookup (pp_spec_builder *b, const char *name)
{
  function_state *f = &b->cur;
  unsigned h;
  name_entry *e;
  if (f->num_slots)
    {
      h = pp_hash_name (name) & (unsigned) (f->num_slots - 1);
      for (; f->slots[h] >= 0; h = (h + 1) & (unsigned) (f->num_slots - 1))
        if (strcmp (f->names[f->slots[h]].name, name) == 0)
          return &f->names[f->slots[h]];
    }
  if (!f->fn.graph && !(f->fn.graph = pp_graph_new ()))
    return NULL;
  if (grow (&f->names, &f->names_cap, f->num_names + 1, sizeof *f->names))
    return NULL;
  if (2 * (f->num_names + 1) > f->num_slots
      && rehash (f, f->num_slots ? 2 * f->num_slots : 64))
    return NULL;
  e = &f->names[f->num_names];
  e->name = name;
  e->node = pp_graph_add_node (f->fn.graph, name);
  if (e->node < 0)
    return NULL;
  e->declared = 0;
  e->ref = REF_NONE;
  h = pp_hash_name (name) & (unsigned) (f->num_slots - 1);
  while (f->slots[h] >= 0)
    h = (h + 1) & (unsigned) (f->num_slots - 1);
  f->slots[h] = f->num_names++;
  return e;
}

static name_entry *
declare (pp_spec_builder *b, pp_spec_loc loc, const char *name)
{
  name_entry *e = lookup (b, name);
  if (!e)
    {
      oom (b, loc);
      return NULL;
    }
  e->declared = 1;
  return e;
}

static name_entry *
reference (pp_spec_builder *b, pp_spec_loc loc, const char *name, int kind)
{
  name_entry *e = lookup (b, name);
  if (!e)
    {
      oom (b, loc);
      return NULL;
    }
  if (e->ref == REF_NONE)
    {
      e->ref = kind;
      e->ref_loc = loc;
    }
  return e;
}

/* ------------------------------------------------------------ functions */

static void
free_paths (pp_spec_path *paths, int n)
{
  int i;
  for (i = 0; i < n; i++)
    {
      free (paths[i].nodes);
      free (paths[i].lines);
    }
  free (paths);
}

static void
free_function (pp_spec_function *fn)
{
  free (fn->name);
  free (fn->file);
  if (fn->graph)
    pp_graph_free (fn->graph);
  free_paths (fn->paths, fn->num_paths);
  for (int i = 0; i < fn->num_callers; i++)
    {
      free (fn->callers[i].function);
      free (fn->callers[i].node);
    }
  free (fn->callers);
  for (int i = 0; i < fn->num_derived_restarts; i++)
    free (fn->derived_restarts[i]);
  free (fn->derived_restarts);
  memset (fn, 0, sizeof *fn);
}

static void
reset_function_state (function_state *f)
{
  free (f->names);
  free (f->slots);
  memset (f, 0, sizeof *f);
}

static int
loc_before (pp_spec_loc a, pp_spec_loc b)
{
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* Checks the finished function and moves it to the result.  */
static int
close_function (pp_spec_builder *b)
{
  function_state *f = &b->cur;
  pp_spec_function *fn = &f->fn;
  pp_spec_loc at = { fn->line, fn->col };
  const name_entry *bad = NULL;
  int i;

  if (!f->open)
    return 0;
  /* the first use, in file order, of a name never declared */
  for (i = 0; i < f->num_names; i++)
    {
      const name_entry *e = &f->names[i];
      if (!e->declared && e->ref != REF_NONE
          && (!bad || loc_before (e->ref_loc, bad->ref_loc)))
        bad = e;
    }
  if (bad)
    {
      pp_spec_error (b, bad->ref_loc, bad->ref == REF_EDGE
                     ? "edge to undeclared node '%s'"
                     : "path through undeclared node '%s'", bad->name);
      return -1;
    }
  if (fn->graph)
    {
      const char *which = pp_graph_entry (fn->graph) < 0 ? "entry"
                          : pp_graph_exit (fn->graph) < 0 ? "exit" : NULL;
      if (which)
        {
          if (fn->name)
            pp_spec_error (b, at, "function '%s' has no %s node", fn->name,
                           which);
          else
            pp_spec_error (b, at, "graph has no %s node", which);
          return -1;
        }
    }
  if (grow (&b->fns, &b->fns_cap, b->num_fns + 1, sizeof *b->fns))
    return oom (b, at);
  b->fns[b->num_fns++] = *fn;
  memset (fn, 0, sizeof *fn);
  reset_function_state (f);
  return 0;
}

/* Opens a function.  NAME NULL: the anonymous graph of a file without
   `function`.  */
static int
open_function (pp_spec_builder *b, pp_spec_loc loc, const char *name)
{
  function_state *f = &b->cur;
  memset (f, 0, sizeof *f);
  f->open = 1;
  f->anonymous = name == NULL;
  f->fn.line = loc.line;
  f->fn.col = loc.col;
  if (name && !(f->fn.name = xstrdup (name)))
    return oom (b, loc);
  return 0;
}

/* Every statement but `function` belongs to the current function, or
   opens the anonymous one.  */
static int
current (pp_spec_builder *b, pp_spec_loc loc)
{
  if (b->failed)
    return -1;
  if (!b->cur.open)
    return open_function (b, loc, NULL);
  return 0;
}

int
pp_spec_b_function (pp_spec_builder *b, pp_spec_loc loc, const char *name)
{
  if (b->failed)
    return -1;
  if (b->cur.open && b->cur.anonymous)
    {
      pp_spec_loc first = { b->cur.fn.line, b->cur.fn.col };
      pp_spec_error (b, first, "statement outside any function (the file has "
                     "'function' blocks, the first at line %d)", loc.line);
      return -1;
    }
  if (close_function (b) != 0)
    return -1;
  return open_function (b, loc, name);
}

/* "duplicate 'checksum' (first at line 3)" */
static int
once (pp_spec_builder *b, pp_spec_loc loc, pp_spec_loc *first,
      const char *what)
{
  if (first->line)
    {
      pp_spec_error (b, loc, "duplicate '%s' (first at line %d)", what,
                     first->line);
      return -1;
    }
  *first = loc;
  return 0;
}

int
pp_spec_b_file (pp_spec_builder *b, pp_spec_loc loc, const char *file)
{
  if (current (b, loc) || once (b, loc, &b->cur.file_loc, "file"))
    return -1;
  if (!(b->cur.fn.file = xstrdup (file)))
    return oom (b, loc);
  return 0;
}

int
pp_spec_b_checksum (pp_spec_builder *b, pp_spec_loc loc, uint32_t sum)
{
  if (current (b, loc) || once (b, loc, &b->cur.checksum_loc, "checksum"))
    return -1;
  b->cur.fn.checksum = sum;
  b->cur.fn.has_checksum = 1;
  return 0;
}

int
pp_spec_b_caller (pp_spec_builder *b, pp_spec_loc loc, const char *function,
                  uint32_t checksum, const char *node)
{
  function_state *f = &b->cur;
  if (current (b, loc))
    return -1;
  if (grow (&f->fn.callers, &f->callers_cap, f->fn.num_callers + 1,
            sizeof *f->fn.callers))
    return oom (b, loc);
  pp_spec_caller *c = &f->fn.callers[f->fn.num_callers];
  c->function = xstrdup (function);
  c->node = xstrdup (node);
  c->checksum = checksum;
  if (!c->function || !c->node)
    {
      free (c->function);
      free (c->node);
      return oom (b, loc);
    }
  f->fn.num_callers++;
  return 0;
}

int
pp_spec_b_derived_restart (pp_spec_builder *b, pp_spec_loc loc,
                           const char *node)
{
  function_state *f = &b->cur;
  if (current (b, loc))
    return -1;
  if (grow (&f->fn.derived_restarts, &f->derived_restarts_cap,
            f->fn.num_derived_restarts + 1, sizeof *f->fn.derived_restarts))
    return oom (b, loc);
  char *s = xstrdup (node);
  if (!s)
    return oom (b, loc);
  f->fn.derived_restarts[f->fn.num_derived_restarts++] = s;
  return 0;
}

int
pp_spec_b_max_paths (pp_spec_builder *b, pp_spec_loc loc, uint64_t max,
                     const char *rule)
{
  if (current (b, loc) || once (b, loc, &b->cur.max_paths_loc, "max_paths"))
    return -1;
  if (rule && strcmp (rule, "fitted") != 0)
    {
      pp_spec_error (b, loc, "unknown cut rule '%s' (max_paths N [fitted])",
                     rule);
      return -1;
    }
  b->cur.fn.cut_rule = rule ? PP_CUT_FITTED : PP_CUT_SHARE;
  b->cur.fn.max_paths = max;
  b->cur.fn.has_max_paths = 1;
  return 0;
}

int
pp_spec_b_node (pp_spec_builder *b, pp_spec_loc loc, const char *name,
                int has_lines, unsigned first, unsigned last)
{
  name_entry *e;
  if (current (b, loc) || !(e = declare (b, loc, name)))
    return -1;
  if (has_lines)
    pp_graph_set_lines (b->cur.fn.graph, e->node, first, last);
  return 0;
}

int
pp_spec_b_node_cond (pp_spec_builder *b, pp_spec_loc loc, const char *name,
                     unsigned line, unsigned col)
{
  name_entry *e;
  if (current (b, loc) || !(e = declare (b, loc, name)))
    return -1;
  pp_graph_set_cond (b->cur.fn.graph, e->node, line, col);
  return 0;
}

static int
entry_or_exit (pp_spec_builder *b, pp_spec_loc loc, const char *name,
               int is_entry)
{
  pp_spec_loc *first = is_entry ? &b->cur.entry_loc : &b->cur.exit_loc;
  const char *what = is_entry ? "entry" : "exit";
  name_entry *e;
  if (current (b, loc))
    return -1;
  if (first->line)
    {
      int old = is_entry ? pp_graph_entry (b->cur.fn.graph)
                         : pp_graph_exit (b->cur.fn.graph);
      pp_spec_error (b, loc, "duplicate %s node '%s' (the %s is '%s', "
                     "declared at line %d)", what, name, what,
                     pp_graph_node_name (b->cur.fn.graph, old), first->line);
      return -1;
    }
  if (!(e = declare (b, loc, name)))
    return -1;
  *first = loc;
  if (is_entry)
    pp_graph_set_entry (b->cur.fn.graph, e->node);
  else
    pp_graph_set_exit (b->cur.fn.graph, e->node);
  return 0;
}

int
pp_spec_b_entry (pp_spec_builder *b, pp_spec_loc loc, const char *name)
{
  return entry_or_exit (b, loc, name, 1);
}

int
pp_spec_b_exit (pp_spec_builder *b, pp_spec_loc loc, const char *name)
{
  return entry_or_exit (b, loc, name, 0);
}

int
pp_spec_b_edge (pp_spec_builder *b, pp_spec_loc loc, const char *src,
                const char *dst, pp_spec_loc dstloc,
                const pp_spec_edge_opts *opts)
{
  name_entry *s, *d;
  int src_node;
  if (current (b, loc) || !(s = declare (b, loc, src)))
    return -1;
  src_node = s->node; /* S may move when D is added */
  if (!(d = reference (b, dstloc, dst, REF_EDGE)))
    return -1;
  int e = pp_graph_add_edge (b->cur.fn.graph, src_node, d->node,
                             opts->flags,
                             opts->has_weight ? (double) opts->weight : -1.0);
  if (e < 0)
    return oom (b, loc);
  if (opts->branch != PP_BRANCH_NONE)
    pp_graph_set_edge_branch (b->cur.fn.graph, e, opts->branch,
                              opts->case_text);
  return 0;
}

/* ---------------------------------------------------------------- paths */

int
pp_spec_b_path_begin (pp_spec_builder *b, pp_spec_loc loc)
{
  if (current (b, loc))
    return -1;
  memset (&b->path, 0, sizeof b->path);
  b->path_cap = 0;
  b->path.line = loc.line;
  b->path.col = loc.col;
  return 0;
}

int
pp_spec_b_path_node (pp_spec_builder *b, pp_spec_loc loc, const char *name)
{
  pp_spec_path *p = &b->path;
  name_entry *e = reference (b, loc, name, REF_PATH);
  if (!e)
    return -1;
  p->kind = PP_SPEC_PATH_NODES;
  if (grow (&p->nodes, &b->path_cap, p->num_nodes + 1, sizeof *p->nodes))
    return oom (b, loc);
  p->nodes[p->num_nodes++] = e->node;
  return 0;
}

int
pp_spec_b_path_id (pp_spec_builder *b, uint64_t id)
{
  b->path.kind = PP_SPEC_PATH_ID;
  b->path.id = id;
  return 0;
}

int
pp_spec_b_path_line (pp_spec_builder *b, unsigned line)
{
  pp_spec_path *p = &b->path;
  p->kind = PP_SPEC_PATH_LINES;
  if (grow (&p->lines, &b->path_cap, p->num_lines + 1, sizeof *p->lines))
    {
      pp_spec_loc at = { p->line, p->col };
      return oom (b, at);
    }
  p->lines[p->num_lines++] = line;
  return 0;
}

int
pp_spec_b_path_end (pp_spec_builder *b)
{
  function_state *f = &b->cur;
  if (grow (&f->fn.paths, &f->paths_cap, f->fn.num_paths + 1,
            sizeof *f->fn.paths))
    {
      pp_spec_loc at = { b->path.line, b->path.col };
      return oom (b, at);
    }
  f->fn.paths[f->fn.num_paths++] = b->path;
  memset (&b->path, 0, sizeof b->path);
  return 0;
}

/* ------------------------------------------------------------- parsing */

static void
free_builder (pp_spec_builder *b)
{
  int i;
  while (b->chunks)
    {
      chunk *next = b->chunks->next;
      free (b->chunks);
      b->chunks = next;
    }
  for (i = 0; i < b->num_fns; i++)
    free_function (&b->fns[i]);
  free (b->fns);
  free_function (&b->cur.fn);
  reset_function_state (&b->cur);
  free (b->path.nodes);
  free (b->path.lines);
}

pp_spec *
pp_spec_parse_string (const char *text, size_t len, const char *filename,
                      char *err, size_t errlen)
{
  pp_spec_builder b;
  pp_spec_lexstate ls;
  pp_spec_yyscan_t scanner;
  pp_spec *spec = NULL;
  pp_spec_loc start = { 1, 1 };
  int rc;

  memset (&b, 0, sizeof b);
  b.filename = filename ? filename : "<string>";
  b.err = err;
  b.errlen = errlen;
  if (err && errlen)
    err[0] = '\0';
  if (len > (size_t) INT32_MAX - 2)
    {
      pp_spec_error (&b, start, "input too large");
      return NULL;
    }
  memset (&ls, 0, sizeof ls);
  ls.b = &b;
  ls.line = 1;
  ls.col = 1;
  if (pp_spec_yylex_init_extra (&ls, &scanner) != 0)
    {
      oom (&b, start);
      return NULL;
    }
  if (!pp_spec_yy_scan_bytes (text ? text : "", (int) len, scanner))
    oom (&b, start);
  else
    {
      rc = pp_spec_yyparse (scanner, &b);
      if (rc != 0 && !b.failed)
        pp_spec_error (&b, start, rc == 2 ? "out of memory" : "syntax error");
      if (!b.failed)
        close_function (&b);
    }
  pp_spec_yylex_destroy (scanner);

  if (!b.failed)
    {
      spec = calloc (1, sizeof *spec);
      if (!spec || !(spec->filename = xstrdup (b.filename)))
        {
          free (spec);
          spec = NULL;
          oom (&b, start);
        }
      else
        {
          spec->fns = b.fns;
          spec->num_fns = b.num_fns;
          b.fns = NULL;
          b.num_fns = 0;
        }
    }
  free_builder (&b);
  return spec;
}

pp_spec *
pp_spec_parse_file (const char *path, char *err, size_t errlen)
{
  int is_stdin = strcmp (path, "-") == 0;
  const char *name = is_stdin ? "<stdin>" : path;
  FILE *fp = is_stdin ? stdin : fopen (path, "rb");
  char *buf = NULL;
  size_t len = 0, cap = 0;
  pp_spec *spec;

  if (!fp)
    {
      snprintf (err, errlen, "%s: %s", name, strerror (errno));
      return NULL;
    }
  for (;;)
    {
      size_t n;
      if (len == cap)
        {
          char *nb;
          cap = cap ? 2 * cap : 65536;
          nb = realloc (buf, cap);
          if (!nb)
            {
              snprintf (err, errlen, "%s: out of memory", name);
              goto fail;
            }
          buf = nb;
        }
      n = fread (buf + len, 1, cap - len, fp);
      len += n;
      if (n == 0)
        break;
    }
  if (ferror (fp))
    {
      snprintf (err, errlen, "%s: %s", name,
                errno ? strerror (errno) : "read error");
      goto fail;
    }
  if (!is_stdin)
    fclose (fp);
  spec = pp_spec_parse_string (buf, len, name, err, errlen);
  free (buf);
  return spec;

fail:
  if (!is_stdin)
    fclose (fp);
  free (buf);
  return NULL;
}

void
pp_spec_free (pp_spec *spec)
{
  int i;
  if (!spec)
    return;
  for (i = 0; i < spec->num_fns; i++)
    free_function (&spec->fns[i]);
  free (spec->fns);
  free (spec->filename);
  free (spec);
}

/* ----------------------------------------------------------- resolving */

static void
path_error (const pp_spec *spec, const pp_spec_path *p, char *err,
            size_t errlen, const char *fmt, ...)
  __attribute__ ((format (printf, 5, 6)));

static void
path_error (const pp_spec *spec, const pp_spec_path *p, char *err,
            size_t errlen, const char *fmt, ...)
{
  va_list ap;
  int n;
  if (!err || errlen == 0)
    return;
  n = snprintf (err, errlen, "%s:%d:%d: ", spec->filename, p->line, p->col);
  if (n < 0 || (size_t) n >= errlen)
    return;
  va_start (ap, fmt);
  vsnprintf (err + n, errlen - (size_t) n, fmt, ap);
  va_end (ap);
}

static int
has_dag_edge (const pp_numbering *n, int a, int b)
{
  const int *e;
  if (a < 0 || a >= n->num_nodes || !n->out || !n->out[a])
    return 0;
  for (e = n->out[a]; *e >= 0; e++)
    if (n->dag[*e].dst == b)
      return 1;
  return 0;
}

int
pp_spec_resolve_path (const pp_spec *spec, const pp_spec_function *fn,
                      const pp_spec_path *p, const pp_numbering *n,
                      pp_pathid *id, char *err, size_t errlen)
{
  const pp_graph *g = fn->graph;
  int *edges = NULL;
  char why[256];
  int i, len;

  switch (p->kind)
    {
    case PP_SPEC_PATH_ID:
      if (p->id >= n->num_paths)
        {
          path_error (spec, p, err, errlen, "path id %" PRIu64 " is out of "
                      "range: the graph has %" PRIu64 " path%s", p->id,
                      (uint64_t) n->num_paths, n->num_paths == 1 ? "" : "s");
          return -1;
        }
      *id = p->id;
      return 0;
    case PP_SPEC_PATH_LINES:
      path_error (spec, p, err, errlen, "a path by source lines cannot be "
                  "resolved against a graph");
      return -1;
    case PP_SPEC_PATH_NODES:
      break;
    }
  if (!g || p->num_nodes == 0)
    {
      path_error (spec, p, err, errlen, "path is not a path of the graph: "
                  "the function has no graph");
      return -1;
    }
  if (p->nodes[0] != n->entry)
    {
      path_error (spec, p, err, errlen, "path is not a path of the graph: "
                  "does not start at the entry '%s'",
                  pp_graph_node_name (g, n->entry));
      return -1;
    }
  for (i = 0; i + 1 < p->num_nodes; i++)
    if (!has_dag_edge (n, p->nodes[i], p->nodes[i + 1]))
      {
        path_error (spec, p, err, errlen, "path is not a path of the graph: "
                    "no edge %s->%s", pp_graph_node_name (g, p->nodes[i]),
                    pp_graph_node_name (g, p->nodes[i + 1]));
        return -1;
      }
  if (p->nodes[p->num_nodes - 1] != n->exit)
    {
      path_error (spec, p, err, errlen, "path is not a path of the graph: "
                  "does not end at the exit '%s'",
                  pp_graph_node_name (g, n->exit));
      return -1;
    }
  why[0] = '\0';
  len = pp_path_from_nodes (n, p->nodes, p->num_nodes, &edges, why,
                            sizeof why);
  if (len < 0)
    {
      path_error (spec, p, err, errlen, "path is not a path of the graph: %s",
                  why);
      return -1;
    }
  *id = pp_path_bl (n, edges, len);
  free (edges);
  return 0;
}
