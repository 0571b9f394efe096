/* ppprof record [-F HZ] [-e EVENT] [-o FILE.ppc] [--] PROG ARGS...: runs
   any program (built by ppgcc or not) with the sampling profiler
   preloaded (libppsample.so, runtime/sample/: csprof §2, "we instruct
   the loader to pre-load our profiling library"), and says where its
   calling context tree went.  The program's exit status is passed
   through (a signal's death as 128 + the signal).

   The library: $PPGCC_SAMPLE_LIB, else the installed one in
   $(pkglibdir).  Events: cpu-clock (a CPU-time timer per thread; no
   PMU needed), task-clock (perf_event's software clock), and the
   hardware counters cycles, instructions, branch-misses, cache-misses
   where the kernel offers them: one that is not is said in one line and
   the timer used instead.  */
#define _GNU_SOURCE
#include "config.h"

#include "commands.h"
#include "context.h"
#include "pp/profile_db.h"
#include "pp/sat.h"
#include "perf_events.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PPGCC_PKGLIBDIR
#define PPGCC_PKGLIBDIR "/usr/local/lib/ppgcc"
#endif

extern char **environ;

static void
record_usage (FILE *out)
{
  fputs ("usage: ppprof record [-F HZ] [-e EVENT] [-o FILE.ppc] [--no-calls] "
         "[--] PROG ARGS...\n"
         "  -F HZ     samples per second of the event (default 200)\n"
         "  -e EVENT  cpu-clock (default: CPU-time timer per thread), "
         "task-clock,\n"
         "            cycles, instructions, branch-misses, cache-misses\n"
         "  -o FILE   the profile (default: PROG's name + .sampled.ppc "
         "here)\n"
         "  --no-calls  count no calls: without csprof's trampoline, "
         "which\n"
         "            counts the calls that span a sample (the default)\n",
         out);
}

/* Whether this thread may count EVENT (perf_event_open, user mode): 0,
   or -1 with errno.  */
static int
perf_available (int type, uint64_t config)
{
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = (uint32_t) type;
  a.config = config;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  a.disabled = 1;
  int fd = (int) syscall (SYS_perf_event_open, &a, 0, -1, -1, 0);
  if (fd < 0)
    return -1;
  close (fd);
  return 0;
}

/* NAME=VALUE into ENV (room for it), replacing NAME's entry.  */
static void
set_env (char **env, int *n, char *entry)
{
  size_t len = strcspn (entry, "=") + 1;
  for (int i = 0; i < *n; i++)
    if (!strncmp (env[i], entry, len))
      {
        env[i] = entry;
        return;
      }
  env[(*n)++] = entry;
  env[*n] = NULL;
}

/* The samples lost, by reason: the sampler's pseudo-functions
   (runtime/sample/dump.c), each with what it means.  */
static const struct
{
  const char *fn, *why;
} lost_reasons[] = {
  { "[lost: signal held]", "while the program held the sampler's signal" },
  { "[lost: handler busy]", "while the sampler's handler was busy" },
  { "[lost: thread not set up]", "in threads the sampler had not set up" },
  { "[node pool full]", "without their context (node pool full: "
                        "PPGCC_SAMPLE_NODES)" },
};
#define NLOST (sizeof lost_reasons / sizeof *lost_reasons)

/* The samples the profile at PATH holds, and of them the ones without a
   whole call path; the ones lost, by reason (LOST[NLOST]: a
   "[lost: ...]" node holds no samples taken, so they are not in
   *SAMPLES; "[node pool full]" does); -1 when it cannot be read.  */
static int
summarize (const char *path, uint64_t *samples, uint64_t *unsafe,
           uint64_t *partial, uint64_t *runs, uint64_t *lost)
{
  ppc_profile p;
  const char *why = NULL;
  if (ppc_read_file (path, &p, &why) != 0)
    return -1;
  *samples = *unsafe = *partial = 0;
  memset (lost, 0, NLOST * sizeof *lost);
  *runs = p.runs;
  for (uint32_t i = 1; i < p.nnodes && p.nmetrics > 0; i++)
    {
      uint64_t v = p.nodes[i].excl[0];
      const char *name = p.nodes[i].fn < p.nfns ? p.fns[p.nodes[i].fn].name
                                                : "";
      for (size_t k = 0; k < NLOST; k++)
        if (!strcmp (name, lost_reasons[k].fn))
          lost[k] += v;
      if (!strncmp (name, "[lost: ", 7))
        continue;
      *samples += v;
      if (!strcmp (name, "[unsafe sample]"))
        *unsafe += v;
      else if (!strcmp (name, "[partial unwind]"))
        *partial += v;
    }
  /* below "[partial unwind]": partial too */
  for (uint32_t i = 1; i < p.nnodes && p.nmetrics > 0; i++)
    {
      uint32_t up = i;
      while (up && p.nodes[up].parent && p.nodes[up].parent != UINT32_MAX)
        up = p.nodes[up].parent;
      if (up != i && !strcmp (p.fns[p.nodes[up].fn].name, "[partial unwind]"))
        *partial += p.nodes[i].excl[0];
    }
  ppc_free (&p);
  return 0;
}

