/* Loading .ppd files and regenerating their paths (see profile_set.h).  */
#include "profile_set.h"

#include "pp/ipp.h"
#include "pp/ppd_derive.h"
#include "pp/rt_abi.h"
#include "pp/sat.h"

#include <dirent.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int
ends_with (const char *s, const char *suffix)
{
  size_t n = strlen (s), m = strlen (suffix);
  return n >= m && strcmp (s + n - m, suffix) == 0;
}

static int
add_file (pp_profile_set *set, const char *path)
{
  ppd_profile p;
  const char *why = "";
  int rc = ppd_read_file (path, &p, &why);
  if (rc != 0)
    {
      fprintf (stderr, "ppprof: %s: %s\n", path,
               rc > 0 ? "no such file" : why);
      return -1;
    }
  char err[512];
  if (ppd_derive_counts (&p, err, sizeof err) < 0)
    {
      fprintf (stderr, "ppprof: %s: %s\n", path, err);
      ppd_free (&p);
      return -1;
    }
  set->profiles = realloc (set->profiles,
                           (set->num_profiles + 1) * sizeof *set->profiles);
  set->profile_names = realloc (set->profile_names,
                                (set->num_profiles + 1)
                                    * sizeof *set->profile_names);
  set->profiles[set->num_profiles] = p;
  set->profile_names[set->num_profiles++] = strdup (path);
  return 0;
}

int
pp_walk_dir (const char *dir, const char *suffix,
             int (*add) (void *ctx, const char *path), void *ctx)
{
  DIR *d = opendir (dir);
  if (!d)
    {
      perror (dir);
      return -1;
    }
  struct dirent *e;
  char **names = NULL;
  int n = 0;
  while ((e = readdir (d)))
    {
      /* Not "." and "..", but hidden directories count: libtool puts
         shared objects (and so their profiles) in .libs.  */
      if (!strcmp (e->d_name, ".") || !strcmp (e->d_name, ".."))
        continue;
      names = realloc (names, (n + 1) * sizeof *names);
      size_t len = strlen (dir) + strlen (e->d_name) + 2;
      names[n] = malloc (len);
      snprintf (names[n++], len, "%s/%s", dir, e->d_name);
    }
  closedir (d);
  int rc = 0;
  for (int i = 0; i < n; i++)
    {
      struct stat st;
      if (rc == 0 && lstat (names[i], &st) == 0)
        {
          if (S_ISDIR (st.st_mode))
            rc = pp_walk_dir (names[i], suffix, add, ctx);
          else if (S_ISREG (st.st_mode) && ends_with (names[i], suffix))
            rc = add (ctx, names[i]);
        }
      free (names[i]);
    }
  free (names);
  return rc;
}

static int
add_found (void *set, const char *path)
{
  return add_file (set, path);
}

int
pp_walk_inputs (char **names, int count, const char *suffix,
                int (*add) (void *ctx, const char *path), void *ctx)
{
  char *here = ".";
  if (count == 0)
    {
      names = &here;
      count = 1;
    }
  for (int i = 0; i < count; i++)
    {
      struct stat st;
      if (stat (names[i], &st) < 0)
        {
          fprintf (stderr, "ppprof: %s: no such file or directory\n",
                   names[i]);
          return -1;
        }
      if ((S_ISDIR (st.st_mode) ? pp_walk_dir (names[i], suffix, add, ctx)
                                : add (ctx, names[i])) < 0)
        return -1;
    }
  return 0;
}

int
pp_profile_set_load (pp_profile_set *set, char **names, int count)
{
  memset (set, 0, sizeof *set);
  return pp_walk_inputs (names, count, ".ppd", add_found, set);
}

