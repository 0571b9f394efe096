/* ppgcc: a drop-in gcc that can profile paths.

   Every option ppgcc does not own goes to gcc unchanged and in order;
   @response files are expanded (libiberty's expandargv).  PPGCC_FLAGS,
   when set, replaces the options ppgcc owns (options.h).  With
   -fprofile-paths each compilation loads the plugin, and a link adds the
   runtime archive at the end.  gcc runs through libiberty's pex; its exit
   status is ppgcc's.  */
#include "config.h"

#include <libiberty/libiberty.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ccache.h"
#include "options.h"
#include "elf_section.h"

static int
file_exists (const char *path)
{
  struct stat st;
  return path && stat (path, &st) == 0 && S_ISREG (st.st_mode);
}

static char *
join (const char *dir, const char *rel)
{
  return concat (dir, "/", rel, NULL);
}

/* The plugin or the runtime: $ENV_VAR, else beside ppgcc in a build tree,
   else the install directory (relocated with ppgcc when it moved).  */
static char *
locate (const char *env_var, const char *build_rel, const char *name,
        const char *self_dir, char *tried, size_t tried_len)
{
  const char *env = getenv (env_var);
  if (env && *env)
    {
      snprintf (tried, tried_len, "%s (from %s)", env, env_var);
      return file_exists (env) ? xstrdup (env) : NULL;
    }
  char *cand[3];
  cand[0] = join (self_dir, build_rel);
  char *rel = make_relative_prefix (concat (self_dir, "/ppgcc", NULL),
                                    PPGCC_BINDIR, PPGCC_PKGLIBDIR);
  cand[1] = rel ? join (rel, name) : xstrdup ("");
  cand[2] = join (PPGCC_PKGLIBDIR, name);
  snprintf (tried, tried_len, "%s, %s, %s", cand[0], cand[1], cand[2]);
  char *found = NULL;
  for (int i = 0; i < 3; i++)
    {
      if (!found && file_exists (cand[i]))
        found = cand[i];
      else
        free (cand[i]);
    }
  free (rel);
  return found;
}

static char *
self_dir (const char *argv0)
{
  char buf[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0)
    buf[n] = '\0';
  else if (!realpath (argv0, buf))
    snprintf (buf, sizeof buf, "%s", argv0);
  char *slash = strrchr (buf, '/');
  if (slash)
    *slash = '\0';
  return xstrdup (buf);
}

/* The wrapped gcc's version, by running it with -dumpfullversion.  */
static char *
gcc_version (const char *cc)
{
  const char *args[] = { cc, "-dumpfullversion", NULL };
  struct pex_obj *px = pex_init (PEX_USE_PIPES, "ppgcc", NULL);
  int err = 0, status = 0;
  char *version = NULL;
  /* Not PEX_LAST: the output stays in the pipe for pex_read_output.  */
  if (px && !pex_run (px, PEX_SEARCH, cc, (char *const *) args,
                      NULL, NULL, &err))
    {
      FILE *out = pex_read_output (px, 0);
      char line[128];
      if (out && fgets (line, sizeof line, out))
        {
          line[strcspn (line, "\r\n")] = '\0';
          version = xstrdup (line);
        }
      if (!pex_get_status (px, 1, &status) || !WIFEXITED (status)
          || WEXITSTATUS (status) != 0)
        {
          free (version);
          version = NULL;
        }
    }
  if (px)
    pex_free (px);
  return version;
}

static void
print_command (char **argv)
{
  fputs ("ppgcc: running:", stderr);
  for (int i = 0; argv[i]; i++)
    fprintf (stderr, " %s", argv[i]);
  fputc ('\n', stderr);
}

/* The g++ beside the gcc CC: "gcc" in its file name becomes "g++"
   (/usr/bin/gcc-12: /usr/bin/g++-12); "g++" when CC's name has none.  */
