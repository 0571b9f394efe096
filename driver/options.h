/* ppgcc's command line: the options it owns, and what it hands to gcc.  */
#ifndef PPGCC_OPTIONS_H
#define PPGCC_OPTIONS_H

#include <stdio.h>

typedef struct
{
  char **pass;           /* gcc's arguments, in order (argv[0] excluded) */
  int npass;
  int inputs;            /* input files (not options) among them */
  /* Every input is an autoconf test program (conftest.c, conftest.o,
     ...): compiled and linked without profiling.  */
  int autoconf_probe;
  const char *mode;      /* -fprofile-paths[=MODE]: bl, ppp, residual, cct;
                            NULL: off (-fno-profile-paths) */
  const char *array_max; /* -fprofile-paths-array-max=N */
  const char *max_paths; /* -fprofile-paths-max=N */
  const char *ppp_policy;    /* -fprofile-paths-ppp-policy=hash|truncate */
  const char *ppp_min_paths; /* -fprofile-paths-ppp-min-paths=N */
  const char *table;         /* -fprofile-paths-table=hash|hpt */
  const char *switching;     /* -fprofile-paths-switch=none|check|clone */
  const char *metric;        /* -fprofile-paths-metric=EVENT[,EVENT] */
  const char *metric_at;     /* -fprofile-paths-metric-at=paths|calls */
  const char *inlined;       /* -fprofile-paths-inlined=none|flat */
  const char *ipp;           /* -fprofile-paths-ipp=inline|clone */
  const char *ipp_depth;     /* -fprofile-paths-ipp-depth=K */
  const char *ipp_growth;    /* -fprofile-paths-ipp-growth=PERCENT */
  const char *ipp_contexts;  /* -fprofile-paths-ipp-contexts=N */
  const char *ipp_inline_stmts; /* -fprofile-paths-ipp-inline-stmts=N */
  const char *interesting, *hot;
  int use_profile;       /* -fuse-path-profile[=PATH] */
  const char *use_path;
  int opt_info;          /* -fopt-info-paths */
  int superblock;        /* -f[no-]path-superblock: -1 unset */
  int context_clone;     /* -f[no-]path-context-clone[=all]: -1 unset, 2 all */
  int derive;            /* -f[no-]profile-paths-derive: -1 unset */
  int loop_registers;    /* -f[no-]profile-paths-loop-registers: -1 unset */
  int inline_size;       /* -f[no-]profile-paths-inline-size: -1 unset */
  int values;            /* -f[no-]profile-paths-values: -1 unset */
  const char *superblock_growth, *superblock_hot;
  int db_writer;         /* -fprofile-paths-db, or PPGCC_PROFILE_DB set:
                            link the database writer */
  int links;             /* the command links (no -c, -S, -E, -M, -MM) */
  const char *env_flags; /* PPGCC_FLAGS, when it replaced the command's
                            ppgcc options; else NULL */
  char *cache_key;       /* -fplugin-arg-ppgcc-cache-key=CWD (ccache), or
                            NULL */
  int verbose, help, version;
} ppgcc_cmdline;

/* ARGV's options; then, when FLAGS (PPGCC_FLAGS) is not NULL or empty,
   its ppgcc options in place of ARGV's (-fno-profile-paths alone: none).
   Returns 0, or -1 after one error line.  */
int ppgcc_parse (int argc, char **argv, const char *flags,
                 ppgcc_cmdline *cl);
/* gcc's argv: the passed options plus the plugin (when PLUGIN) and the
   runtime at the end (when RUNTIME).  */
char **ppgcc_gcc_argv (const ppgcc_cmdline *cl, const char *cc,
                       const char *plugin, const char *runtime);
void ppgcc_print_help (FILE *out);

#endif
