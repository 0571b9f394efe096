/* ppnum: numbers the paths of a graph written in the ppgcc graph language
   (doc/graph-language.md) and prints the Ball-Larus and preferential
   (PPP) weights of its DAG edges and the ids of its interesting paths.

   Ball-Larus: thesis §3.2 (PLDI'97 §2); PPP: thesis §3.3, Fig 3.10.  */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include "json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pp/core.h"
#include "pp/spec.h"

#define EXIT_INPUT 2 /* bad input */
#define EXIT_USAGE 1 /* bad command line, or output failure */

typedef struct
{
  int json;
  int have_max_paths;
  pp_pathid max_paths;
  const char *file;
} options;

/* One interesting path, resolved.  */
typedef struct
{
  int *dag;        /* its DAG edges */
  int len;
  pp_pathid bl;
  int64_t ppp;
} resolved_path;

static void
usage (FILE *out)
{
  fputs ("Usage: ppnum [--json] [--max-paths N] FILE\n"
         "Number the paths of the graph in FILE (\"-\": standard input), "
         "written in the\nppgcc graph language, with Ball-Larus and, for "
         "its `path` statements,\npreferential path numbering.\n\n"
         "  --json          print one JSON object\n"
         "  --max-paths N   cut the graph so that it has at most N paths "
         "(0: 2^64-1;\n"
         "                  default: the file's max_paths, else 0)\n"
         "  --help          print this help\n"
         "  --version       print the version\n\n"
         "Exit status: 0 success, 1 usage or output error, 2 bad input.\n",
         out);
}

static int
usage_error (const char *fmt, const char *arg)
{
  fputs ("ppnum: ", stderr);
  fprintf (stderr, fmt, arg);
  fputs ("\nTry 'ppnum --help' for more information.\n", stderr);
  return EXIT_USAGE;
}

static int
parse_u64 (const char *s, pp_pathid *out)
{
  char *end;
  unsigned long long v;
  if (*s < '0' || *s > '9')
    return -1;
  errno = 0;
  v = strtoull (s, &end, 0);
  if (errno || *end)
    return -1;
  *out = v;
  return 0;
}

