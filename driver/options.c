/* Parsing ppgcc's command line (see options.h).  */
#include "config.h"

#include "options.h"

#include "pp/optval.h"

#include <libiberty/libiberty.h>

#include <stdlib.h>
#include <string.h>

/* gcc options whose value is the next argument: that argument is not an
   input file and not an option.  */
static const char *const takes_value[] = {
  "-o", "-x", "-I", "-D", "-U", "-L", "-l", "-include", "-imacros",
  "-isystem", "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
  "-iquote", "-isysroot", "-imultilib", "-MF", "-MT", "-MQ", "-Xlinker",
  "-Xassembler", "-Xpreprocessor", "-u", "-T", "-e", "-z", "-aux-info",
  "--param", "-dumpbase", "-dumpdir", "-dumpbase-ext", NULL
};

static int
takes_separate_value (const char *a)
{
  for (int i = 0; takes_value[i]; i++)
    if (!strcmp (a, takes_value[i]))
      return 1;
  return 0;
}

static const char *
value_of (const char *arg, const char *opt)
{
  size_t n = strlen (opt);
  if (strncmp (arg, opt, n) == 0 && arg[n] == '=')
    return arg + n + 1;
  return NULL;
}

/* A numeric option's value (pp/optval.h), checked whatever the mode: the
   plugin, which checks it too, is not loaded without -fprofile-paths or
   -fuse-path-profile, and a bad value would go unnoticed.  Returns 0, or
   -1 after one error line.  */
static int
check_numeric (const char *arg, const char *origin)
{
  const char *eq = strchr (arg, '=');
  if (!eq)
    return 0;
  char *name = xstrndup (arg, eq - arg);
  const pp_numeric_option *o = pp_numeric_option_find (name, 0);
  free (name);
  if (!o || pp_numeric_value (o, eq + 1, NULL, NULL))
    return 0;
  fprintf (stderr, "ppgcc: error: %s%s: not %s\n", origin, arg, o->expects);
  return -1;
}

/* Parses A when it is one of ppgcc's own options (not the -v, --help and
   --version it shares with gcc) into CL.  Returns 1 when it is, 0 when it
   is not, -1 after one error line, which starts with ORIGIN (where A
   comes from: "" for the command line).  */