static const char *
cxx_of (const char *cc)
{
  const char *base = lbasename (cc);
  const char *gcc = strstr (base, "gcc");
  if (!gcc)
    return "g++";
  char *cxx = xstrdup (cc);
  size_t at = (size_t) (gcc - cc);
  /* "gcc" and "g++" have the same length.  */
  memcpy (cxx + at, "g++", 3);
  return cxx;
}

/* Whether ARG names a C or C++ compiler rather than an input file: its
   base name is gcc, cc, g++ or c++, after a target prefix ending in '-'
   (x86_64-linux-gnu-gcc) and before a version suffix (gcc-12, g++-12.2);
   given with a directory, an executable file.  */
static int
is_compiler (const char *arg)
{
  const char *base = lbasename (arg);
  size_t n = strlen (base);
  size_t end = n;
  while (end > 0 && ((base[end - 1] >= '0' && base[end - 1] <= '9')
                     || base[end - 1] == '.'))
    end--;
  if (end < n && end > 0 && base[end - 1] == '-')
    end--;
  else
    end = n;
  static const char *const names[] = { "gcc", "g++", "cc", "c++", NULL };
  int named = 0;
  for (int i = 0; names[i] && !named; i++)
    {
      size_t len = strlen (names[i]);
      named = end >= len && !strncmp (base + end - len, names[i], len)
              && (end == len || base[end - len - 1] == '-');
    }
  if (!named)
    return 0;
  struct stat st;
  return base == arg
         || (stat (arg, &st) == 0 && S_ISREG (st.st_mode)
             && access (arg, X_OK) == 0);
}

static int
run (const char *cc, char **argv, int verbose)
{
  if (verbose)
    print_command (argv);
  int status = 0, err = 0;
  /* PEX_LAST: gcc writes to our standard output (ppgcc -E, -M, ...).  */
  const char *msg = pex_one (PEX_LAST | PEX_SEARCH, cc, argv, "ppgcc", NULL, NULL,
                             &status, &err);
  if (msg)
    {
      fprintf (stderr, "ppgcc: error: cannot run %s: %s%s%s\n", cc, msg,
               err ? ": " : "", err ? xstrerror (err) : "");
      return 1;
    }
  if (WIFSIGNALED (status))
    {
      fprintf (stderr, "ppgcc: error: %s terminated by signal %d (%s)\n",
               cc, WTERMSIG (status), strsignal (WTERMSIG (status)));
      return 128 + WTERMSIG (status);
    }
  return WEXITSTATUS (status);
}

/* Whether the directory DIR holds a .ppd file, itself or below it
   (symbolic links not followed, as the plugin's search does not).  */
static int
holds_profile (const char *dir)
{
  DIR *d = opendir (dir);
  if (!d)
    return 0;
  int found = 0;
  struct dirent *e;
  while (!found && (e = readdir (d)))
    {
      if (!strcmp (e->d_name, ".") || !strcmp (e->d_name, ".."))
        continue;
      char *path = join (dir, e->d_name);
      struct stat st;
      size_t len = strlen (e->d_name);
      if (lstat (path, &st) == 0 && S_ISDIR (st.st_mode))
        found = holds_profile (path);
      else if (len > 4 && !strcmp (e->d_name + len - 4, ".ppd"))
        found = 1;
      free (path);
    }
  closedir (d);
  return found;
}

/* After a -fuse-path-profile link: each object compiled with it left one
   byte in the output's .pp_use section (1: it had its profile, 0: none,
   plugin/ppgcc-plugin.cc).  When most had none, say so once, with the
   count and the reason: a note per object goes unseen in a build's
   output.  With -fuse-path-profile=DIR the reason is that the training
   runs did not run the program (a project's test programs the suite did
   not run, measured on four projects), or, when DIR holds no profile at
   all, that they wrote their profiles elsewhere.  For a DIR that is not
   there main has printed the command's one warning before the link.
   Without DIR the profiles were looked for beside the objects, where a
   make clean that deletes them (libtool's, in .libs) is the other
   reason.  */