/* What was lost (LOST, by reason), never silently: one line, when
   anything was.  */
static void
print_lost (const char *file, const uint64_t *lost)
{
  uint64_t n = 0;
  for (size_t k = 0; k < NLOST; k++)
    n = pp_add_sat (n, lost[k]);
  if (!n)
    return;
  fprintf (stderr, "ppprof record: %s: %" PRIu64 " sample%s lost:", file, n,
           n == 1 ? "" : "s");
  const char *sep = " ";
  for (size_t k = 0; k < NLOST; k++)
    if (lost[k])
      {
        fprintf (stderr, "%s%" PRIu64 " %s", sep, lost[k],
                 lost_reasons[k].why);
        sep = ", ";
      }
  fputc ('\n', stderr);
}

/* PROG as execvp finds it, absolute (realpath), malloc'd; NULL when it
   is not there.  */
static char *
find_program (const char *prog)
{
  if (strchr (prog, '/'))
    return realpath (prog, NULL);
  const char *path = getenv ("PATH");
  char buf[4096];
  for (const char *p = path ? path : "/usr/bin:/bin"; p && *p;)
    {
      const char *colon = strchr (p, ':');
      size_t n = colon ? (size_t) (colon - p) : strlen (p);
      snprintf (buf, sizeof buf, "%.*s/%s", (int) n, n ? p : ".", prog);
      if (access (buf, X_OK) == 0)
        return realpath (buf, NULL);
      p = colon ? colon + 1 : NULL;
    }
  return NULL;
}

/* With a profile database (PPGCC_PROFILE_DB, no -o): the current epoch's
   <build id of PROG>/<its name>.sampled.ppc (doc/profile-db.md), which
   the runs of that build merge into.  The epoch is the one current when
   the run starts.  malloc'd, or NULL after one line.  */
static char *
db_profile_file (const char *db, const char *prog)
{
  char *exe = find_program (prog);
  char *id = exe ? pp_file_build_id (exe) : NULL;
  const char *why = "out of memory";
  char *file = NULL, *epoch = NULL, *edir = NULL, *idir = NULL;
  char key[140];
  if (!exe || !id)
    {
      fprintf (stderr, "ppprof record: %s: not found\n", prog);
      goto out;
    }
  if (*id)
    snprintf (key, sizeof key, "%s", id);
  else
    {
      /* as the runtime names an image without a build id */
      uint32_t h = 2166136261u;
      for (const char *c = exe; *c; c++)
        h = (h ^ (unsigned char) *c) * 16777619u;
      snprintf (key, sizeof key, "path-%08x", h);
    }
  int fd = -1;
  if (pdb_open_root (db, 1, &why) < 0
      || (fd = pdb_lock_epochs (db, 0)) < 0
      || pdb_current_epoch (db, fd, &epoch, &why) < 0)
    {
      if (fd < 0 && why && !strcmp (why, "out of memory"))
        why = strerror (errno);
      fprintf (stderr, "ppprof record: PPGCC_PROFILE_DB=%s: %s\n", db, why);
      pdb_unlock (fd);
      goto out;
    }
  edir = pdb_epoch_dir (db, epoch);
  idir = edir ? pdb_object_dir (edir, key, exe, NULL) : NULL;
  pdb_unlock (fd);
  const char *base = strrchr (exe, '/');
  if (!idir || asprintf (&file, "%s/%s.sampled.ppc", idir, base + 1) < 0)
    {
      fprintf (stderr, "ppprof record: PPGCC_PROFILE_DB=%s: %s\n", db,
               idir ? "out of memory" : strerror (errno));
      file = NULL;
    }
out:
  free (exe);
  free (id);
  free (epoch);
  free (edir);
  free (idir);
  return file;
}