static int
parse_own (const char *a, const char *origin, ppgcc_cmdline *cl)
{
  const char *v;
  if (check_numeric (a, origin) < 0)
    return -1;
  if (!strcmp (a, "-fprofile-paths"))
    cl->mode = "bl";
  else if ((v = value_of (a, "-fprofile-paths")))
    {
      if (strcmp (v, "bl") != 0 && strcmp (v, "ppp") != 0
          && strcmp (v, "residual") != 0 && strcmp (v, "cct") != 0)
        {
          fprintf (stderr, "ppgcc: error: %s-fprofile-paths=%s: unknown "
                   "mode (supported: bl, ppp, residual, cct)\n", origin, v);
          return -1;
        }
      cl->mode = v;
    }
  else if ((v = value_of (a, "-fprofile-paths-array-max")))
    cl->array_max = v;
  else if ((v = value_of (a, "-fprofile-paths-max")))
    cl->max_paths = v;
  else if ((v = value_of (a, "-fprofile-paths-ppp-policy")))
    {
      if (strcmp (v, "hash") != 0 && strcmp (v, "truncate") != 0)
        {
          fprintf (stderr, "ppgcc: error: %s-fprofile-paths-ppp-policy=%s: "
                   "unknown policy (supported: hash, truncate)\n", origin,
                   v);
          return -1;
        }
      cl->ppp_policy = v;
    }
  else if ((v = value_of (a, "-fprofile-paths-ppp-min-paths")))
    cl->ppp_min_paths = v;
  else if ((v = value_of (a, "-fprofile-paths-table")))
    {
      if (strcmp (v, "hash") != 0 && strcmp (v, "hpt") != 0)
        {
          fprintf (stderr, "ppgcc: error: %s-fprofile-paths-table=%s: "
                   "unknown table (supported: hash, hpt)\n", origin, v);
          return -1;
        }
      cl->table = v;
    }
  else if (!strcmp (a, "-fprofile-paths-db"))
    cl->db_writer = 1;
  else if (!strcmp (a, "-fprofile-paths-switch"))
    cl->switching = "entry";
  else if ((v = value_of (a, "-fprofile-paths-switch")))
    {
      if (strcmp (v, "none") != 0 && strcmp (v, "entry") != 0
          && strcmp (v, "check") != 0)
        {
          fprintf (stderr, "ppgcc: error: %s-fprofile-paths-switch=%s: "
                   "unknown design (supported: none, entry, check)\n",
                   origin, v);
          return -1;
        }
      cl->switching = v;
    }
  else if ((v = value_of (a, "-fprofile-paths-metric")))
    {
      if (!*v)
        {
          fprintf (stderr, "ppgcc: error: %s-fprofile-paths-metric=: no "
                   "event (e.g. cycles, instructions, time)\n", origin);
          return -1;
        }
      cl->metric = v;
    }
  else if ((v = value_of (a, "-fprofile-paths-metric-at")))
    {
      if (strcmp (v, "paths") != 0 && strcmp (v, "calls") != 0)
        {
          fprintf (stderr, "ppgcc: error: %s-fprofile-paths-metric-at=%s: "
                   "unknown placement (supported: paths, calls)\n", origin,
                   v);
          return -1;
        }
      cl->metric_at = v;
    }
  else if ((v = value_of (a, "-fprofile-paths-inlined")))
    {
      if (strcmp (v, "none") != 0 && strcmp (v, "flat") != 0)
        {
          fprintf (stderr, "ppgcc: error: %s-fprofile-paths-inlined=%s: "
                   "unknown choice (supported: none, flat)\n", origin, v);
          return -1;
        }
      cl->inlined = v;
    }
  else if ((v = value_of (a, "-fprofile-paths-ipp")))
    {
      if (strcmp (v, "inline") != 0 && strcmp (v, "clone") != 0
          && strcmp (v, "none") != 0)
        {
          fprintf (stderr, "ppgcc: error: %s-fprofile-paths-ipp=%s: "
                   "unknown scheme (supported: inline, clone, none)\n",
                   origin, v);
          return -1;
        }
      cl->ipp = strcmp (v, "none") ? v : NULL;
    }
  else if ((v = value_of (a, "-fprofile-paths-ipp-depth")))
    cl->ipp_depth = v;
  else if ((v = value_of (a, "-fprofile-paths-ipp-growth")))
    cl->ipp_growth = v;
  else if ((v = value_of (a, "-fprofile-paths-ipp-contexts")))
    cl->ipp_contexts = v;
  else if ((v = value_of (a, "-fprofile-paths-ipp-inline-stmts")))
    cl->ipp_inline_stmts = v;
  else if ((v = value_of (a, "-fprofile-paths-interesting")))
    cl->interesting = v;
  else if ((v = value_of (a, "-fprofile-paths-hot")))
    cl->hot = v;
  else if (!strcmp (a, "-fuse-path-profile"))
    cl->use_profile = 1;
  else if ((v = value_of (a, "-fuse-path-profile")))
    cl->use_profile = 1, cl->use_path = v;
  else if (!strcmp (a, "-fopt-info-paths"))
    cl->opt_info = 1;
  else if (!strcmp (a, "-fprofile-paths-derive"))
    cl->derive = 1;
  else if (!strcmp (a, "-fno-profile-paths-derive"))
    cl->derive = 0;
  else if (!strcmp (a, "-fprofile-paths-loop-registers"))
    cl->loop_registers = 1;
  else if (!strcmp (a, "-fno-profile-paths-loop-registers"))
    cl->loop_registers = 0;
  else if (!strcmp (a, "-fprofile-paths-inline-size"))
    cl->inline_size = 1;
  else if (!strcmp (a, "-fno-profile-paths-inline-size"))
    cl->inline_size = 0;
  else if (!strcmp (a, "-fprofile-paths-values"))
    cl->values = 1;
  else if (!strcmp (a, "-fno-profile-paths-values"))
    cl->values = 0;
  else if (!strcmp (a, "-fpath-superblock"))
    cl->superblock = 1;
  else if (!strcmp (a, "-fno-path-superblock"))
    cl->superblock = 0;
  else if (!strcmp (a, "-fpath-context-clone"))
    cl->context_clone = 1;
  else if (!strcmp (a, "-fpath-context-clone=all"))
    cl->context_clone = 2;
  else if (!strcmp (a, "-fno-path-context-clone"))
    cl->context_clone = 0;
  else if ((v = value_of (a, "-fpath-superblock-growth")))
    cl->superblock_growth = v;
  else if ((v = value_of (a, "-fpath-superblock-hot")))
    cl->superblock_hot = v;
  else if (!strcmp (a, "-fno-profile-paths"))
    {
      cl->mode = NULL;
      cl->use_profile = 0;
      cl->use_path = NULL;
    }
  else
    return 0;
  return 1;
}