static void
count_unprofiled (const ppgcc_cmdline *cl)
{
  const char *out = "a.out";
  for (int i = 0; i + 1 < cl->npass; i++)
    if (!strcmp (cl->pass[i], "-o"))
      out = cl->pass[i + 1];
  size_t len = 0;
  unsigned char *use = pp_elf_read_section (out, ".pp_use", &len);
  size_t none = 0;
  for (size_t i = 0; i < len; i++)
    none += use[i] == 0;
  int have = use != NULL;
  free (use);
  if (!have || none * 2 <= len)
    return;
  char which[64];
  if (none == len && len == 1)
    snprintf (which, sizeof which, "its object");
  else if (none == len)
    snprintf (which, sizeof which, "any of its %zu objects", len);
  else
    snprintf (which, sizeof which, "%zu of its %zu objects", none, len);
  const char *them = none == 1 ? "it" : "them";
  const char *dir = cl->use_path && *cl->use_path ? cl->use_path : NULL;
  struct stat st;
  if (dir && stat (dir, &st) < 0)
    return;
  if (dir && S_ISDIR (st.st_mode) && !holds_profile (dir))
    fprintf (stderr, "ppgcc: warning: %s: no path profile for %s: %s holds "
             "no profile at all (training runs write theirs there when run "
             "with PPGCC_PREFIX=%s)\n", out, which, dir, dir);
  else if (dir)
    fprintf (stderr, "ppgcc: warning: %s: no path profile %s %s for %s: "
             "the training runs did not run %s\n", out,
             S_ISDIR (st.st_mode) ? "under" : "in", dir, which, them);
  else
    fprintf (stderr, "ppgcc: warning: %s: no path profile beside %s: the "
             "training runs did not run %s, or a make clean deleted %s "
             "(libtool's does, in .libs: train with PPGCC_PREFIX=DIR, then "
             "build with -fuse-path-profile=DIR)\n", out, which, them,
             none == 1 ? "its profile" : "their profiles");
}

