/* ppprof: look at path profiles (.ppd files written by programs built with
   ppgcc -fprofile-paths).

     ppprof report [--top N] [--function F] [--json] [FILES|DIRS]
     ppprof merge -o OUT FILES|DIRS...
     ppprof dot --function F [--svg] [FILES|DIRS]
     ppprof residual [--json] [--fail-on-new] [--function F] [FILES|DIRS]
     ppprof overlap [--top N] [--json] A B

   Exit status: 0 ok, 1 usage (or, with residual --fail-on-new, untested
   paths), 2 bad input.  */
#include "config.h"

#include "profile_set.h"

#include "pp/rt_abi.h"

#include <inttypes.h>
#include "json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
usage (FILE *out)
{
  fputs ("usage: ppprof report [--top N] [--function F] [--json] "
         "[FILES|DIRS]\n"
         "       ppprof merge -o OUT FILES|DIRS...\n"
         "       ppprof dot --function F [--svg] [FILES|DIRS]\n"
         "       ppprof residual [--json] [--fail-on-new] [--function F] "
         "[FILES|DIRS]\n"
         "       ppprof overlap [--top N] [--json] A B\n"
         "Shows path profiles (.ppd) written by programs built with\n"
         "ppgcc -fprofile-paths; with no files, searches the current "
         "directory.\n"
         "residual: the paths that ran but not in training (builds made "
         "with\n"
         "-fuse-path-profile -fprofile-paths=residual); --fail-on-new: "
         "exit 1 if any.\n"
         "overlap: how much two profiles (files or directories) agree, in "
         "percent, over\n"
         "all paths and per function (e.g. a Hot Path Table build against "
         "a complete one).\n",
         out);
}

static void
print_lines (FILE *out, const pp_report_path *p)
{
  /* Consecutive lines as ranges: 3 4 5 9 -> 3-5 9.  */
  for (int i = 0; i < p->num_lines;)
    {
      int j = i;
      while (j + 1 < p->num_lines && p->lines[j + 1] == p->lines[j] + 1)
        j++;
      if (j > i)
        fprintf (out, "%s%u-%u", i ? " " : "", p->lines[i], p->lines[j]);
      else
        fprintf (out, "%s%u", i ? " " : "", p->lines[i]);
      i = j + 1;
    }
}

/* The path as in report lines: its source lines between the (cont) and
   (break) markers.  */
static void
print_path (FILE *out, const pp_report_path *p)
{
  if (p->starts_at_back_edge)
    fprintf (out, "(cont) ");
  if (p->num_lines == 0)
    fprintf (out, "[no source line: compiler-made block, e.g. a computed-goto "
             "dispatch]");
  print_lines (out, p);
  if (p->ends_at_back_edge)
    fprintf (out, " (break)");
}

static void
print_json_lines (FILE *out, const pp_report_path *p)
{
  fprintf (out, "\"lines\": [");
  for (int l = 0; l < p->num_lines; l++)
    fprintf (out, "%s%u", l ? ", " : "", p->lines[l]);
  fprintf (out, "]");
}

/* Whether function NAME is in SET: --function of a name that is not is
   bad input.  */
static int
known_function (const pp_profile_set *set, const char *name)
{
  for (int i = 0; i < set->num_fns; i++)
    if (!strcmp (set->fns[i].name, name))
      return 1;
  fprintf (stderr, "ppprof: function '%s' is not in the profile\n", name);
  return 0;
}

typedef struct
{
  const pp_report_fn *fn;
  const pp_report_path *path;
} ranked;

static int
by_count_desc (const void *a, const void *b)
{
  const ranked *x = a, *y = b;
  if (x->path->count != y->path->count)
    return x->path->count < y->path->count ? 1 : -1;
  int c = strcmp (x->fn->name, y->fn->name);
  return c ? c : (x->path->id < y->path->id ? -1 : 1);
}