/* Clears every option parse_own sets.  */
static void
clear_own (ppgcc_cmdline *cl)
{
  cl->mode = cl->array_max = cl->max_paths = NULL;
  cl->ppp_policy = cl->ppp_min_paths = cl->table = cl->switching = NULL;
  cl->inlined = NULL;
  cl->metric = cl->metric_at = cl->ipp = cl->ipp_depth = cl->ipp_growth = NULL;
  cl->ipp_contexts = cl->interesting = cl->hot = NULL;
  cl->ipp_inline_stmts = NULL;
  cl->use_profile = 0;
  cl->use_path = NULL;
  cl->opt_info = 0;
  cl->superblock = -1;
  cl->context_clone = -1;
  cl->derive = -1;
  cl->loop_registers = -1;
  cl->inline_size = -1;
  cl->values = -1;
  cl->superblock_growth = cl->superblock_hot = NULL;
}

/* PPGCC_FLAGS: ppgcc options, split as a shell would split them (quotes,
   backslashes: libiberty's buildargv), in place of the command's own.
   Blanks alone are no options: the command's stay.  Returns 0, or -1
   after one error line.  */
static int
replace_own (const char *flags, ppgcc_cmdline *cl)
{
  char **words = buildargv (flags);
  int nonempty = 0;
  for (int i = 0; words[i]; i++)
    nonempty += words[i][0] != '\0';
  if (!nonempty)
    {
      freeargv (words);
      return 0;
    }
  clear_own (cl);
  cl->env_flags = flags;
  for (int i = 0; words[i]; i++)
    {
      if (!words[i][0])
        continue;
      int own = parse_own (words[i], "PPGCC_FLAGS: ", cl);
      if (own < 0)
        return -1;
      if (own == 0)
        {
          fprintf (stderr, "ppgcc: error: PPGCC_FLAGS: '%s' is not a ppgcc "
                   "option (ppgcc --help lists them); gcc's options go on "
                   "the command line, as CFLAGS do\n", words[i]);
          return -1;
        }
    }
  /* Not freeargv: CL points into the words.  */
  free (words);
  return 0;
}

/* Whether file A is one of autoconf's test programs: conftest.EXT in
   any directory (AC_LANG's sources, their objects).  */
static int
autoconf_probe_p (const char *a)
{
  const char *base = lbasename (a);
  return !strncmp (base, "conftest.", 9) && base[9]
         && !strchr (base + 9, '.');
}