/* Whether the sampler can write FILE: its directory must take new files
   (FILE.lock, the temporary renamed over FILE).  Checked before the run,
   which is otherwise spent for nothing.  0, or -1 after one line.  */
static int
check_writable (const char *file, const char *prog)
{
  const char *slash = strrchr (file, '/');
  size_t n = !slash ? 0 : slash == file ? 1 : (size_t) (slash - file);
  char *dir = n ? strndup (file, n) : strdup (".");
  if (!dir)
    {
      fprintf (stderr, "ppprof record: out of memory\n");
      return -1;
    }
  int rc = faccessat (AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS);
  if (rc < 0)
    fprintf (stderr, "ppprof record: %s: cannot write the profile there "
             "(%s: %s); %s not run\n", file, dir, strerror (errno), prog);
  free (dir);
  return rc;
}

int
ppprof_record (int argc, char **argv)
{
  long hz = 200;
  const char *event = "cpu-clock", *out = NULL;
  int calls = 1;
  int i = 0;
  for (; i < argc; i++)
    {
      const char *a = argv[i];
      if (!strcmp (a, "--"))
        {
          i++;
          break;
        }
      if (!strcmp (a, "-h") || !strcmp (a, "--help"))
        {
          record_usage (stdout);
          return 0;
        }
      if (!strcmp (a, "--calls") || !strcmp (a, "--no-calls"))
        {
          calls = a[2] == 'c'; /* --calls: the default, still taken */
          continue;
        }
      if ((!strcmp (a, "-F") || !strcmp (a, "-e") || !strcmp (a, "-o"))
          && i + 1 >= argc)
        {
          fprintf (stderr, "ppprof record: %s needs a value\n", a);
          return 1;
        }
      if (!strcmp (a, "-F"))
        {
          char *end;
          const char *v = argv[++i];
          errno = 0;
          hz = strtol (v, &end, 10);
          if (*end || !*v || errno || hz < 1 || hz > 100000)
            {
              fprintf (stderr, "ppprof record: -F %s: not a rate from 1 to "
                       "100000 samples per second\n", v);
              return 1;
            }
        }
      else if (!strcmp (a, "-e"))
        event = argv[++i];
      else if (!strcmp (a, "-o"))
        out = argv[++i];
      else if (a[0] == '-')
        {
          fprintf (stderr, "ppprof record: unknown option '%s'\n", a);
          record_usage (stderr);
          return 1;
        }
      else
        break;
    }
  if (i >= argc)
    {
      fprintf (stderr, "ppprof record: no program to run\n");
      record_usage (stderr);
      return 1;
    }
  char **prog = argv + i;

  /* cpu-clock, the timer, is no perf event: PERF stays NULL.  */
  const struct pp_perf_event *perf = NULL;
  if (strcmp (event, "cpu-clock") != 0
      && !(perf = pp_perf_event_named (event)))
    {
      fprintf (stderr, "ppprof record: -e %s: unknown event (cpu-clock, "
               "task-clock, cycles, instructions, branch-misses, "
               "cache-misses)\n", event);
      return 1;
    }
  if (perf && perf_available ((int) perf->type, perf->config) < 0)
    {
      fprintf (stderr, "ppprof record: event '%s' is not available here "
               "(perf_event_open: %s%s); sampling the CPU-time timer "
               "(cpu-clock) instead\n", event, strerror (errno),
               errno == ENOENT || errno == EOPNOTSUPP
                   ? ": no such hardware counter" : "");
      event = "cpu-clock";
    }

  const char *lib = getenv ("PPGCC_SAMPLE_LIB");
  if (!lib || !*lib)
    lib = PPGCC_PKGLIBDIR "/libppsample.so";
  if (access (lib, R_OK) != 0)
    {
      fprintf (stderr, "ppprof record: %s: %s (the sampler; set "
               "PPGCC_SAMPLE_LIB to use another)\n", lib, strerror (errno));
      return 2;
    }

  /* the profile: absolute, so that a program that changes directory
     writes it here; an old one is replaced (a fresh profile per run),
     anything else is left alone */
  char *file = NULL;
  const char *db = getenv ("PPGCC_PROFILE_DB");
  int in_db = !out && db && *db;
  if (in_db)
    {
      file = db_profile_file (db, prog[0]);
      if (!file)
        return 2;
    }
  else if (!out)
    {
      const char *base = strrchr (prog[0], '/');
      base = base ? base + 1 : prog[0];
      if (asprintf (&file, "%s.sampled.ppc", base) < 0)
        file = NULL;
    }
  else
    file = strdup (out);
  char *abs = NULL;
  char cwd[4096];
  if (file && file[0] != '/' && getcwd (cwd, sizeof cwd))
    {
      if (asprintf (&abs, "%s/%s", cwd, file) < 0)
        abs = NULL;
      free (file);
      file = abs;
    }
  if (!file)
    {
      fprintf (stderr, "ppprof record: out of memory\n");
      return 2;
    }
  if (check_writable (file, prog[0]) < 0)
    {
      free (file);
      return 2;
    }
  struct stat st;
  if (!in_db && lstat (file, &st) == 0)
    {
      if (!S_ISREG (st.st_mode) || !pp_is_context_file (file))
        {
          fprintf (stderr, "ppprof record: %s: exists and is not a context "
                   "profile (.ppc); not replaced\n", file);
          free (file);
          return 2;
        }
      unlink (file);
    }

  /* the program's environment: ours with the sampler's settings */
  int n = 0;
  while (environ[n])
    n++;
  char **env = calloc ((size_t) n + 8, sizeof *env);
  char *preload = NULL, *e_file = NULL, *e_hz = NULL, *e_event = NULL;
  const char *old = getenv ("LD_PRELOAD");
  int ok = env != NULL;
  if (ok)
    {
      memcpy (env, environ, (size_t) n * sizeof *env);
      ok = (old && *old ? asprintf (&preload, "LD_PRELOAD=%s:%s", old, lib)
                        : asprintf (&preload, "LD_PRELOAD=%s", lib)) >= 0
           && asprintf (&e_file, "PPGCC_SAMPLE_FILE=%s", file) >= 0
           && asprintf (&e_hz, "PPGCC_SAMPLE_HZ=%ld", hz) >= 0
           && asprintf (&e_event, "PPGCC_SAMPLE_EVENT=%s",
                        event) >= 0;
    }
  int rc = 2;
  if (!ok)
    {
      fprintf (stderr, "ppprof record: out of memory\n");
      goto done;
    }
  set_env (env, &n, preload);
  set_env (env, &n, e_file);
  set_env (env, &n, e_hz);
  set_env (env, &n, e_event);
  static char calls_on[] = "PPGCC_SAMPLE_CALLS=1";
  static char calls_off[] = "PPGCC_SAMPLE_CALLS=0";
  set_env (env, &n, calls ? calls_on : calls_off);

  /* ^C and kill go to the program, which writes its profile; we wait */
  struct sigaction ign, old_int, old_term;
  memset (&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigaction (SIGINT, &ign, &old_int);
  sigaction (SIGTERM, &ign, &old_term);
  fflush (NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      sigaction (SIGINT, &old_int, NULL);
      sigaction (SIGTERM, &old_term, NULL);
      execvpe (prog[0], prog, env);
      fprintf (stderr, "ppprof record: cannot run %s: %s\n", prog[0],
               strerror (errno));
      _exit (127);
    }
  int status = 0;
  if (pid < 0)
    fprintf (stderr, "ppprof record: cannot start %s: %s\n", prog[0],
             strerror (errno));
  else
    while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
      ;
  sigaction (SIGINT, &old_int, NULL);
  sigaction (SIGTERM, &old_term, NULL);
  if (pid < 0)
    goto done;
  rc = WIFEXITED (status) ? WEXITSTATUS (status)
       : WIFSIGNALED (status) ? 128 + WTERMSIG (status) : 2;
  if (WIFEXITED (status) && WEXITSTATUS (status) == 127
      && access (file, F_OK) != 0)
    goto done; /* could not run it: said */
  uint64_t samples, unsafe, partial, runs, lost[NLOST];
  if (summarize (file, &samples, &unsafe, &partial, &runs, lost) < 0)
    fprintf (stderr, "ppprof record: %s wrote no profile (%s): statically "
             "linked, or it never ran long enough to exit normally?\n",
             prog[0], file);
  else
    {
      fprintf (stderr, "ppprof record: %s: %" PRIu64 " sample%s (%s at %ld "
               "Hz), %" PRIu64 " process%s; %" PRIu64 " unsafe, %" PRIu64
               " partial unwinds\n", file, samples, samples == 1 ? "" : "s",
               event, hz, runs, runs == 1 ? "" : "es", unsafe,
               partial);
      print_lost (file, lost);
    }
done:

  free (env);
  free (preload);
  free (e_file);
  free (e_hz);
  free (e_event);
  free (file);
  return rc;
}