static int
report (pp_profile_set *set, long top, const char *only, int json)
{
  if (json)
    {
      printf ("{\"functions\": [");
      int first_fn = 1;
      for (int i = 0; i < set->num_fns; i++)
        {
          const pp_report_fn *fn = &set->fns[i];
          if (only && strcmp (fn->name, only) != 0)
            continue;
          printf ("%s\n  {\"name\": ", first_fn ? "" : ",");
          first_fn = 0;
          pp_json_string (stdout, fn->name);
          printf (", \"file\": ");
          pp_json_string (stdout, fn->file);
          printf (", \"num_paths\": %" PRIu64 ", \"truncated\": %s, "
                  "\"dropped\": %" PRIu64 ", \"trained\": %s, \"paths\": [",
                  fn->num_paths, (fn->flags & 2u) ? "true" : "false",
                  fn->dropped,
                  (fn->flags & PP_FN_TRAINED) ? "true" : "false");
          for (int k = 0; k < fn->num_paths_run; k++)
            {
              const pp_report_path *p = &fn->paths[k];
              printf ("%s\n    {\"id\": %" PRIu64 ", \"count\": %" PRIu64
                      ", ",
                      k ? "," : "", p->id, p->count);
              print_json_lines (stdout, p);
              printf (", \"starts_at_entry\": %s, \"ends_at_exit\": %s%s}",
                      p->starts_at_back_edge ? "false" : "true",
                      p->ends_at_back_edge ? "false" : "true",
                      p->untested ? ", \"untested\": true" : "");
            }
          printf ("]}");
        }
      printf ("\n], \"total\": %" PRIu64 "}\n", set->total);
      return 0;
    }

  int n = 0;
  for (int i = 0; i < set->num_fns; i++)
    n += set->fns[i].num_paths_run;
  ranked *all = calloc (n ? n : 1, sizeof *all);
  n = 0;
  uint64_t total = 0;
  for (int i = 0; i < set->num_fns; i++)
    {
      if (only && strcmp (set->fns[i].name, only) != 0)
        continue;
      for (int k = 0; k < set->fns[i].num_paths_run; k++)
        {
          all[n].fn = &set->fns[i];
          all[n++].path = &set->fns[i].paths[k];
          total += set->fns[i].paths[k].count;
        }
    }
  if (only && n == 0)
    {
      int known = 0;
      for (int i = 0; i < set->num_fns; i++)
        known |= !strcmp (set->fns[i].name, only);
      if (!known)
        {
          fprintf (stderr, "ppprof: function '%s' is not in the profile\n",
                   only);
          free (all);
          return 2;
        }
    }
  qsort (all, n, sizeof *all, by_count_desc);
  printf ("%d paths run in %d functions, %" PRIu64 " path executions\n\n",
          n, set->num_fns, total);
  printf ("%12s %7s  %-24s %s\n", "count", "share", "function",
          "path (source lines; (cont): starts after a back edge or a "
          "restart, (break): ends at one, or in a noreturn call)");
  for (int i = 0; i < n && (top <= 0 || i < top); i++)
    {
      const pp_report_path *p = all[i].path;
      printf ("%12" PRIu64 " %6.2f%%  %-24s %s: ", p->count,
              total ? 100.0 * (double) p->count / (double) total : 0.0,
              all[i].fn->name, all[i].fn->file);
      print_path (stdout, p);
      printf ("\n");
    }
  for (int i = 0; i < set->num_fns; i++)
    {
      if (set->fns[i].flags & 2u)
        printf ("note: %s has more than 2^64 paths; its paths are cut "
                "(truncated) at some edges\n", set->fns[i].name);
      if (set->fns[i].dropped)
        printf ("note: %s: %" PRIu64 " path executions could not be "
                "recorded (runtime out of memory, or evicted from the Hot "
                "Path Table)\n", set->fns[i].name,
                set->fns[i].dropped);
    }
  free (all);
  return 0;
}

/* ------------------------------------------------------------ residual */

/* Functions with untested paths: most untested executions first.  */
static int
by_untested_desc (const void *a, const void *b)
{
  const pp_report_fn *x = *(const pp_report_fn *const *) a;
  const pp_report_fn *y = *(const pp_report_fn *const *) b;
  if (x->untested_total != y->untested_total)
    return x->untested_total < y->untested_total ? 1 : -1;
  int c = strcmp (x->name, y->name);
  return c ? c : strcmp (x->file, y->file);
}