int
ppgcc_parse (int argc, char **argv, const char *flags, ppgcc_cmdline *cl)
{
  memset (cl, 0, sizeof *cl);
  cl->superblock = -1;
  cl->context_clone = -1;
  cl->derive = -1;
  cl->loop_registers = -1;
  cl->inline_size = -1;
  cl->values = -1;
  cl->pass = XNEWVEC (char *, argc + 1);
  int stops_before_link = 0, inputs = 0, info_only = 0, probes = 0;
  for (int i = 1; i < argc; i++)
    {
      char *a = argv[i];
      int own = parse_own (a, "", cl);
      if (own < 0)
        return -1;
      if (own > 0)
        continue;
      if (!strcmp (a, "--help") && argc == 2)
        cl->help = 1;
      else if (!strcmp (a, "--version") && argc == 2)
        cl->version = 1;
      else
        {
          if (!strcmp (a, "-v"))
            cl->verbose = 1;
          if (!strcmp (a, "-c") || !strcmp (a, "-S") || !strcmp (a, "-E")
              || !strcmp (a, "-M") || !strcmp (a, "-MM"))
            stops_before_link = 1;
          if (!strcmp (a, "--version") || !strcmp (a, "--help")
              || !strcmp (a, "-dumpversion") || !strcmp (a, "-dumpmachine")
              || !strcmp (a, "-dumpfullversion")
              || !strncmp (a, "-print-", 7) || !strncmp (a, "--print-", 8))
            info_only = 1;
          cl->pass[cl->npass++] = a;
          if (takes_separate_value (a) && i + 1 < argc)
            cl->pass[cl->npass++] = argv[++i];
          else if (a[0] != '-' || !a[1])
            {
              inputs++;
              probes += autoconf_probe_p (a);
            }
        }
    }
  cl->links = !stops_before_link && !info_only && inputs > 0;
  cl->inputs = inputs;
  if (flags && replace_own (flags, cl) < 0)
    return -1;
  /* configure's test programs: a profile of one outlives its source
     (configure deletes conftest.* at once; under PPGCC_PREFIX the profile
     stays, and ppprof annotate could not read its source: gzip's
     configure, re-run by the first make of a Debian tree), and what
     configure learns must not depend on profiling.  Plain gcc for them,
     as -fno-profile-paths.  */
  if (inputs > 0 && probes == inputs)
    {
      clear_own (cl);
      cl->autoconf_probe = 1;
    }
  if (cl->ipp && !cl->mode)
    {
      fprintf (stderr, "ppgcc: error: %s-fprofile-paths-ipp=%s needs "
               "-fprofile-paths (bl, ppp or residual) and "
               "-fuse-path-profile\n", cl->env_flags ? "PPGCC_FLAGS: " : "",
               cl->ipp);
      return -1;
    }
  if (cl->metric && !cl->mode)
    {
      fprintf (stderr, "ppgcc: error: %s-fprofile-paths-metric=%s needs "
               "-fprofile-paths or -fprofile-paths=cct\n",
               cl->env_flags ? "PPGCC_FLAGS: " : "", cl->metric);
      return -1;
    }
  if (cl->metric_at && !cl->metric)
    {
      fprintf (stderr, "ppgcc: error: %s-fprofile-paths-metric-at=%s needs "
               "-fprofile-paths-metric\n",
               cl->env_flags ? "PPGCC_FLAGS: " : "", cl->metric_at);
      return -1;
    }
  return 0;
}

/* The optimisations -fprofile-use turns on with a profile (GCC's
   enable_fdo_optimizations), for -fuse-path-profile alone: given before the
   user's options, so that an explicit -fno-... still wins.  Feedback itself
   (-fbranch-probabilities) the plugin turns on once GCC's .gcda reader has
   gone by.  */
static const char *const fdo_flags[] = {
  "-funroll-loops", "-fpeel-loops", "-ftracer", "-finline-functions",
  "-fipa-cp", "-fipa-cp-clone", "-fipa-bit-cp", "-fpredictive-commoning",
  "-fsplit-loops", "-funswitch-loops", "-fgcse-after-reload",
  "-ftree-loop-vectorize", "-ftree-slp-vectorize",
  "-fversion-loops-for-strides", "-fvect-cost-model=dynamic",
  "-ftree-loop-distribute-patterns", "-floop-interchange", "-floop-unroll-and-jam",
  "-ftree-loop-distribution", NULL
};

/* Whether PATH (a -fuse-path-profile file) is a sampled profile's line
   counts (`ppprof lines`, plugin/sample-use.cc).  */
static int
sampled_lines (const char *path)
{
  static const char magic[] = "ppgcc-sample-lines ";
  char head[sizeof magic - 1];
  FILE *f = path && *path ? fopen (path, "rb") : NULL;
  if (!f)
    return 0;
  size_t got = fread (head, 1, sizeof head, f);
  fclose (f);
  return got == sizeof head && !memcmp (head, magic, sizeof head);
}

/* Whether the command gives any -g option (-g, -g0, -ggdb, -gdwarf-4,
   -gsplit-dwarf, ...).  */
static int
debug_option_given (const ppgcc_cmdline *cl)
{
  for (int i = 0; i < cl->npass; i++)
    if (!strncmp (cl->pass[i], "-g", 2))
      return 1;
  return 0;
}

/* The level of the last -O option (-O: 1, -Os, -Oz, -Og: -1, -Ofast: 3);
   0 without one.  */