static int
by_count (const void *a, const void *b)
{
  const pp_report_path *x = a, *y = b;
  if (x->count != y->count)
    return x->count < y->count ? 1 : -1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static void
add_line (unsigned **lines, int *n, unsigned line)
{
  if (!line || (*n && (*lines)[*n - 1] == line))
    return;
  *lines = realloc (*lines, (*n + 1) * sizeof **lines);
  (*lines)[(*n)++] = line;
}

/* A node's first and last line (0: none) into a line list, and as a
   pair into a span list (a block's inner lines are on the path;
   a list of its first and last alone reads as if they were not).  */
static void
add_node_lines (const pp_graph *g, int node, unsigned **lines, int *n,
                unsigned **spans, int *nspans)
{
  unsigned first, last;
  pp_graph_node_lines (g, node, &first, &last);
  add_line (lines, n, first);
  add_line (lines, n, last);
  if (!first)
    return;
  *spans = realloc (*spans, (*nspans + 1) * 2 * sizeof **spans);
  (*spans)[2 * *nspans] = first;
  (*spans)[2 * *nspans + 1] = last ? last : first;
  ++*nspans;
}

/* The length of the "CALLEE:S" prefix of supergraph node NAME: the
   callee copy it is in (include/pp/ipp.h); 0 for the record's own.  */
static size_t
copy_prefix (const char *name)
{
  size_t len;
  if (!pp_ipp_node_function (name, &len))
    return 0;
  const char *site_end = strchr (name + len + 1, ':');
  return site_end ? (size_t) (site_end - name) : strlen (name);
}

static int
same_copy (const char *a, const char *b)
{
  size_t n = copy_prefix (a);
  return n == copy_prefix (b) && !strncmp (a, b, n);
}

static int branch_of (const pp_report_fn *fn, int d, pp_report_branch *b);
static void add_branch (pp_report_branch **list, int *n,
                        const pp_report_branch *b);

/* Appends an empty segment for the code of node NAME of FN's supergraph. */
static pp_report_segment *
start_segment (const pp_report_fn *fn, pp_report_path *p, const char *name)
{
  p->segments = realloc (p->segments,
                         (p->num_segments + 1) * sizeof *p->segments);
  pp_report_segment *s = &p->segments[p->num_segments++];
  memset (s, 0, sizeof *s);
  size_t len;
  const char *callee = pp_ipp_node_function (name, &len);
  s->callee = callee != NULL;
  s->function = callee ? strndup (callee, len) : strdup (fn->name);
  return s;
}

/* The segment holding graph node V of a path whose nodes NODES[0..N)
   went to segments SEG[0..N): the last one V is in.  */
static int
segment_of (const int *nodes, const int *seg, int n, int v)
{
  for (int k = n; k-- > 0;)
    if (nodes[k] == v)
      return seg[k];
  return -1;
}

/* P's segments from its NODES (N of them, in path order).  */
static void
add_segments (const pp_report_fn *fn, pp_report_path *p, const int *nodes,
              int n, const int *edges, int len)
{
  const pp_graph *g = fn->spec->fns[0].graph;
  pp_report_segment *s = NULL;
  int *seg = malloc ((n + 1) * sizeof *seg);
  for (int k = 0; k < n; k++)
    {
      const char *name = pp_graph_node_name (g, nodes[k]);
      if (!s || !same_copy (pp_graph_node_name (g, nodes[k - 1]), name))
        s = start_segment (fn, p, name);
      add_node_lines (g, nodes[k], &s->lines, &s->num_lines, &s->spans,
                      &s->num_spans);
      seg[k] = p->num_segments - 1;
    }
  /* a branch belongs to the segment of the condition's block (a path's
     nodes are distinct: it is acyclic) */
  pp_report_branch b;
  for (int k = 0; k < len; k++)
    if (branch_of (fn, edges[k], &b))
      {
        int i = segment_of (nodes, seg, n,
                            fn->numbering->dag[edges[k]].src);
        if (i >= 0)
          add_branch (&p->segments[i].branches,
                      &p->segments[i].num_branches, &b);
      }
  free (seg);
  p->interprocedural = 1;
}

/* The nodes of path P (EXIT left out) into NODES (room for LEN, the
   number of its dag EDGES), and its (cont)/(break) marks.  Returns the
   number of nodes.  */
static int
path_nodes (const pp_report_fn *fn, pp_report_path *p, const int *edges,
            int len, int *nodes)
{
  int n = 0;
  for (int k = 0; k < len; k++)
    {
      const pp_dag_edge *d = &fn->numbering->dag[edges[k]];
      if (k == 0 && d->kind == PP_DAG_ENTRY)
        p->starts_at_back_edge = 1;
      if (k == len - 1 && d->kind == PP_DAG_EXIT)
        p->ends_at_back_edge = 1;
      if (d->dst != fn->numbering->exit)
        nodes[n++] = d->dst;
    }
  return n;
}

/* The CFG edge dag edge D stands for, or -1: a real edge, or a pseudo
   v->EXIT edge standing for v's one back edge (a path that ends at a
   back edge went that way; not so when paths also end inside v).  */
static int
taken_cfg_edge (const pp_report_fn *fn, int d)
{
  const pp_numbering *n = fn->numbering;
  const pp_dag_edge *de = &n->dag[d];
  if (de->kind == PP_DAG_REAL)
    return de->cfg_edge;
  if (de->kind != PP_DAG_EXIT
      || (n->node_flags[de->src] & PP_NODE_END_IN_BLOCK))
    return -1;
  int found = -1;
  const pp_graph *g = fn->spec->fns[0].graph;
  for (int e = 0; e < n->num_cfg_edges; e++)
    if (pp_graph_edge_src (g, e) == de->src && n->cfg[e].role == PP_CFG_BREAK
        && n->cfg[e].exit_edge == d)
      {
        if (found >= 0)
          return -1;
        found = e;
      }
  return found;
}

/* The branch dag edge D takes, if it leaves a condition: 1 with *B.  */
static int
branch_of (const pp_report_fn *fn, int d, pp_report_branch *b)
{
  const pp_graph *g = fn->spec->fns[0].graph;
  int e = taken_cfg_edge (fn, d);
  if (e < 0)
    return 0;
  int src = pp_graph_edge_src (g, e);
  unsigned line, col, last;
  pp_graph_node_cond (g, src, &line, &col);
  const char *text;
  int kind = pp_graph_edge_branch (g, e, &text);
  if (!line || kind == PP_BRANCH_NONE)
    return 0;
  memset (b, 0, sizeof *b);
  b->line = line;
  b->column = col;
  b->show_column = fn->show_column && fn->show_column[src];
  b->kind = kind;
  b->case_text = text;
  if (kind == PP_BRANCH_CASE)
    pp_graph_node_lines (g, pp_graph_edge_dst (g, e), &b->target_line,
                         &last);
  return 1;
}

static void
add_branch (pp_report_branch **list, int *n, const pp_report_branch *b)
{
  *list = realloc (*list, (*n + 1) * sizeof **list);
  (*list)[(*n)++] = *b;
}

/* The path's source lines: each block's first and last line, in order;
   the branch it takes at each condition; for a supergraph, by segment
   too.  */
int
pp_report_regenerate (const pp_report_fn *fn, pp_report_path *p)
{
  int *edges;
  int len = pp_regenerate (fn->numbering, p->id, &edges);
  if (len < 0)
    return -1;
  int *nodes = malloc ((len + 1) * sizeof *nodes);
  int n = path_nodes (fn, p, edges, len, nodes);
  const pp_graph *g = fn->spec->fns[0].graph;
  for (int k = 0; k < n; k++)
    add_node_lines (g, nodes[k], &p->lines, &p->num_lines, &p->spans,
                    &p->num_spans);
  pp_report_branch b;
  for (int k = 0; k < len; k++)
    if (branch_of (fn, edges[k], &b))
      add_branch (&p->branches, &p->num_branches, &b);
  if (fn->flags & PP_FN_IPP)
    add_segments (fn, p, nodes, n, edges, len);
  free (nodes);
  free (edges);
  return 0;
}

void
pp_report_path_free (pp_report_path *p)
{
  for (int s = 0; s < p->num_segments; s++)
    {
      free (p->segments[s].function);
      free (p->segments[s].lines);
      free (p->segments[s].spans);
      free (p->segments[s].branches);
    }
  free (p->segments);
  free (p->lines);
  free (p->spans);
  free (p->branches);
  p->segments = NULL;
  p->lines = NULL;
  p->spans = NULL;
  p->branches = NULL;
  p->num_segments = p->num_lines = p->num_branches = p->num_spans = 0;
}

/* Functions are identified by name, source file and checksum: the same
   static inline function compiled into several objects adds up.  */
/* PATH without "." components and "dir/.." pairs, in place
   ("tests/../cJSON.c" is "cJSON.c"; a leading "../" stays): how the
   reports name a source file.  Lexical: a symbolic link
   named before ".." is taken as a directory.  */
static void
clean_path (char *path)
{
  char *out = path, *in = path;
  int absolute = *in == '/';
  if (absolute)
    out++, in++;
  char *start = out; /* the first component */
  for (int last = !*in; !last;)
    {
      char *end = strchr (in, '/');
      size_t len = end ? (size_t) (end - in) : strlen (in);
      /* Writing '/' after the last component may overwrite the '\0'.  */
      last = end == NULL || !end[1];
      if (len == 0 || (len == 1 && in[0] == '.'))
        ;
      else if (len == 2 && in[0] == '.' && in[1] == '.' && out > start
               && !(out - start >= 3 && !strncmp (out - 3, "../", 3)
                    && (out - 3 == start || out[-4] == '/')))
        {
          /* Drop the last component written.  */
          out--; /* its '/' */
          while (out > start && out[-1] != '/')
            out--;
        }
      else if (len == 2 && in[0] == '.' && in[1] == '.' && absolute)
        ; /* "/.." is "/" */
      else
        {
          memmove (out, in, len);
          out += len;
          *out++ = '/';
        }
      if (!last)
        in += len + 1;
    }
  if (out > start)
    out--; /* the last '/' */
  *out = '\0';
  if (out == path && !absolute)
    strcpy (path, ".");
}

/* Whether source FILE is named by WANT: FILE ends with it, at a '/'.  */
static int
file_matches (const char *file, const char *want)
{
  if (!file)
    return 0;
  size_t n = strlen (file), m = strlen (want);
  return m && n >= m && !strcmp (file + n - m, want)
         && (n == m || file[n - m - 1] == '/' || want[0] == '/');
}

static pp_report_fn *
find_or_add (pp_profile_set *set, const ppd_fn *f, pp_spec *spec,
             const char *profile)
{
  const char *file = spec->fns[0].file ? spec->fns[0].file : "";
  for (int i = 0; i < set->num_fns; i++)
    if (!strcmp (set->fns[i].name, f->name) && !strcmp (set->fns[i].file, file)
        && set->fns[i].checksum == f->checksum)
      {
        pp_spec_free (spec);
        return &set->fns[i];
      }
  set->fns = realloc (set->fns, (set->num_fns + 1) * sizeof *set->fns);
  pp_report_fn *fn = &set->fns[set->num_fns++];
  memset (fn, 0, sizeof *fn);
  fn->name = f->name;
  fn->file = file;
  fn->profile = profile;
  fn->checksum = f->checksum;
  fn->num_paths = f->num_paths;
  fn->spec = spec;
  return fn;
}

/* Adds F's trained ids to FN's (their union).  Returns 0 or -1 (out of
   memory).  */
static int
add_trained (pp_report_fn *fn, const ppd_fn *f)
{
  uint64_t n;
  uint64_t *u = ppd_union_ids (fn->trained, fn->ntrained, f->trained,
                               f->ntrained, &n);
  if (!u)
    return -1;
  free (fn->trained);
  fn->trained = u;
  fn->ntrained = n;
  return 0;
}

static int
add_counts (pp_report_fn *fn, const ppd_fn *f)
{
  if ((f->flags & PP_FN_TRAINED) && add_trained (fn, f) < 0)
    return -1;
  fn->flags |= f->flags;
  /* Sums saturate as the counts do (include/pp/ppd.h): 2^64-1 is "at
     least that many", never a wrapped small number.  */
  fn->dropped = pp_add_sat (fn->dropped, f->dropped);
  /* FN's paths stay ascending by id until the sort by count at the end
     (pp_report_load), as a profile's pairs are (ppd_decode checks): one
     linear merge a profile.  A search and a realloc a new path were
     quadratic: `ppprof report` of hashmany.exp's 16,384 paths took
     110 s under ASan, 8 of them most of make check's longest file.  */
  uint64_t n = (uint64_t) fn->num_paths_run, m = f->npairs;
  if (m == 0)
    return 0;
  if (n + m > INT_MAX)
    return -1;
  pp_report_path *out = malloc ((n + m) * sizeof *out);
  if (!out)
    return -1;
  uint64_t i = 0, k = 0, o = 0;
  while (i < n || k < m)
    {
      if (k == m || (i < n && fn->paths[i].id < f->pairs[k].id))
        out[o++] = fn->paths[i++];
      else
        {
          if (i < n && fn->paths[i].id == f->pairs[k].id)
            out[o] = fn->paths[i++];
          else
            {
              memset (&out[o], 0, sizeof out[o]);
              out[o].id = f->pairs[k].id;
            }
          out[o].count = pp_add_sat (out[o].count, f->pairs[k].count);
          fn->total = pp_add_sat (fn->total, f->pairs[k].count);
          o++, k++;
        }
    }
  free (fn->paths);
  fn->paths = out;
  fn->num_paths_run = (int) o;
  return 0;
}

static int
is_trained (const pp_report_fn *fn, uint64_t id)
{
  uint64_t lo = 0, hi = fn->ntrained;
  while (lo < hi)
    {
      uint64_t mid = lo + (hi - lo) / 2;
      if (fn->trained[mid] == id)
        return 1;
      if (fn->trained[mid] < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return 0;
}

/* Residual path profiling (thesis §3.5.1): a path that ran in the field
   but not in training is untested.  Functions built without a training
   profile carry no trained set and so have no untested paths.  */
void
pp_report_mark_untested (pp_report_fn *fn)
{
  fn->num_untested = 0;
  fn->untested_total = 0;
  if (!(fn->flags & PP_FN_TRAINED))
    return;
  for (int k = 0; k < fn->num_paths_run; k++)
    {
      pp_report_path *p = &fn->paths[k];
      p->untested = p->count > 0 && !is_trained (fn, p->id);
      if (p->untested)
        {
          fn->num_untested++;
          fn->untested_total = pp_add_sat (fn->untested_total, p->count);
        }
    }
}

typedef struct
{
  unsigned line, col;
  int node;
} cond_at;

static int
by_cond_line (const void *a, const void *b)
{
  const cond_at *x = a, *y = b;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return x->col < y->col ? -1 : x->col > y->col;
}

/* fn->show_column: the conditions that share their line with another
   condition at another column (`if (a && b)`, two if statements on one
   line) print with their column.  */
static void
mark_shared_lines (pp_report_fn *fn)
{
  const pp_graph *g = fn->spec->fns[0].graph;
  int nn = pp_graph_num_nodes (g), nc = 0;
  cond_at *conds = malloc ((nn + 1) * sizeof *conds);
  free (fn->show_column);
  fn->show_column = calloc (nn + 1, 1);
  for (int v = 0; v < nn; v++)
    {
      pp_graph_node_cond (g, v, &conds[nc].line, &conds[nc].col);
      conds[nc].node = v;
      nc += conds[nc].line != 0;
    }
  qsort (conds, nc, sizeof *conds, by_cond_line);
  for (int i = 0; i < nc;)
    {
      int j = i + 1;
      while (j < nc && conds[j].line == conds[i].line)
        j++;
      if (conds[j - 1].col != conds[i].col)
        for (int k = i; k < j; k++)
          fn->show_column[conds[k].node] = 1;
      i = j;
    }
  free (conds);
}

int
pp_report_number (pp_report_fn *fn)
{
  char err[256];
  pp_options opt = { fn->spec->fns[0].max_paths, fn->spec->fns[0].cut_rule };
  fn->numbering = pp_number (fn->spec->fns[0].graph, &opt, err, sizeof err);
  if (!fn->numbering || fn->numbering->num_paths != fn->num_paths)
    {
      fprintf (stderr, "ppprof: %s: function '%s': %s\n", fn->profile,
               fn->name,
               fn->numbering ? "numbering differs from the compiler's "
                               "(profile from another ppgcc version?)"
                             : err);
      return -1;
    }
  mark_shared_lines (fn);
  return 0;
}

/* A function profiled without its metadata: its program could not read
   its .pp_meta section when it wrote the profile (the runtime said so
   then; runtime/meta_section.c).  */
void
pp_report_no_meta (const char *profile, const char *fn)
{
  fprintf (stderr, "ppprof: %s: function '%s' has counts but no path "
           "metadata: the program that wrote them had its .pp_meta section "
           "removed (strip -R, objcopy) or replaced; rebuild it and run it "
           "again\n", profile, fn);
}

int
pp_profile_set_analyse (pp_profile_set *set)
{
  uint64_t older = 0;
  for (int p = 0; p < set->num_profiles; p++)
    for (uint32_t i = 0; i < set->profiles[p].nfns; i++)
      {
        const ppd_fn *f = &set->profiles[p].fns[i];
        /* Another build's CFG of a function (ppd_merge): kept for
           -fuse-path-profile, not what the object's last build ran.  */
        if (f->flags & PP_FN_OLDER)
          {
            older++;
            continue;
          }
        char err[512];
        pp_spec *spec = pp_spec_parse_string (f->meta, f->meta_len,
                                              set->profile_names[p], err,
                                              sizeof err);
        if (f->meta_len == 0)
          {
            pp_report_no_meta (set->profile_names[p], f->name);
            pp_spec_free (spec);
            return -1;
          }
        if (!spec || spec->num_fns != 1 || !spec->fns[0].graph)
          {
            fprintf (stderr, "ppprof: %s: metadata of function '%s': %s\n",
                     set->profile_names[p], f->name,
                     spec ? "no graph" : err);
            pp_spec_free (spec);
            return -1;
          }
        if (spec->fns[0].file)
          clean_path (spec->fns[0].file);
        if (set->only_file && !file_matches (spec->fns[0].file,
                                             set->only_file))
          {
            set->num_other_files++;
            pp_spec_free (spec);
            continue;
          }
        pp_report_fn *fn = find_or_add (set, f, spec, set->profile_names[p]);
        if (add_counts (fn, f) < 0)
          {
            fprintf (stderr, "ppprof: out of memory\n");
            return -1;
          }
      }
  for (int i = 0; i < set->num_fns; i++)
    {
      pp_report_fn *fn = &set->fns[i];
      if (pp_report_number (fn) < 0)
        return -1;
      for (int k = 0; k < fn->num_paths_run; k++)
        if (pp_report_regenerate (fn, &fn->paths[k]) < 0)
          {
            fprintf (stderr, "ppprof: %s: function '%s': path id %llu out "
                     "of range\n", fn->profile, fn->name,
                     (unsigned long long) fn->paths[k].id);
            return -1;
          }
      pp_report_mark_untested (fn);
      if (fn->num_paths_run) /* paths is NULL when none ran */
        qsort (fn->paths, fn->num_paths_run, sizeof *fn->paths, by_count);
      set->total = pp_add_sat (set->total, fn->total);
    }
  if (older)
    fprintf (stderr, "ppprof: note: %llu older CFG version%s of functions "
             "(an object's build at another -O level, or before an edit) "
             "kept for -fuse-path-profile, not shown\n",
             (unsigned long long) older, older == 1 ? "" : "s");
  return 0;
}

void
pp_profile_set_free (pp_profile_set *set)
{
  for (int i = 0; i < set->num_fns; i++)
    {
      for (int k = 0; k < set->fns[i].num_paths_run; k++)
        pp_report_path_free (&set->fns[i].paths[k]);
      free (set->fns[i].paths);
      free (set->fns[i].trained);
      pp_numbering_free (set->fns[i].numbering);
      free (set->fns[i].show_column);
      pp_spec_free (set->fns[i].spec);
    }
  free (set->fns);
  for (int p = 0; p < set->num_profiles; p++)
    {
      ppd_free (&set->profiles[p]);
      free (set->profile_names[p]);
    }
  free (set->profiles);
  free (set->profile_names);
  memset (set, 0, sizeof *set);
}