int
main (int argc, char **argv)
{
  expandargv (&argc, &argv);
  /* Called as ppg++ (a link to ppgcc): the same driver for g++.  */
  const char *self = lbasename (argv[0]);
  size_t self_len = strlen (self);
  int cxx = self_len >= 2 && strcmp (self + self_len - 2, "++") == 0;
  const char *cc = getenv (cxx ? "PPGCC_CXX" : "PPGCC_CC");
  if (!cc || !*cc)
    cc = cxx ? cxx_of (PPGCC_TARGET_CC) : PPGCC_TARGET_CC;
  /* `ppgcc gcc ARGS...`: ppgcc as a compiler launcher (CMake's
     CMAKE_C_COMPILER_LAUNCHER and CMAKE_C_LINKER_LAUNCHER, as ccache is
     used): the first argument is the compiler to run.  */
  if (argc > 1 && is_compiler (argv[1]))
    {
      cc = argv[1];
      argv[1] = argv[0];
      argv++;
      argc--;
    }

  ppgcc_cmdline cl;
  if (ppgcc_parse (argc, argv, getenv ("PPGCC_FLAGS"), &cl) < 0)
    return 1;
  if (cl.env_flags && cl.verbose)
    fprintf (stderr, "ppgcc: PPGCC_FLAGS=%s in place of the command's "
             "ppgcc options\n", cl.env_flags);
  if (cl.autoconf_probe && cl.verbose)
    fprintf (stderr, "ppgcc: an autoconf test program (conftest.*): "
             "compiled without profiling\n");
  char *dir = self_dir (argv[0]);
  char tried_plugin[4 * PATH_MAX], tried_rt[4 * PATH_MAX];

  if (cl.help)
    {
      ppgcc_print_help (stdout);
      return 0;
    }
  if (cl.version)
    {
      char *plugin = locate ("PPGCC_PLUGIN", "../plugin/.libs/ppgcc.so",
                             "ppgcc.so", dir, tried_plugin,
                             sizeof tried_plugin);
      /* gcc's own first: build systems read its first line.  */
      char *gcc_args[] = { (char *) cc, (char *) "--version", NULL };
      int rc = run (cc, gcc_args, 0);
      printf ("ppgcc %s: path profiling driver for %s (plugin built for GCC "
              "%s)\nplugin: %s\n",
              PACKAGE_VERSION, cc, PPGCC_TARGET_VERSION,
              plugin ? plugin : "(not found)");
      return rc;
    }

  int instrument = cl.mode != NULL || cl.use_profile;
  char *plugin = NULL, *runtime = NULL;
  if (instrument)
    {
      char *version = gcc_version (cc);
      if (!version || strcmp (version, PPGCC_TARGET_VERSION) != 0)
        {
          fprintf (stderr,
                   "ppgcc: error: %s is GCC %s but the ppgcc plugin was built "
                   "for GCC %s; use that gcc (PPGCC_CC) or rebuild ppgcc with "
                   "PPGCC_TARGET_CC=%s\n",
                   cc, version ? version : "(unknown version)",
                   PPGCC_TARGET_VERSION, cc);
          return 1;
        }
      free (version);
      plugin = locate ("PPGCC_PLUGIN", "../plugin/.libs/ppgcc.so", "ppgcc.so",
                       dir, tried_plugin, sizeof tried_plugin);
      if (!plugin)
        {
          fprintf (stderr, "ppgcc: error: cannot find the plugin ppgcc.so "
                   "(tried %s)\n", tried_plugin);
          return 1;
        }
    }
  if (cl.mode && cl.links)
    {
      runtime = locate ("PPGCC_RUNTIME", "../runtime/libpprt.a", "libpprt.a",
                        dir, tried_rt, sizeof tried_rt);
      if (!runtime)
        {
          fprintf (stderr, "ppgcc: error: cannot find the runtime libpprt.a "
                   "(tried %s)\n", tried_rt);
          return 1;
        }
    }
  /* ccache (driver/ccache.c): after ppgcc, told what it cannot see.  */
  const char *ccache = cl.links ? NULL : ppgcc_ccache_program ();
  if (plugin && ppgcc_under_ccache () && cl.use_profile)
    {
      fprintf (stderr, "ppgcc: error: ccache runs ppgcc and cannot see the "
               "path profile, so it would serve objects of an older one: "
               "put ccache after ppgcc (PPGCC_CCACHE=ccache CC=ppgcc)\n");
      return 1;
    }
  /* ccache hashes the command, not PPGCC_FLAGS: it would serve an
     object built in another mode.  */
  if (plugin && ppgcc_under_ccache () && cl.env_flags)
    {
      fprintf (stderr, "ppgcc: error: ccache runs ppgcc and cannot see "
               "PPGCC_FLAGS=%s, so it would serve objects built without it: "
               "put ccache after ppgcc (PPGCC_CCACHE=ccache CC=ppgcc)\n",
               cl.env_flags);
      return 1;
    }
  if (plugin && !cl.links && (ccache || ppgcc_cc_is_ccache (cc)))
    ppgcc_ccache_prepare (&cl, plugin);
  char **args = ppgcc_gcc_argv (&cl, cc, plugin, runtime);
  if (ccache)
    {
      int n = 0;
      while (args[n])
        n++;
      char **with = XNEWVEC (char *, n + 2);
      with[0] = (char *) ccache;
      memcpy (with + 1, args, (n + 1) * sizeof *args);
      args = with;
      cc = ccache;
    }
  /* -fuse-path-profile=PATH that is not there: one line for the command
     (the plugin then notes nothing per object, nor the link's count).  */
  struct stat st;
  if (cl.use_profile && cl.use_path && *cl.use_path
      && stat (cl.use_path, &st) < 0)
    fprintf (stderr, "ppgcc: warning: -fuse-path-profile=%s: %s, so no path "
             "profile is used (training runs write theirs there when run "
             "with PPGCC_PREFIX=%s)\n", cl.use_path, xstrerror (errno),
             cl.use_path);
  int rc = run (cc, args, cl.verbose);
  if (rc == 0 && cl.use_profile && cl.links)
    count_unprofiled (&cl);
  return rc;
}