static int
opt_level (const ppgcc_cmdline *cl)
{
  int level = 0;
  for (int i = 0; i < cl->npass; i++)
    {
      const char *a = cl->pass[i];
      if (strncmp (a, "-O", 2) != 0)
        continue;
      if (!a[2])
        level = 1;
      else if (!strcmp (a + 2, "fast"))
        level = 3;
      else if (a[2] >= '0' && a[2] <= '9' && !a[3])
        level = a[2] - '0';
      else
        level = -1;
    }
  return level;
}

/* Whether the command sets any of GCC's inlining limits itself.  */
static int
inline_params_given (const ppgcc_cmdline *cl)
{
  for (int i = 0; i < cl->npass; i++)
    if (strstr (cl->pass[i], "inline-insns") || strstr (cl->pass[i],
                                                          "inline-min-speedup")
        || strstr (cl->pass[i], "early-inlining-insns"))
      return 1;
  return 0;
}

char **
ppgcc_gcc_argv (const ppgcc_cmdline *cl, const char *cc, const char *plugin,
                const char *runtime)
{
  size_t nfdo = sizeof fdo_flags / sizeof *fdo_flags;
  char **args = XNEWVEC (char *, cl->npass + 50 + nfdo);
  int n = 0;
  args[n++] = (char *) cc;
  int sampled = cl->use_profile && sampled_lines (cl->use_path);
  if (plugin && cl->use_profile && !cl->mode)
    for (const char *const *f = fdo_flags; *f; f++)
      /* a sampled profile (timer samples, no branch records) knows
         where time goes, not how many times a loop turns: no unrolling
         by its estimated trip counts (a loop header's count over its
         preheader's).  Peeling pays: bench/sampled's recompiles, three
         20 kHz training profiles each, bzip2 481.0/488.7/473.0 M
         instructions without it, 477.3/486.2/470.1 M with it (-O2
         499.0 M), lua 609.5/620.9/622.7 M and 612.4/621.8/619.3 M (-O2
         640.0 M); unrolling cost lua 8-17 M of 620 M.  */
      if (!sampled || strcmp (*f, "-funroll-loops") != 0)
        args[n++] = (char *) *f;
  for (int i = 0; i < cl->npass; i++)
    args[n++] = cl->pass[i];
  /* A context profile names each call site by its return address, which
     ppprof cct turns into FILE:LINE through the object's line table; a
     build without -g has none, and its sites printed as prog+0x2866.  So
     a context or metric build without any -g option gets -g1, line
     tables only: GCC's code is the same with and without -g (what
     -fcompare-debug checks); the object grows by its line table, in
     sections that are not loaded.  */
  if (plugin && cl->mode && (!strcmp (cl->mode, "cct") || cl->metric)
      && !debug_option_given (cl))
    args[n++] = (char *) "-g1";
  /* A context build's probes go in before GCC inlines: every function
     carries its entry's marker, its callee slots' stores and restores and
     its counters through the context record when GCC's inliner weighs
     it, a few instructions more than a Ball-Larus build's, and -O2's
     limits then keep helpers out of line that a plain -O2 build inlines
     (lua's index2value, precallC, luaS_hash).  At -O2, unless the
     command sets them, the limits are raised to -O3's, which takes those
     back: lua's json workload 234.8 M -> 218.0 M instructions in the
     program, the exit write aside.  */
  if (plugin && cl->mode && !strcmp (cl->mode, "cct") && opt_level (cl) == 2
      && !inline_params_given (cl))
    {
      args[n++] = (char *) "--param=max-inline-insns-auto=30";
      args[n++] = (char *) "--param=early-inlining-insns=14";
      args[n++] = (char *) "--param=inline-min-speedup=15";
    }
  if (plugin)
    {
      args[n++] = concat ("-fplugin=", plugin, NULL);
      args[n++] = concat ("-fplugin-arg-ppgcc-mode=",
                          cl->mode ? cl->mode : "use", NULL);
      if (cl->array_max)
        args[n++] = concat ("-fplugin-arg-ppgcc-array-max=", cl->array_max,
                            NULL);
      if (cl->max_paths)
        args[n++] = concat ("-fplugin-arg-ppgcc-max-paths=", cl->max_paths,
                            NULL);
      if (cl->ppp_policy)
        args[n++] = concat ("-fplugin-arg-ppgcc-ppp-policy=", cl->ppp_policy,
                            NULL);
      if (cl->switching)
        args[n++] = concat ("-fplugin-arg-ppgcc-switch=", cl->switching, NULL);
      if (cl->metric)
        args[n++] = concat ("-fplugin-arg-ppgcc-metric=", cl->metric, NULL);
      if (cl->metric_at)
        args[n++] = concat ("-fplugin-arg-ppgcc-metric-at=", cl->metric_at,
                            NULL);
      if (cl->inlined)
        args[n++] = concat ("-fplugin-arg-ppgcc-inlined=", cl->inlined,
                            NULL);
      if (cl->ipp)
        args[n++] = concat ("-fplugin-arg-ppgcc-ipp=", cl->ipp, NULL);
      if (cl->ipp_depth)
        args[n++] = concat ("-fplugin-arg-ppgcc-ipp-depth=", cl->ipp_depth,
                            NULL);
      if (cl->ipp_growth)
        args[n++] = concat ("-fplugin-arg-ppgcc-ipp-growth=", cl->ipp_growth,
                            NULL);
      if (cl->ipp_contexts)
        args[n++] = concat ("-fplugin-arg-ppgcc-ipp-contexts=",
                            cl->ipp_contexts, NULL);
      if (cl->ipp_inline_stmts)
        args[n++] = concat ("-fplugin-arg-ppgcc-ipp-inline-stmts=",
                            cl->ipp_inline_stmts, NULL);
      if (cl->ppp_min_paths)
        args[n++] = concat ("-fplugin-arg-ppgcc-ppp-min-paths=",
                            cl->ppp_min_paths, NULL);
      if (cl->table)
        args[n++] = concat ("-fplugin-arg-ppgcc-table=", cl->table, NULL);
      /* An empty value: each object's own <object>.ppd.  */
      if (cl->use_profile)
        args[n++] = concat ("-fplugin-arg-ppgcc-use=",
                            cl->use_path ? cl->use_path : "", NULL);
      /* One input compiled and linked: an instrumenting build of the same
         command had the runtime as a second input, so gcc named its
         profile <output>-<source>.ppd (-dumpdir "<output>-", ".exe"
         dropped); this one would look for <source>.ppd.  */
      if (cl->use_profile && !cl->mode && cl->links && cl->inputs == 1)
        {
          const char *o = "a.out";
          for (int i = 0; i + 1 < cl->npass; i++)
            if (!strcmp (cl->pass[i], "-o"))
              o = cl->pass[i + 1];
          size_t len = strlen (o);
          if (len > 4 && !strcmp (o + len - 4, ".exe"))
            len -= 4;
          char *prefix = concat ("-fplugin-arg-ppgcc-use-onestep-prefix=",
                                 o, NULL);
          prefix[strlen (prefix) - (strlen (o) - len)] = '\0';
          args[n++] = concat (prefix, "-", NULL);
          free (prefix);
        }
      if (cl->interesting)
        args[n++] = concat ("-fplugin-arg-ppgcc-interesting=",
                            cl->interesting, NULL);
      if (cl->hot)
        args[n++] = concat ("-fplugin-arg-ppgcc-hot=", cl->hot, NULL);
      if (cl->opt_info)
        args[n++] = xstrdup ("-fplugin-arg-ppgcc-opt-info");
      if (cl->derive >= 0)
        args[n++] = xstrdup (cl->derive ? "-fplugin-arg-ppgcc-derive=1"
                                        : "-fplugin-arg-ppgcc-derive=0");
      if (cl->loop_registers >= 0)
        args[n++] = xstrdup (cl->loop_registers
                             ? "-fplugin-arg-ppgcc-loop-registers=1"
                             : "-fplugin-arg-ppgcc-loop-registers=0");
      if (cl->inline_size >= 0)
        args[n++] = xstrdup (cl->inline_size
                             ? "-fplugin-arg-ppgcc-inline-size=1"
                             : "-fplugin-arg-ppgcc-inline-size=0");
      if (cl->values >= 0)
        args[n++] = xstrdup (cl->values ? "-fplugin-arg-ppgcc-values=1"
                                        : "-fplugin-arg-ppgcc-values=0");
      if (cl->superblock >= 0)
        args[n++] = xstrdup (cl->superblock ? "-fplugin-arg-ppgcc-superblock=1"
                                            : "-fplugin-arg-ppgcc-superblock=0");
      if (cl->context_clone >= 0)
        args[n++] = xstrdup (cl->context_clone == 2
                                 ? "-fplugin-arg-ppgcc-context-clone=2"
                             : cl->context_clone
                                 ? "-fplugin-arg-ppgcc-context-clone=1"
                                 : "-fplugin-arg-ppgcc-context-clone=0");
      if (cl->superblock_growth)
        args[n++] = concat ("-fplugin-arg-ppgcc-superblock-growth=",
                            cl->superblock_growth, NULL);
      if (cl->superblock_hot)
        args[n++] = concat ("-fplugin-arg-ppgcc-superblock-hot=",
                            cl->superblock_hot, NULL);
      if (cl->cache_key)
        args[n++] = cl->cache_key;
    }
  /* The profile database's writer is linked on request only
     (runtime/db_write.h); PPGCC_PROFILE_DB set while linking asks too, as
     in the nightly flow (README), which exports it before building.  */
  const char *db = getenv ("PPGCC_PROFILE_DB");
  if (runtime && (cl->db_writer || (db && *db)))
    {
      args[n++] = (char *) "-u";
      args[n++] = (char *) "__pp_db_writer_linked";
    }
  if (runtime)
    {
      /* After `-x c` gcc would read the archive as C: the
         runtime is an input of its own kind.  */
      args[n++] = (char *) "-x";
      args[n++] = (char *) "none";
      args[n++] = (char *) runtime;
    }
  args[n] = NULL;
  return args;
}