static void
residual_text (pp_report_fn **fns, int n)
{
  for (int i = 0; i < n; i++)
    {
      const pp_report_fn *fn = fns[i];
      /* The wording is fixed (scripts match it), plural or not.  */
      printf ("%s (%s): %d untested paths, %" PRIu64 " executions\n",
              fn->name, fn->file, fn->num_untested, fn->untested_total);
      /* fn->paths is by count, descending: hottest first.  */
      for (int k = 0; k < fn->num_paths_run; k++)
        {
          const pp_report_path *p = &fn->paths[k];
          if (!p->untested)
            continue;
          printf ("%12" PRIu64 "  id %-10" PRIu64 " ", p->count, p->id);
          print_path (stdout, p);
          printf ("\n");
        }
      printf ("\n");
    }
}

static void
residual_json (pp_report_fn **fns, int n, uint64_t untested)
{
  printf ("{\"functions\": [");
  for (int i = 0; i < n; i++)
    {
      const pp_report_fn *fn = fns[i];
      printf ("%s\n  {\"name\": ", i ? "," : "");
      pp_json_string (stdout, fn->name);
      printf (", \"file\": ");
      pp_json_string (stdout, fn->file);
      printf (", \"paths\": [");
      int first = 1;
      for (int k = 0; k < fn->num_paths_run; k++)
        {
          const pp_report_path *p = &fn->paths[k];
          if (!p->untested)
            continue;
          printf ("%s\n    {\"id\": %" PRIu64 ", \"count\": %" PRIu64 ", ",
                  first ? "" : ",", p->id, p->count);
          print_json_lines (stdout, p);
          printf ("}");
          first = 0;
        }
      printf ("]}");
    }
  printf ("\n], \"untested\": %" PRIu64 "}\n", untested);
}

/* The paths that ran in the field but not in training (thesis §3.5.1).
   Returns the exit status.  */
static int
residual (pp_profile_set *set, const char *only, int json, int fail_on_new)
{
  if (only && !known_function (set, only))
    return 2;
  pp_report_fn **fns = calloc (set->num_fns + 1, sizeof *fns);
  int n = 0, trained = 0;
  uint64_t untested = 0;
  for (int i = 0; i < set->num_fns; i++)
    {
      pp_report_fn *fn = &set->fns[i];
      if ((only && strcmp (fn->name, only) != 0)
          || !(fn->flags & PP_FN_TRAINED))
        continue;
      trained++;
      untested += fn->num_untested;
      if (fn->num_untested)
        fns[n++] = fn;
    }
  qsort (fns, n, sizeof *fns, by_untested_desc);
  if (json)
    residual_json (fns, n, untested);
  else
    {
      residual_text (fns, n);
      if (trained == 0)
        printf ("note: no function has a trained path set (build with "
                "ppgcc -fuse-path-profile -fprofile-paths=residual)\n");
      for (int i = 0; i < set->num_fns; i++)
        if ((set->fns[i].flags & PP_FN_TRAINED) && set->fns[i].dropped
            && (!only || !strcmp (set->fns[i].name, only)))
          printf ("note: %s: %" PRIu64 " path executions could not be "
                  "recorded (runtime out of memory); untested paths may be "
                  "missing\n", set->fns[i].name, set->fns[i].dropped);
      printf ("residual: %" PRIu64 " untested paths in %d functions "
              "(%d trained functions)\n", untested, n, trained);
    }
  free (fns);
  return fail_on_new && untested ? 1 : 0;
}

static void
warn_mismatch (void *ctx, const char *fn)
{
  fprintf (stderr, "ppprof: %s: function '%s' has another CFG checksum "
           "than in the files before it; keeping the later one\n",
           (const char *) ctx, fn);
}

static int
merge (pp_profile_set *set, const char *out)
{
  ppd_profile result = { 0 };
  for (int p = 0; p < set->num_profiles; p++)
    if (ppd_merge (&result, &set->profiles[p], warn_mismatch,
                   set->profile_names[p]) < 0)
      {
        fprintf (stderr, "ppprof: out of memory\n");
        return 2;
      }
  if (ppd_write_file (out, &result) < 0)
    {
      perror (out);
      ppd_free (&result);
      return 2;
    }
  ppd_free (&result);
  return 0;
}

