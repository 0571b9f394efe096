/* ppprof: look at path profiles (.ppd files written by programs built with
   ppgcc -fprofile-paths) and context profiles (.ppc: calling context tree
   and metrics, include/pp/ppc.h).

     ppprof report [--top N] [--function F] [--json] [FILES|DIRS]
     ppprof report [--metric M] [--subtract-probes] ... FILE.ppc...
     ppprof merge -o OUT FILES|DIRS...      (all .ppd, or all .ppc)
     ppprof dot --function F [--svg] [FILES|DIRS]
     ppprof residual [--json] [--fail-on-new] [--function F] [FILES|DIRS]
     ppprof annotate [--function F [--path ID]] [SOURCES] [FILES|DIRS]
     ppprof annotate [--function F] [--disasm] FILE.ppc   (sampled)
     ppprof lcov [-o FILE] [--function F] [SOURCES] [FILES|DIRS]
     ppprof html -o DIR [--top N] [--function F] [--metric M]
                [--min-percent P] [--subtract-probes] [SOURCES] [FILES|DIRS]
     ppprof overlap [--top N] [--json] A B
     ppprof cct [--metric M] [--json] [--subtract-probes] [--paths N]
                [--min-percent P] [FILE.ppc...]
     ppprof folded [--metric M] [--subtract-probes] [FILE.ppc...]
     ppprof db SUBCOMMAND ...               (tools/db.c: the database)
     ppprof record [-F HZ] [-e EVENT] [-o FILE.ppc] [--] PROG ARGS...
     ppprof lines [-o OUT] FILE.ppc      (sampled: line counts for the
                                          recompile, -fuse-path-profile)

   SOURCES: --source-root DIR, --path-map OLD=NEW (where sources are
   looked for: source.c, pp_open_source).

   Exit status: 0 ok, 1 usage (or, with residual --fail-on-new, untested
   paths), 2 bad input, 3 residual --fail-on-new with nothing to check.  */
#include "config.h"

#include "commands.h"
#include "context.h"
#include "db.h"
#include "demangle.h"
#include "line_counts.h"
#include "samples.h"

#include "pp/rt_abi.h"

#include <inttypes.h>
#include "json_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *nearest_command (const char *cmd);