void
ppgcc_print_help (FILE *out)
{
  fputs ("usage: ppgcc [ppgcc options] [gcc options] files...\n"
         "       ppgcc GCC [ppgcc options] [gcc options] files...   as a "
         "launcher\n"
         "       (CMake's CMAKE_C_COMPILER_LAUNCHER, CMAKE_C_LINKER_LAUNCHER): "
         "runs GCC\n"
         "A drop-in gcc that profiles paths (Ball-Larus) and optimises with them.\n"
         "ppgcc options:\n"
         "  -fprofile-paths[=bl]             instrument every function; "
         "link the runtime\n"
         "  -fprofile-paths=ppp|residual     with -fuse-path-profile: "
         "preferential path\n"
         "                                   profiling of the profiled "
         "paths; residual:\n"
         "                                   report the paths it never ran "
         "(ppprof residual)\n"
         "  -fprofile-paths=cct              Ball-Larus paths per calling "
         "context (the\n"
         "                                   calling context tree: "
         "<program>.ppc)\n"
         "  -fprofile-paths-metric=EV[,EV]   a metric per path: cycles, "
         "instructions,\n"
         "                                   cache-misses, branch-misses, "
         "rNNNN, time, tsc,\n"
         "                                   task-clock (ppprof cct, "
         "report --metric)\n"
         "  -fprofile-paths-metric-at=calls  read the metric at entries "
         "and returns only:\n"
         "                                   a total per calling context, "
         "none per path\n"
         "                                   (default paths: a total per "
         "path too)\n"
         "  -fprofile-paths-inlined=flat     with =cct: a leaf's body GCC "
         "inlines counts its\n"
         "                                   own paths and calls, under the "
         "root (default\n"
         "                                   none: in its caller's paths "
         "only)\n"
         "  -fprofile-paths-ipp=inline|clone interprocedural path segments "
         "through the\n"
         "                                   calls the profile in use ran "
         "(selective\n"
         "                                   inlining, or one shared "
         "duplicate per callee)\n"
         "  -fprofile-paths-ipp-depth=K      calls per segment (default 1)\n"
         "  -fprofile-paths-ipp-growth=P     code growth limit, % of the "
         "unit (default 100)\n"
         "  -fprofile-paths-ipp-contexts=N   call sites per shared duplicate "
         "(=clone; 0: all)\n"
         "  -fprofile-paths-ipp-inline-stmts=N  =clone: a copy per site of "
         "callees\n"
         "                                   of at most N statements "
         "(default 64)\n"
         "  -fuse-path-profile[=PATH]        the profile in use: each "
         "object's .ppd, a\n"
         "                                   directory of them, or one "
         "merged .ppd\n"
         "  -fprofile-paths-hot=P            interesting: the hottest paths "
         "covering P%\n"
         "  -fprofile-paths-interesting=FILE more interesting paths (path "
         "specs)\n"
         "  -fprofile-paths-ppp-policy=hash|truncate   PPP ranges above "
         "array-max: hash\n"
         "                                   table, or array-max slots "
         "(residual default)\n"
         "  -fprofile-paths-ppp-min-paths=N  functions with at most N paths "
         "count with\n"
         "                                   Ball-Larus ids (default: "
         "array-max)\n"
         "  -fprofile-paths-array-max=N      functions with more than N "
         "paths count in\n"
         "                                   a hash table (default 262144, "
         "4096 with\n"
         "                                   cct or metrics; a unit's arrays "
         "hold 2^22 in all)\n"
         "  -fprofile-paths-max=N            functions with more paths are "
         "split into\n"
         "                                   shorter ones, N at most "
         "(default: 262144 or\n"
         "                                   array-max if larger; 0: never, "
         "whole paths\n"
         "                                   in a hash table)\n"
         "  -fprofile-paths-table=hash|hpt   where those count: a hash "
         "table per function\n"
         "                                   (exact), or the program's "
         "Hot Path Table\n"
         "                                   (bounded, lossy; size "
         "PPGCC_HPT=SETSxWAYS)\n"
         "  -fno-profile-paths-derive        a probe in every function (default: "
         "one-path\n"
         "                                   static functions counted from "
         "their callers)\n"
         "  -fno-profile-paths-loop-registers\n"
         "                                   every loop trip counted in memory "
         "(default:\n"
         "                                   a single-path loop's in a "
         "register, stored\n"
         "                                   when the loop is left)\n"
         "  -fno-profile-paths-inline-size   GCC's inliner weighs functions with "
         "their probes\n"
         "                                   (default: as the plain build's)\n"
         "  -fno-profile-paths-values        no value profiles (default: the "
         "sizes and\n"
         "                                   destinations of memcpy, memset, "
         "... calls of\n"
         "                                   variable size, for "
         "-fuse-path-profile)\n"
         "  -fprofile-paths-db               link the writer of the profile "
         "database, so\n"
         "                                   that PPGCC_PROFILE_DB=DIR works "
         "at run time\n"
         "                                   (default when PPGCC_PROFILE_DB "
         "is set while\n"
         "                                   linking)\n"
         "  -fprofile-paths-switch[=entry|check]   probes the profile "
         "flag turns off\n"
         "                                   (__pp_profile_on/off, "
         "PPGCC_SAMPLE): entry\n"
         "                                   (default) an instrumented copy "
         "of each\n"
         "                                   function, entered when on; "
         "check: a test at\n"
         "                                   each path end\n"
         "  -fuse-path-profile alone         optimise: GCC's profile from the "
         "path counts\n"
         "  -fpath-superblock-growth=N|-hot=P  with it: superblocks along "
         "hot paths\n"
         "  -fno-path-superblock             with it: none (GCC's counts "
         "only)\n"
         "  -fno-path-context-clone          with it: no copies per calling "
         "context (.ppc)\n"
         "  -fopt-info-paths                 one line per function: "
         "numbering, counting\n"
         "  -fno-profile-paths               cancels -fprofile-paths and "
         "-fuse-path-profile\n"
         "                                   before it: plain gcc\n"
         "  -v                               print the gcc command lines "
         "(also passed to gcc)\n"
         "  --version, --help                this ppgcc\n"
         "Everything else goes to gcc unchanged, in order.  Environment:\n"
         "  PPGCC_CC        the gcc to run (default " PPGCC_TARGET_CC ")\n"
         "  PPGCC_FLAGS     ppgcc options that replace the command's own "
         "(all of them):\n"
         "                  switch a build configured with CC=ppgcc between "
         "profiling,\n"
         "                  residual, optimising and plain without "
         "reconfiguring\n"
         "  PPGCC_PLUGIN, PPGCC_RUNTIME   override the plugin / runtime "
         "files\n"
         "  PPGCC_CCACHE    run gcc through this ccache, told the profile "
         "and plugin\n"
         "  PPGCC_PREFIX, PPGCC_PREFIX_STRIP   (at run time) where "
         "profiles go, like\n"
         "                  GCOV_PREFIX, GCOV_PREFIX_STRIP\n"
         "  PPGCC_HPT       (at run time) the Hot Path Table's size, "
         "SETSxWAYS (512x4)\n"
         "Profiles: each object writes <object>.ppd at exit; see "
         "ppprof(1).\n",
         out);
}