/* ------------------------------------------------------------- overlap */

/* One path of one profile, keyed by (function name, CFG checksum,
   Ball-Larus id), and its count in profile A and in profile B.  */
typedef struct
{
  const char *name;
  uint32_t checksum;
  uint64_t id, a, b;
} ov_path;

typedef struct
{
  const char *name;
  uint64_t a, b;         /* the function's executions in A and in B */
  double overlap, diff;  /* within the function; |share in A - in B| */
} ov_fn;

static int
ov_key_cmp (const void *x, const void *y)
{
  const ov_path *p = x, *q = y;
  int c = strcmp (p->name, q->name);
  if (c)
    return c;
  if (p->checksum != q->checksum)
    return p->checksum < q->checksum ? -1 : 1;
  return p->id < q->id ? -1 : p->id > q->id;
}

static int
ov_fn_cmp (const void *x, const void *y)
{
  const ov_fn *f = x, *g = y;
  if (f->diff != g->diff)
    return f->diff < g->diff ? 1 : -1;
  return strcmp (f->name, g->name);
}

/* Appends SET's paths to *ALL, counted in A (IN_A) or B.  */
static void
ov_add (const pp_profile_set *set, int in_a, ov_path **all, size_t *n)
{
  for (int p = 0; p < set->num_profiles; p++)
    for (uint32_t i = 0; i < set->profiles[p].nfns; i++)
      {
        const ppd_fn *f = &set->profiles[p].fns[i];
        *all = realloc (*all, (*n + f->npairs + 1) * sizeof **all);
        for (uint64_t k = 0; k < f->npairs; k++)
          (*all)[(*n)++] = (ov_path){ f->name, f->checksum, f->pairs[k].id,
                                      in_a ? f->pairs[k].count : 0,
                                      in_a ? 0 : f->pairs[k].count };
      }
}

/* min (a / ta, b / tb) summed over the paths [FIRST, LAST).  */
static double
ov_sum (const ov_path *first, const ov_path *last, uint64_t ta, uint64_t tb)
{
  double s = 0;
  for (const ov_path *p = first; p < last; p++)
    {
      double x = (double) p->a / (double) ta, y = (double) p->b / (double) tb;
      s += x < y ? x : y;
    }
  return s;
}

/* The overlap percentage of two profiles (thesis §5.5.2, after Ammons,
   Ball and Larus): 100 * sum over paths of min (A(p) / total A,
   B(p) / total B), how much of the two profiles' execution is common.
   Per function, the same within the function, for the TOP functions whose
   share of the execution differs most.  */
static int
overlap (pp_profile_set *a, pp_profile_set *b, char **names, long top,
         int json)
{
  ov_path *all = NULL;
  size_t n = 0;
  ov_add (a, 1, &all, &n);
  ov_add (b, 0, &all, &n);
  if (n)
    qsort (all, n, sizeof *all, ov_key_cmp);
  /* One entry per path, and the totals.  */
  size_t m = 0;
  uint64_t ta = 0, tb = 0;
  for (size_t i = 0; i < n; i++)
    {
      ta += all[i].a, tb += all[i].b;
      if (m && ov_key_cmp (&all[m - 1], &all[i]) == 0)
        all[m - 1].a += all[i].a, all[m - 1].b += all[i].b;
      else
        all[m++] = all[i];
    }
  if (ta == 0 || tb == 0)
    {
      fprintf (stderr, "ppprof: %s: no path executions, so no overlap\n",
               names[ta == 0 ? 0 : 1]);
      free (all);
      return 2;
    }
  ov_fn *fns = calloc (m + 1, sizeof *fns);
  size_t nf = 0;
  for (size_t i = 0, j; i < m; i = j)
    {
      ov_fn *f = &fns[nf++];
      f->name = all[i].name;
      for (j = i; j < m && !strcmp (all[j].name, all[i].name)
                  && all[j].checksum == all[i].checksum; j++)
        f->a += all[j].a, f->b += all[j].b;
      f->overlap = f->a && f->b ? 100 * ov_sum (&all[i], &all[j], f->a, f->b)
                                : 0;
      double d = (double) f->a / (double) ta - (double) f->b / (double) tb;
      f->diff = d < 0 ? -d : d;
      if (!f->a && !f->b)
        nf--; /* in a profile, but never ran */
    }
  double total = 100 * ov_sum (all, all + m, ta, tb);
  qsort (fns, nf, sizeof *fns, ov_fn_cmp);
  size_t shown = top > 0 && (size_t) top < nf ? (size_t) top : nf;
  if (json)
    {
      printf ("{\"overlap\": %.6f, \"functions\": [", total);
      for (size_t i = 0; i < shown; i++)
        {
          printf ("%s\n  {\"name\": ", i ? "," : "");
          pp_json_string (stdout, fns[i].name);
          printf (", \"overlap\": %.6f, \"a\": %" PRIu64 ", \"b\": %" PRIu64
                  "}", fns[i].overlap, fns[i].a, fns[i].b);
        }
      printf ("\n]}\n");
    }
  else
    {
      printf ("overlap: %.2f%% (A: %" PRIu64 " path executions, B: %" PRIu64
              ")\n\n", total, ta, tb);
      printf ("%8s %14s %14s  %s\n", "overlap", "executions A",
              "executions B", "function (most different shares first)");
      for (size_t i = 0; i < shown; i++)
        printf ("%7.2f%% %14" PRIu64 " %14" PRIu64 "  %s\n", fns[i].overlap,
                fns[i].a, fns[i].b, fns[i].name);
    }
  free (fns);
  free (all);
  return 0;
}