static void
usage (FILE *out)
{
  fputs ("usage: ppprof report [--top N] [--function F] [--file S] [--json] "
         "[FILES|DIRS]\n"
         "       ppprof merge -o OUT FILES|DIRS...\n"
         "       ppprof dot --function F [--svg] [FILES|DIRS]\n"
         "       ppprof residual [--json] [--fail-on-new] [--function F] "
         "[FILES|DIRS]\n"
         "       ppprof annotate [--function F [--path ID]] [SOURCES] "
         "[FILES|DIRS]\n"
         "       ppprof annotate|report [--function F] [--disasm] "
         "FILE.ppc   (sampled: ppprof record)\n"
         "       ppprof lcov [-o FILE] [--function F] [SOURCES] "
         "[FILES|DIRS]\n"
         "       ppprof html -o DIR [--top N] [--function F] [--metric M] "
         "[--min-percent P]\n"
         "                   [--subtract-probes] [SOURCES] [FILES|DIRS]\n"
         "       ppprof overlap [--top N] [--json] A B\n"
         "       ppprof cct [--metric M] [--json] [--subtract-probes] "
         "[--paths N]\n"
         "                  [--min-percent P] [FILE.ppc|DIRS]\n"
         "       ppprof folded [--metric M] [--subtract-probes] "
         "[FILE.ppc|DIRS]\n"
         "       ppprof db epoch|list|report|residual|diff|merge|compact|dump "
         "... (ppprof db --help)\n"
         "       ppprof report --metric M [--subtract-probes] [--top N] "
         "[--function F]\n"
         "                     [--json] [FILE.ppc|DIRS]\n"
         "       ppprof record [-F HZ] [-e EVENT] [-o FILE.ppc] [--] PROG "
         "ARGS...\n"
         "       ppprof lines [-o OUT] FILE.ppc   (a sampled profile's line "
         "counts for\n"
         "                   ppgcc -fuse-path-profile=OUT)\n"
         "Shows path profiles (.ppd) written by programs built with\n"
         "ppgcc -fprofile-paths; with no files, searches the current "
         "directory.\n"
         "cct, folded, report --metric: context profiles (.ppc) of "
         "programs built with\n"
         "-fprofile-paths=cct or -fprofile-paths-metric: the calling "
         "context tree with\n"
         "inclusive and exclusive metrics, folded stacks for flame graphs, "
         "paths ranked\n"
         "by a metric.  --subtract-probes: without the probes' own cost "
         "(exact only for\n"
         "instruction counts).  merge: all .ppd or all .ppc (-o X.ppc).\n"
         "residual: the paths that ran but not in training (builds made "
         "with\n"
         "-fuse-path-profile -fprofile-paths=residual); --fail-on-new: "
         "exit 1 if any.\n"
         "annotate: the source with each line's execution count, as gcov "
         "shows it\n"
         "(derived from the paths); --path ID marks that path's lines "
         "with '>'.\n"
         "lcov: the same line counts as an lcov tracefile (genhtml, "
         "coverage services).\n"
         "html: a static HTML report in DIR (index.html; a page per "
         "function with its\n"
         "annotated source, its --top N paths (default 20) to select, "
         "its CFG); of\n"
         "context profiles (.ppc), cct.html: the calling context tree as "
         "an icicle graph\n"
         "(contexts under --min-percent P of the whole, default 0.01, "
         "merged).\n"
         "overlap: how much two profiles (files or directories) agree, in "
         "percent, over\n"
         "all paths and per function (e.g. a Hot Path Table build against "
         "a complete one).\n"
         "--file S (report, residual, annotate, lcov, dot): only the "
         "functions of source\n"
         "files whose path ends with S (\"cJSON.c\", \"src/util.c\").\n"
         "SOURCES (annotate, lcov, html), where to find a source moved "
         "since the build:\n"
         "--path-map OLD=NEW (several allowed): a name starting with the "
         "directory OLD\n"
         "is read from NEW instead, as with gcc -fdebug-prefix-map; "
         "--source-root DIR:\n"
         "DIR/NAME, then NAME without its first directories, one at a time "
         "(src/a.c:\n"
         "DIR/src/a.c, then DIR/a.c).  Tried in that order, then NAME as "
         "compiled, then\n"
         "(a relative NAME) under the profile's directory and its "
         "parents.\n"
         "A path through a callee (-fprofile-paths-ipp) prints by "
         "function: foo 5-7 > bar\n"
         "12-13 15 > foo 7-8 (foo's lines, bar's, foo's again); --json "
         "adds \"segments\".\n",
         out);
}


/* Whether the named inputs are context profiles: 1 all of them, 0 none
   (directories do not count), -1 a mix (message printed).  */
static int
input_kind (char **files, int nfiles)
{
  int ppc = 0, other = 0;
  for (int i = 0; i < nfiles; i++)
    {
      struct stat st;
      if (stat (files[i], &st) == 0 && S_ISDIR (st.st_mode))
        continue;
      if (pp_is_context_file (files[i]))
        ppc++;
      else
        other++;
    }
  if (ppc && other)
    {
      fprintf (stderr, "ppprof: inputs of one kind please: path profiles "
               "(.ppd) or context profiles (.ppc)\n");
      return -1;
    }
  return ppc > 0;
}

/* CMD (report, annotate, lcov, dot, residual) on context profiles
   FILES: a sampled profile's report and annotate (sample_views.c); for
   the rest, and an instrumented build's context profile, one line on
   what to run instead.  */