/* Returns -1 to go on, else the exit status.  */
static int
parse_args (int argc, char **argv, options *o)
{
  int i, only_files = 0;
  memset (o, 0, sizeof *o);
  for (i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      const char *val = NULL;
      if (only_files || a[0] != '-' || strcmp (a, "-") == 0)
        {
          if (o->file)
            return usage_error ("more than one input file ('%s')", a);
          o->file = a;
          continue;
        }
      if (strcmp (a, "--") == 0)
        only_files = 1;
      else if (strcmp (a, "--help") == 0)
        {
          usage (stdout);
          return fflush (stdout) == 0 ? 0 : EXIT_USAGE;
        }
      else if (strcmp (a, "--version") == 0)
        {
          printf ("ppnum (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
          return fflush (stdout) == 0 ? 0 : EXIT_USAGE;
        }
      else if (strcmp (a, "--json") == 0)
        o->json = 1;
      else if (strcmp (a, "--max-paths") == 0
               || strncmp (a, "--max-paths=", 12) == 0)
        {
          if (a[11] == '=')
            val = a + 12;
          else if (i + 1 < argc)
            val = argv[++i];
          else
            return usage_error ("option '%s' needs a number", a);
          if (parse_u64 (val, &o->max_paths) != 0)
            return usage_error ("--max-paths: '%s' is not an unsigned "
                                "64-bit number", val);
          o->have_max_paths = 1;
        }
      else
        return usage_error ("unknown option '%s'", a);
    }
  if (!o->file)
    return usage_error ("%s", "no input file");
  return -1;
}

/* ------------------------------------------------------------- output */

/* The shortest decimal that reads back as D, so that outputs diff well.  */
static void
print_double (FILE *out, double d)
{
  char buf[64];
  int prec;
  for (prec = 1; prec <= 17; prec++)
    {
      snprintf (buf, sizeof buf, "%.*g", prec, d);
      if (strtod (buf, NULL) == d)
        break;
    }
  fputs (buf, out);
}

static const char *
node_name (const pp_graph *g, int node)
{
  return pp_graph_node_name (g, node);
}

static int
has_ppp (const pp_numbering *n)
{
  return n->ppp_done;
}

/* Node J (0..len) of path P.  */
static int
path_node (const pp_numbering *n, const resolved_path *p, int j)
{
  if (p->len == 0)
    return n->entry;
  return j == 0 ? n->dag[p->dag[0]].src : n->dag[p->dag[j - 1]].dst;
}

static void
print_json (FILE *out, const pp_graph *g, const pp_numbering *n,
            const resolved_path *paths, int npaths)
{
  int i, j;
  fprintf (out, "{\n  \"num_paths\": %" PRIu64 ",\n  \"edges\": [",
           (uint64_t) n->num_paths);
  for (i = 0; i < n->num_dag_edges; i++)
    {
      const pp_dag_edge *e = &n->dag[i];
      fputs (i ? ",\n    {\"src\": " : "\n    {\"src\": ", out);
      pp_json_string (out, node_name (g, e->src));
      fputs (", \"dst\": ", out);
      pp_json_string (out, node_name (g, e->dst));
      fprintf (out, ", \"bl\": %" PRIu64 ", \"ppp\": ", (uint64_t) e->val);
      if (has_ppp (n) && e->ppp_set)
        fprintf (out, "%" PRId64, e->ppp);
      else
        fputs ("null", out);
      fprintf (out, ", \"pseudo\": %s}",
               e->kind == PP_DAG_REAL ? "false" : "true");
    }
  fputs (n->num_dag_edges ? "\n  ],\n  \"paths\": [" : "],\n  \"paths\": [",
         out);
  for (i = 0; i < npaths; i++)
    {
      const resolved_path *p = &paths[i];
      fputs (i ? ",\n    {\"nodes\": [" : "\n    {\"nodes\": [", out);
      for (j = 0; j <= p->len; j++)
        {
          if (j)
            fputs (", ", out);
          pp_json_string (out, node_name (g, path_node (n, p, j)));
        }
      fprintf (out, "], \"bl\": %" PRIu64 ", \"ppp\": %" PRId64 "}",
               (uint64_t) p->bl, p->ppp);
    }
  fputs (npaths ? "\n  ],\n" : "],\n", out);
  if (npaths)
    {
      fprintf (out, "  \"ppp_range\": %" PRIu64 ",\n",
               (uint64_t) (n->ppp_max - n->ppp_min) + 1);
      fprintf (out, "  \"ppp_min\": %" PRId64 ",\n  \"ppp_max\": %" PRId64
               ",\n  \"delta\": ", n->ppp_min, n->ppp_max);
      print_double (out, n->delta);
      fputs (",\n", out);
    }
  else
    fputs ("  \"ppp_range\": 0,\n  \"ppp_min\": null,\n  \"ppp_max\": null,\n"
           "  \"delta\": null,\n", out);
  fprintf (out, "  \"truncated\": %d\n}\n", n->num_cuts);
}

/* "s a c t", malloc'd.  */
static char *
path_label (const pp_graph *g, const pp_numbering *n, const resolved_path *p)
{
  size_t size = 1, used = 0;
  char *s;
  int j;
  for (j = 0; j <= p->len; j++)
    size += strlen (node_name (g, path_node (n, p, j))) + 1;
  if (!(s = malloc (size)))
    return NULL;
  s[0] = '\0';
  for (j = 0; j <= p->len; j++)
    used += (size_t) snprintf (s + used, size - used, "%s%s", j ? " " : "",
                               node_name (g, path_node (n, p, j)));
  return s;
}

static void
print_text (FILE *out, const pp_graph *g, const pp_numbering *n,
            const resolved_path *paths, int npaths)
{
  int i, w = 16;
  char buf[32];
  /* first column wide enough for "src -> dst" and the paths */
  for (i = 0; i < n->num_dag_edges; i++)
    {
      int l = (int) (strlen (node_name (g, n->dag[i].src))
                     + strlen (node_name (g, n->dag[i].dst))) + 4;
      if (l > w)
        w = l;
    }
  for (i = 0; i < npaths; i++)
    {
      int j, l = 0;
      for (j = 0; j <= paths[i].len; j++)
        l += (int) strlen (node_name (g, path_node (n, &paths[i], j))) + 1;
      if (l > w)
        w = l;
    }

  fprintf (out, "%" PRIu64 " Ball-Larus paths", (uint64_t) n->num_paths);
  if (n->num_cuts)
    fprintf (out, " (the graph is cut at %d nodes to stay within the limit)",
             n->num_cuts);
  fprintf (out, "\n\n%-*s %20s %20s\n", w, "DAG edge", "BL", "PPP");
  for (i = 0; i < n->num_dag_edges; i++)
    {
      const pp_dag_edge *e = &n->dag[i];
      int l = fprintf (out, "%s -> %s", node_name (g, e->src),
                       node_name (g, e->dst));
      if (has_ppp (n) && e->ppp_set)
        snprintf (buf, sizeof buf, "%" PRId64, e->ppp);
      else
        snprintf (buf, sizeof buf, "-");
      fprintf (out, "%*s %20" PRIu64 " %20s%s\n", w - l, "",
               (uint64_t) e->val, buf,
               e->kind == PP_DAG_ENTRY ? "  pseudo (a path starts here)"
               : e->kind == PP_DAG_EXIT ? "  pseudo (a path ends here)" : "");
    }
  if (npaths == 0)
    return;
  fprintf (out, "\n%-*s %20s %20s\n", w, "interesting path", "BL", "PPP");
  for (i = 0; i < npaths; i++)
    {
      char *label = path_label (g, n, &paths[i]);
      fprintf (out, "%-*s %20" PRIu64 " %20" PRId64 "\n", w,
               label ? label : "?", (uint64_t) paths[i].bl, paths[i].ppp);
      free (label);
    }
  fprintf (out, "\nPPP range %" PRIu64 " (ids %" PRId64 "..%" PRId64
           "), delta ", (uint64_t) (n->ppp_max - n->ppp_min) + 1,
           n->ppp_min, n->ppp_max);
  print_double (out, n->delta);
  fputc ('\n', out);
}

/* ------------------------------------------------------------- numbering */

static int
cmp_u64 (const void *a, const void *b)
{
  pp_pathid x = *(const pp_pathid *) a, y = *(const pp_pathid *) b;
  return x < y ? -1 : x > y;
}

static int
run (const options *o)
{
  char err[1024];
  pp_spec *spec = pp_spec_parse_file (o->file, err, sizeof err);
  const pp_spec_function *fn = NULL;
  pp_numbering *n = NULL;
  resolved_path *paths = NULL;
  pp_pathid *ids = NULL;
  int64_t *ppp_ids = NULL;
  pp_options opt;
  int i, nids = 0, status = EXIT_INPUT;

  if (!spec)
    {
      fprintf (stderr, "%s\n", err);
      return EXIT_INPUT;
    }
  if (spec->num_fns != 1 || !spec->fns[0].graph)
    {
      int line = spec->num_fns > 1 ? spec->fns[1].line : 1;
      int col = spec->num_fns > 1 ? spec->fns[1].col : 1;
      fprintf (stderr, "%s:%d:%d: %s\n", spec->filename, line, col,
               spec->num_fns > 1 ? "ppnum reads one graph, this is a second "
               "function" : "no graph to number");
      goto out;
    }
  fn = &spec->fns[0];
  memset (&opt, 0, sizeof opt);
  opt.max_paths = o->have_max_paths ? o->max_paths : fn->max_paths;
  opt.cut_rule = fn->cut_rule;
  n = pp_number (fn->graph, &opt, err, sizeof err);
  if (!n)
    {
      fprintf (stderr, "%s:%d:%d: cannot number the graph: %s\n",
               spec->filename, fn->line, fn->col, err);
      goto out;
    }

  if (fn->num_paths)
    {
      paths = calloc ((size_t) fn->num_paths, sizeof *paths);
      ids = calloc ((size_t) fn->num_paths, sizeof *ids);
      ppp_ids = calloc ((size_t) fn->num_paths, sizeof *ppp_ids);
      if (!paths || !ids || !ppp_ids)
        {
          fprintf (stderr, "ppnum: out of memory\n");
          goto out;
        }
    }
  for (i = 0; i < fn->num_paths; i++)
    {
      if (pp_spec_resolve_path (spec, fn, &fn->paths[i], n, &paths[i].bl,
                                err, sizeof err) != 0)
        {
          fprintf (stderr, "%s\n", err);
          goto out;
        }
      paths[i].len = pp_regenerate (n, paths[i].bl, &paths[i].dag);
      if (paths[i].len < 0)
        {
          fprintf (stderr, "%s:%d:%d: cannot regenerate path %" PRIu64 "\n",
                   spec->filename, fn->paths[i].line, fn->paths[i].col,
                   (uint64_t) paths[i].bl);
          paths[i].dag = NULL;
          goto out;
        }
      ids[i] = paths[i].bl;
    }

  /* PPP numbers a set of paths: a path written twice counts once */
  if (fn->num_paths)
    {
      qsort (ids, (size_t) fn->num_paths, sizeof *ids, cmp_u64);
      for (i = 0; i < fn->num_paths; i++)
        if (nids == 0 || ids[nids - 1] != ids[i])
          ids[nids++] = ids[i];
      if (pp_ppp (n, ids, nids, ppp_ids, err, sizeof err) != 0)
        {
          fprintf (stderr, "%s:%d:%d: preferential path numbering failed: "
                   "%s\n", spec->filename, fn->paths[0].line,
                   fn->paths[0].col, err);
          goto out;
        }
      for (i = 0; i < fn->num_paths; i++)
        {
          const pp_pathid *at = bsearch (&paths[i].bl, ids, (size_t) nids,
                                         sizeof *ids, cmp_u64);
          paths[i].ppp = ppp_ids[at - ids];
        }
    }

  if (o->json)
    print_json (stdout, fn->graph, n, paths, fn->num_paths);
  else
    print_text (stdout, fn->graph, n, paths, fn->num_paths);
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      fprintf (stderr, "ppnum: writing the output: %s\n", strerror (errno));
      status = EXIT_USAGE;
    }
  else
    status = 0;

out:
  if (paths)
    for (i = 0; i < fn->num_paths; i++)
      free (paths[i].dag);
  free (paths);
  free (ids);
  free (ppp_ids);
  if (n)
    pp_numbering_free (n);
  pp_spec_free (spec);
  return status;
}

int
main (int argc, char **argv)
{
  options o;
  int status = parse_args (argc, argv, &o);
  if (status >= 0)
    return status;
  return run (&o);
}