/* ppprof overlap A B: each a .ppd or a directory of them.  */
static int
overlap_files (char **names, long top, int json)
{
  pp_profile_set a, b;
  if (pp_profile_set_load (&a, &names[0], 1) < 0)
    return 2;
  int rc = 2;
  if (pp_profile_set_load (&b, &names[1], 1) == 0)
    {
      if (a.num_profiles == 0 || b.num_profiles == 0)
        fprintf (stderr, "ppprof: %s: no .ppd profile there\n",
                 names[a.num_profiles == 0 ? 0 : 1]);
      else
        rc = overlap (&a, &b, names, top, json);
    }
  pp_profile_set_free (&b);
  pp_profile_set_free (&a);
  return rc;
}

/* DOT: the CFG, edges as thick and red as the share of path executions
   that run over them.  */
static int
dot (pp_profile_set *set, const char *only, int svg)
{
  const pp_report_fn *fn = NULL;
  for (int i = 0; i < set->num_fns && !fn; i++)
    if (!strcmp (set->fns[i].name, only))
      fn = &set->fns[i];
  if (!fn)
    {
      fprintf (stderr, "ppprof: function '%s' is not in the profile\n", only);
      return 2;
    }
  const pp_graph *g = fn->spec->fns[0].graph;
  const pp_numbering *n = fn->numbering;
  uint64_t *flow = calloc (pp_graph_num_edges (g) + 1, sizeof *flow);
  for (int k = 0; k < fn->num_paths_run; k++)
    {
      int *edges, len = pp_regenerate (n, fn->paths[k].id, &edges);
      for (int e = 0; e < len; e++)
        if (n->dag[edges[e]].kind == PP_DAG_REAL)
          flow[n->dag[edges[e]].cfg_edge] += fn->paths[k].count;
      if (len >= 0)
        free (edges);
    }
  FILE *out = stdout;
  if (svg)
    {
      out = popen ("dot -Tsvg", "w");
      if (!out)
        {
          fprintf (stderr, "ppprof: cannot run Graphviz 'dot'\n");
          free (flow);
          return 2;
        }
    }
  fprintf (out, "digraph \"%s\" {\n  node [shape=box, fontname=monospace];\n",
           fn->name);
  for (int v = 0; v < pp_graph_num_nodes (g); v++)
    {
      unsigned first, last;
      pp_graph_node_lines (g, v, &first, &last);
      const char *name = pp_graph_node_name (g, v);
      if (v == pp_graph_entry (g) || v == pp_graph_exit (g))
        fprintf (out, "  \"%s\" [label=\"%s\", shape=oval];\n", name,
                 v == pp_graph_entry (g) ? "ENTRY" : "EXIT");
      else if (first)
        fprintf (out, "  \"%s\" [label=\"%s\\nlines %u-%u\"];\n", name, name,
                 first, last);
      else
        fprintf (out, "  \"%s\";\n", name);
    }
  uint64_t max = 1;
  for (int e = 0; e < pp_graph_num_edges (g); e++)
    if (flow[e] > max)
      max = flow[e];
  for (int e = 0; e < pp_graph_num_edges (g); e++)
    {
      double share = (double) flow[e] / (double) max;
      fprintf (out, "  \"%s\" -> \"%s\" [label=\"%" PRIu64 "\", "
               "penwidth=%.1f, color=\"%s\"%s];\n",
               pp_graph_node_name (g, pp_graph_edge_src (g, e)),
               pp_graph_node_name (g, pp_graph_edge_dst (g, e)), flow[e],
               1.0 + 5.0 * share, share > 0.5 ? "red" : share > 0 ? "orange"
                                                                  : "gray",
               (pp_graph_edge_flags (g, e) & PP_EDGE_ABNORMAL)
                   ? ", style=dashed" : "");
    }
  fprintf (out, "}\n");
  free (flow);
  if (svg && pclose (out) != 0)
    {
      fprintf (stderr, "ppprof: Graphviz 'dot' failed\n");
      return 2;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc < 2 || !strcmp (argv[1], "--help") || !strcmp (argv[1], "-h"))
    {
      usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? 1 : 0;
    }
  if (!strcmp (argv[1], "--version"))
    {
      printf ("ppprof (ppgcc) %s\n", PACKAGE_VERSION);
      return 0;
    }
  const char *cmd = argv[1], *only = NULL, *out = NULL;
  long top = 20;
  int json = 0, svg = 0, fail_on_new = 0;
  char **files = calloc (argc, sizeof *files);
  int nfiles = 0;
  for (int i = 2; i < argc; i++)
    {
      const char *a = argv[i];
      if (!strcmp (a, "--json"))
        json = 1;
      else if (!strcmp (a, "--svg"))
        svg = 1;
      else if (!strcmp (a, "--fail-on-new"))
        fail_on_new = 1;
      else if ((!strcmp (a, "--top") || !strcmp (a, "--function")
                || !strcmp (a, "-o"))
               && i + 1 < argc)
        {
          const char *v = argv[++i];
          if (!strcmp (a, "--function"))
            only = v;
          else if (!strcmp (a, "-o"))
            out = v;
          else
            {
              char *end;
              top = strtol (v, &end, 10);
              if (*end || top < 0)
                {
                  fprintf (stderr, "ppprof: --top %s: not a count\n", v);
                  return 1;
                }
            }
        }
      else if (a[0] == '-' && a[1])
        {
          fprintf (stderr, "ppprof: unknown option '%s'\n", a);
          usage (stderr);
          return 1;
        }
      else
        files[nfiles++] = argv[i];
    }
  int is_report = !strcmp (cmd, "report"), is_merge = !strcmp (cmd, "merge");
  int is_dot = !strcmp (cmd, "dot"), is_residual = !strcmp (cmd, "residual");
  int is_overlap = !strcmp (cmd, "overlap");
  if (!is_report && !is_merge && !is_dot && !is_residual && !is_overlap)
    {
      fprintf (stderr, "ppprof: unknown command '%s'\n", cmd);
      usage (stderr);
      return 1;
    }
  if ((is_merge && (!out || nfiles == 0)) || (is_dot && !only)
      || (fail_on_new && !is_residual)
      || (is_overlap && (nfiles != 2 || only || out || svg)))
    {
      usage (stderr);
      return 1;
    }
  if (is_overlap)
    {
      int rc = overlap_files (files, top, json);
      free (files);
      return rc;
    }
  pp_profile_set set;
  if (pp_profile_set_load (&set, files, nfiles) < 0)
    return 2;
  int rc;
  if (is_merge)
    rc = merge (&set, out);
  else if (pp_profile_set_analyse (&set) < 0)
    rc = 2;
  else if (is_residual)
    rc = residual (&set, only, json, fail_on_new);
  else
    rc = is_report ? report (&set, top, only, json) : dot (&set, only, svg);
  pp_profile_set_free (&set);
  free (files);
  return rc;
}