static int
sampled_command (const char *cmd, char **files, int nfiles, const char *only,
                 long top, int disasm, int json)
{
  pp_context c;
  if (pp_context_load (&c, files, nfiles, 0) < 0)
    return 2;
  int sampled = pp_context_sampled (&c), rc = 2;
  if (!sampled && !strcmp (cmd, "report"))
    {
      pp_context_free (&c);
      pp_report_options o = { NULL, only, top, json, 0 };
      return ppprof_report_context (files, nfiles, &o);
    }
  if (sampled && json)
    {
      fprintf (stderr, "ppprof: %s: --json: not for a sampled profile's %s\n",
               c.name, cmd);
      rc = 1;
    }
  else if (sampled && !strcmp (cmd, "report"))
    rc = pp_samples_report (&c, top, only);
  else if (sampled && !strcmp (cmd, "annotate"))
    rc = pp_samples_annotate (&c, only, disasm, stdout, 0);
  else if (sampled)
    fprintf (stderr, "ppprof: %s: a sampled profile (ppprof record) has no "
             "paths for %s: run ppprof report, annotate or cct on it\n",
             c.name, cmd);
  else
    fprintf (stderr, "ppprof: %s: a context profile (.ppc) has no source "
             "lines for %s: run ppprof cct or report --metric on it, or %s "
             "on the program's path profile (.ppd)\n", c.name, cmd, cmd);
  pp_context_free (&c);
  return rc;
}

/* merge -o X.ppc, or of .ppc inputs: the trees merged context by
   context (ppc_merge).  */
static int
merge_contexts (char **files, int nfiles, const char *out)
{
  pp_context c;
  if (pp_context_load (&c, files, nfiles, 0) < 0)
    return 2;
  int rc = 0;
  /* a sampled profile's functions keep their entry addresses, which
     loading named: lines and instructions are found from them */
  for (uint32_t i = 0; c.fn_key && i < c.prof.nfns; i++)
    if (c.fn_key[i])
      {
        free (c.prof.fns[i].name);
        c.prof.fns[i].name = c.fn_key[i];
        c.fn_key[i] = NULL;
      }
  if (ppc_write_file (out, &c.prof) < 0)
    {
      fprintf (stderr, "ppprof: %s: %s\n", out, strerror (errno));
      rc = 2;
    }
  pp_context_free (&c);
  return rc;
}

/* All the profiles into OUT, a profile of as many objects
   (ppd_merge_objects): -fuse-path-profile=OUT finds each object's
   functions in it.  */
static int
merge (pp_profile_set *set, const char *out)
{
  ppd_profile result = { 0 };
  for (int p = 0; p < set->num_profiles; p++)
    if (ppd_merge_objects (&result, &set->profiles[p]) < 0)
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


/* DOT: the CFG, each edge with its count (lib/counts.c), as thick and red
   as its share of the hottest edge's.  */
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
  FILE *out = stdout;
  if (svg)
    {
      out = popen ("dot -Tsvg", "w");
      if (!out)
        {
          fprintf (stderr, "ppprof: cannot run Graphviz 'dot'\n");
          return 2;
        }
    }
  int rc = pp_cfg_dot (out, fn, NULL) < 0 ? 2 : 0;
  if (svg && pclose (out) != 0)
    {
      fprintf (stderr, "ppprof: Graphviz 'dot' failed\n");
      return 2;
    }
  return rc;
}


/* --function F as the profile names it: F, or the C++ symbol whose
   demangled name (as the reports print it) is F.  */
static const char *
symbol_of (const pp_profile_set *set, const char *only)
{
  if (!only)
    return NULL;
  for (int i = 0; i < set->num_fns; i++)
    if (!strcmp (set->fns[i].name, only))
      return only;
  for (int i = 0; i < set->num_fns; i++)
    {
      char *dm = pp_demangle (set->fns[i].name);
      int same = dm && !strcmp (dm, only);
      free (dm);
      if (same)
        return set->fns[i].name;
    }
  return only;
}

/* The command; FILES and MAPS (room for ARGC names each) are main's,
   freed there: every return path leaves nothing behind (make check runs
   ppprof under LeakSanitizer).  */
static int
run (int argc, char **argv, char **files, const char **maps)
{
  if (argc < 2 || !strcmp (argv[1], "--help") || !strcmp (argv[1], "-h"))
    {
      usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? 1 : 0;
    }
  if (!strcmp (argv[1], "db"))
    return ppprof_db (argc - 1, argv + 1);
  /* record's options end at the program's name: its own parser */
  if (!strcmp (argv[1], "record"))
    return ppprof_record (argc - 2, argv + 2);
  if (!strcmp (argv[1], "--version"))
    {
      printf ("ppprof (ppgcc) %s\n", PACKAGE_VERSION);
      return 0;
    }
  const char *cmd = argv[1], *only = NULL, *out = NULL, *metric = NULL;
  const char *path_id = NULL, *only_file = NULL, *source_root = NULL;
  int nmaps = 0;
  long top = 20, paths = 0;
  double min_percent = 0;
  int json = 0, svg = 0, fail_on_new = 0, subtract = 0, cct_only = 0;
  int disasm = 0;
  int min_percent_given = 0;
  int nfiles = 0;
  for (int i = 2; i < argc; i++)
    {
      const char *a = argv[i];
      if (!strcmp (a, "--json"))
        json = 1;
      else if (!strcmp (a, "--disasm"))
        disasm = 1;
      else if (!strcmp (a, "--svg"))
        svg = 1;
      else if (!strcmp (a, "--fail-on-new"))
        fail_on_new = 1;
      else if (!strcmp (a, "--subtract-probes"))
        subtract = 1;
      else if (!strcmp (a, "--metric") && i + 1 < argc)
        metric = argv[++i];
      else if (!strcmp (a, "--path") && i + 1 < argc)
        path_id = argv[++i];
      else if (!strcmp (a, "--file") && i + 1 < argc)
        only_file = argv[++i];
      else if (!strcmp (a, "--source-root") && i + 1 < argc)
        {
          struct stat st;
          source_root = argv[++i];
          if (stat (source_root, &st) != 0 || !S_ISDIR (st.st_mode))
            {
              fprintf (stderr, "ppprof: --source-root %s: not a "
                       "directory\n", source_root);
              return 1;
            }
        }
      else if (!strcmp (a, "--path-map") && i + 1 < argc)
        {
          const char *v = argv[++i], *eq = strchr (v, '=');
          if (!eq || eq == v)
            {
              fprintf (stderr, "ppprof: --path-map %s: not OLD=NEW (OLD "
                       "a prefix of the recorded source names)\n", v);
              return 1;
            }
          maps[nmaps++] = v;
        }
      else if (!strcmp (a, "--paths") && i + 1 < argc)
        {
          const char *v = argv[++i];
          char *end;
          paths = strtol (v, &end, 10);
          cct_only = 1;
          if (paths < 0 || *end || !*v)
            {
              fprintf (stderr, "ppprof: --paths %s: not a count\n", v);
          return 1;
            }
        }
      else if (!strcmp (a, "--min-percent") && i + 1 < argc)
        {
          const char *v = argv[++i];
          char *end;
          min_percent = strtod (v, &end);
          min_percent_given = 1;
          if (!(min_percent >= 0 && min_percent <= 100) || *end || !*v)
            {
              fprintf (stderr, "ppprof: --min-percent %s: not a percentage "
                       "(0 to 100)\n", v);
          return 1;
            }
        }
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
      else if (i + 1 == argc
               && (!strcmp (a, "--top") || !strcmp (a, "--function")
                   || !strcmp (a, "-o") || !strcmp (a, "--metric")
                   || !strcmp (a, "--path") || !strcmp (a, "--paths")
                   || !strcmp (a, "--file")
                   || !strcmp (a, "--source-root")
                   || !strcmp (a, "--path-map")
                   || !strcmp (a, "--min-percent")))
        {
          fprintf (stderr, "ppprof: %s needs a value\n", a);
          return 1;
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
  int is_cct = !strcmp (cmd, "cct"), is_folded = !strcmp (cmd, "folded");
  int is_annotate = !strcmp (cmd, "annotate"), is_lcov = !strcmp (cmd, "lcov");
  int is_html = !strcmp (cmd, "html"), is_lines = !strcmp (cmd, "lines");
  if (is_lines)
    {
      /* a sampled profile's line counts, for -fuse-path-profile */
      pp_context c;
      if (pp_context_load (&c, files, nfiles, 0) < 0)
        return 2;
      int rc = 2;
      if (!pp_context_sampled (&c))
        fprintf (stderr, "ppprof: %s: not a sampled profile (ppprof "
                 "record): an instrumented build's profile is used as it "
                 "is (-fuse-path-profile on its .ppd)\n", c.name);
      else
        rc = pp_samples_lines (&c, out);
      pp_context_free (&c);
      return rc;
    }
  if (!is_report && !is_merge && !is_dot && !is_residual && !is_overlap
      && !is_cct && !is_folded && !is_annotate && !is_lcov && !is_html)
    {
      const char *near = nearest_command (cmd);
      if (near)
        fprintf (stderr, "ppprof: unknown command '%s' (did you mean "
                 "'%s'?)\n", cmd, near);
      else
        {
          fprintf (stderr, "ppprof: unknown command '%s'\n", cmd);
          usage (stderr);
        }
      return 1;
    }
  if (path_id && (!is_annotate || !only))
    {
      fprintf (stderr, "ppprof: --path ID needs annotate --function F "
               "(path ids are per function)\n");
      return 1;
    }
  if ((is_merge && (!out || nfiles == 0)) || (is_dot && !only)
      || (fail_on_new && !is_residual)
      || (is_overlap && (nfiles != 2 || only || out || svg))
      /* --metric and --subtract-probes: report, cct, folded, html;
         --paths: cct; --min-percent: cct, html.  */
      || ((metric || subtract) && !is_report && !is_cct && !is_folded
          && !is_html)
      || (cct_only && !is_cct)
      || (min_percent_given && !is_cct && !is_html)
      || ((is_cct || is_folded) && (only || out || svg || fail_on_new))
      || (is_folded && json)
      || ((is_annotate || is_lcov) && (json || svg || metric || subtract))
      || (is_html && (json || svg))
      || (is_annotate && out))
    {
      usage (stderr);
      return 1;
    }
  if (disasm && !is_annotate)
    {
      fprintf (stderr, "ppprof: --disasm goes with annotate (of a sampled "
               "profile)\n");
      return 1;
    }
  if (only_file && !is_report && !is_residual && !is_annotate && !is_lcov
      && !is_dot)
    {
      fprintf (stderr, "ppprof: --file goes with report, residual, "
               "annotate, lcov and dot\n");
      return 1;
    }
  if ((source_root || nmaps) && !is_annotate && !is_html && !is_lcov)
    {
      fprintf (stderr, "ppprof: %s goes with annotate, html and lcov\n",
               source_root ? "--source-root" : "--path-map");
      return 1;
    }
  pp_source_search (source_root, maps, nmaps);
  if (is_html && !out)
    {
      fprintf (stderr, "ppprof: html needs -o DIR (the report's "
               "directory)\n");
      return 1;
    }
  if (is_html)
    {
      pp_html_options o = { only, out, metric, top,
                            min_percent_given ? min_percent : 0.01, subtract,
                            -1 };
      return ppprof_html (files, nfiles, &o);
    }
  /* A context profile given to a command of path profiles: a sampled
     one has its own report and annotate; otherwise one line says what
     to run.  */
  if ((is_annotate || is_lcov || is_dot || is_residual
       || (is_report && !metric && !subtract))
      && nfiles)
    {
      int kind = input_kind (files, nfiles);
      if (kind < 0)
        return 2;
      if (kind)
        return sampled_command (cmd, files, nfiles, only, top, disasm,
                                json);
    }
  if (disasm)
    {
      fprintf (stderr, "ppprof: --disasm: the instructions' samples are a "
               "sampled profile's (ppprof record's .ppc)\n");
      return 1;
    }
  if (is_cct || is_folded)
    {
      pp_cct_options o = { metric, json, subtract, paths, min_percent };
      return is_cct ? ppprof_cct (files, nfiles, &o)
                    : ppprof_folded (files, nfiles, metric, subtract);
    }
  if (is_report || is_merge)
    {
      int kind = input_kind (files, nfiles);
      if (kind < 0)
        return 2;
      /* Merge writes what the output's name says; without a .ppc input
         or output, the .ppd commands below.  */
      size_t olen = out ? strlen (out) : 0;
      int ppc_out = olen >= 4 && !strcmp (out + olen - 4, ".ppc");
      if (is_merge && kind && !ppc_out)
        {
          fprintf (stderr, "ppprof: %s: context profiles merge into a "
                   ".ppc file\n", out);
          return 1;
        }
      if (is_merge && ppc_out)
        kind = 1;
      if (kind || (is_report && (metric || subtract)))
        {
          pp_report_options o = { metric, only, top, json, subtract };
          return is_merge ? merge_contexts (files, nfiles, out)
                          : ppprof_report_context (files, nfiles, &o);
        }
    }
  if (is_overlap)
    {
      return ppprof_overlap_files (files, top, json);
    }
  pp_profile_set set;
  if (pp_profile_set_load (&set, files, nfiles) < 0)
    {
      pp_profile_set_free (&set);
      return 2;
    }
  /* Nothing to show is said, not printed as an empty table (residual
     --fail-on-new has its own exit status for it).  */
  if (set.num_profiles == 0 && !is_residual)
    {
      fprintf (stderr, "ppprof: no path profiles (.ppd) in %s: run a "
               "program built with ppgcc -fprofile-paths first\n",
               nfiles ? files[0] : "the current directory");
      pp_profile_set_free (&set);
      return 2;
    }
  int rc = 0;
  set.only_file = only_file;
  if (is_merge)
    rc = merge (&set, out);
  else if (pp_profile_set_analyse (&set) < 0)
    rc = 2;
  if (is_merge || rc)
    {
      pp_profile_set_free (&set);
      return rc;
    }
  only = symbol_of (&set, only);
  if (only_file && set.num_fns == 0)
    {
      fprintf (stderr, "ppprof: --file %s: no profiled function of a source "
               "file named so (%d of other files)\n", only_file,
               set.num_other_files);
      rc = 2;
    }
  else if (is_residual)
    rc = ppprof_residual (&set, only, json, fail_on_new);
  else if (is_annotate)
    rc = ppprof_annotate (&set, only, path_id);
  else if (is_lcov)
    rc = ppprof_lcov (&set, only, out);
  else
    rc = is_report ? ppprof_report (&set, top, only, json) : dot (&set, only, svg);
  pp_profile_set_free (&set);
  return rc;
}

/* The command within two edits of CMD (a typo), or NULL.  */
static const char *
nearest_command (const char *cmd)
{
  static const char *const commands[]
      = { "report", "merge", "dot", "residual", "overlap", "cct",
          "folded", "annotate", "lcov", "html", "db", "record", "lines",
          NULL };
  size_t n = strlen (cmd);
  if (n > 32)
    return NULL;
  const char *best = NULL;
  size_t best_d = 3;
  for (const char *const *c = commands; *c; c++)
    {
      /* Levenshtein distance, one row at a time.  */
      size_t m = strlen (*c), row[33];
      for (size_t j = 0; j <= m; j++)
        row[j] = j;
      for (size_t i = 1; i <= n; i++)
        {
          size_t diag = row[0];
          row[0] = i;
          for (size_t j = 1; j <= m; j++)
            {
              size_t up = row[j];
              size_t sub = diag + (cmd[i - 1] != (*c)[j - 1]);
              size_t del = up + 1, ins = row[j - 1] + 1;
              row[j] = sub < del ? (sub < ins ? sub : ins)
                                 : (del < ins ? del : ins);
              diag = up;
            }
        }
      if (row[m] < best_d)
        {
          best_d = row[m];
          best = *c;
        }
    }
  return best;
}

int
main (int argc, char **argv)
{
  char **files = calloc (argc, sizeof *files);
  const char **maps = calloc (argc, sizeof *maps);
  if (!files || !maps)
    {
      fprintf (stderr, "ppprof: out of memory\n");
      free (files);
      free (maps);
      return 2;
    }
  int rc = run (argc, argv, files, maps);
  free (files);
  free (maps);
  return rc;
}

