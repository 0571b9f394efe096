/* The events behind -fprofile-paths-metric (PLDI'97 §3) and where their
   figures come from (doc/metrics.md).

   The first registered unit with metrics sets the program's list.  Each
   name gets a source once, at that registration, by trying them in order:
     cycles         hardware counter (rdpmc, else read()), then the TSC,
                    then clock_gettime (CLOCK_MONOTONIC)
     instructions, cache-misses, branch-misses, rXXXX (raw)
                    hardware counter only; else "unavailable" and one
                    warning line: never zeros passed off as figures
     task-clock     the perf software event (read()), then
                    clock_gettime (CLOCK_THREAD_CPUTIME_ID)
     tsc            rdtsc (x86), else clock_gettime
     time           clock_gettime (CLOCK_MONOTONIC, the vDSO)
   Perf events are per thread (pid 0, cpu -1), opened on a thread's first
   read, user space only unless the kernel refuses that and
   /proc/sys/kernel/perf_event_paranoid allows counting the kernel too.
   Then runtime/cct.c measures the probes' own cost (§3.2 perturbation)
   and gives it back (__pp_metric_costs).

   A forked child reopens its events (runtime/cct.c calls
   __pp_metric_thread_reopen from the fork handler).

   A leaf of the cct mode: cct.c uses this file, which knows nothing of
   the trees (metric.h says why the use goes that way).  */
#define _GNU_SOURCE
#include "metric.h"
#include "perf_events.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

enum kind
{
  K_UNAVAILABLE, /* reads 0; the profile says "unavailable" */
  K_PERF,        /* a perf event: rdpmc when the page allows, else read() */
  K_TSC,
  K_MONOTONIC,
  K_THREAD_CPU
};

struct metric
{
  char name[32];
  enum kind kind;
  uint32_t type;       /* perf_event_attr.type and .config (K_PERF) */
  uint64_t config;
  int exclude_kernel;
  const char *source;  /* ppc_metric.source */
  const char *unit;    /* ppc_metric.unit */
  double enter_exit_cost, path_cost;
};

uint32_t __pp_metric_n;
int __pp_metric_fast;
static struct metric metrics[PPC_MAX_METRICS];
static char *program_list;   /* as given */
static const char *program_who;
static int warned_thread_open;

/* ------------------------------------------------------------ reading */

static int
perf_open (const struct metric *m)
{
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = m->type;
  a.config = m->config;
  a.exclude_kernel = m->exclude_kernel;
  a.exclude_hv = 1;
  return (int) syscall (SYS_perf_event_open, &a, 0, -1, -1,
                        PERF_FLAG_FD_CLOEXEC);
}

/* The event's count through rdpmc, following the seqlock of
   perf_event_mmap_page (linux/perf_event.h): 0 when the page does not
   allow it now (index 0: the event is not on a counter).  */
static int
read_rdpmc (volatile struct perf_event_mmap_page *pc, uint64_t *out)
{
#if defined(__x86_64__) || defined(__i386__)
  uint32_t seq;
  uint64_t count;
  do
    {
      seq = pc->lock;
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      uint32_t idx = pc->index;
      if (!pc->cap_user_rdpmc || !idx)
        return 0;
      count = pc->offset;
      uint32_t width = pc->pmc_width;
      uint64_t pmc = __rdpmc ((int) idx - 1);
      if (width && width < 64)
        pmc = (uint64_t) ((int64_t) (pmc << (64 - width)) >> (64 - width));
      count += pmc;
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
    }
  while (pc->lock != seq);
  *out = count;
  return 1;
#else
  (void) pc;
  (void) out;
  return 0;
#endif
}

static uint64_t
clock_ns (clockid_t c)
{
  struct timespec ts;
  clock_gettime (c, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void
thread_open (struct pp_mthread *t)
{
  for (uint32_t m = 0; m < PPC_MAX_METRICS; m++)
    {
      t->fd[m] = -1;
      t->page[m] = NULL;
    }
  for (uint32_t m = 0; m < __pp_metric_n; m++)
    {
      if (metrics[m].kind != K_PERF)
        continue;
      t->fd[m] = perf_open (&metrics[m]);
      if (t->fd[m] < 0)
        {
          if (!__atomic_exchange_n (&warned_thread_open, 1, __ATOMIC_RELAXED))
            {
              static const char msg[] = "ppgcc profile: a thread could not "
                                        "open its perf events; its metric "
                                        "figures are zero\n";
              (void) !write (2, msg, sizeof msg - 1);
            }
          continue;
        }
      void *p = mmap (NULL, (size_t) sysconf (_SC_PAGESIZE), PROT_READ,
                      MAP_SHARED, t->fd[m], 0);
      t->page[m] = p == MAP_FAILED ? NULL : p;
    }
  t->n = __pp_metric_n;
}

void
__pp_metric_read (struct pp_mthread *t, uint64_t *now)
{
  if (t->n != __pp_metric_n)
    thread_open (t);
  for (uint32_t m = 0; m < t->n; m++)
    switch (metrics[m].kind)
      {
      case K_PERF:
        if (t->page[m] && read_rdpmc (t->page[m], &now[m]))
          break;
        if (t->fd[m] < 0 || read (t->fd[m], &now[m], 8) != 8)
          now[m] = 0;
        break;
      case K_TSC:
#ifdef HAVE_TSC
        now[m] = __rdtsc ();
        break;
#endif
      case K_MONOTONIC:
        now[m] = clock_ns (CLOCK_MONOTONIC);
        break;
      case K_THREAD_CPU:
        now[m] = clock_ns (CLOCK_THREAD_CPUTIME_ID);
        break;
      default:
        now[m] = 0;
      }
}

void
__pp_metric_thread_close (struct pp_mthread *t)
{
  for (uint32_t m = 0; m < t->n; m++)
    {
      if (t->page[m])
        munmap (t->page[m], (size_t) sysconf (_SC_PAGESIZE));
      if (t->fd[m] >= 0)
        close (t->fd[m]);
      t->page[m] = NULL;
      t->fd[m] = -1;
    }
  t->n = 0;
}

void
__pp_metric_thread_reopen (struct pp_mthread *t)
{
  __pp_metric_thread_close (t);
  if (__pp_metric_n)
    thread_open (t);
}

/* ------------------------------------------------------ choosing sources */

static int
paranoid_level (void)
{
  int fd = open ("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
  char buf[16] = "";
  if (fd >= 0)
    {
      (void) !read (fd, buf, sizeof buf - 1);
      close (fd);
    }
  return *buf ? atoi (buf) : 2;
}

/* Tries M as a perf event (M->type, M->config): user space only, then,
   if the kernel refused that and may allow it, the kernel counted too.
   Sets M's source from what the event's page offers.  1 on success.  */
static int
try_perf (struct metric *m, int *err)
{
  m->exclude_kernel = 1;
  int fd = perf_open (m);
  if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EOPNOTSUPP
                 || errno == EINVAL)
      && (paranoid_level () <= 1 || geteuid () == 0))
    {
      m->exclude_kernel = 0;
      fd = perf_open (m);
    }
  if (fd < 0)
    {
      *err = errno;
      return 0;
    }
  m->kind = K_PERF;
  m->source = "perf-read";
  if (m->type == PERF_TYPE_SOFTWARE)
    m->source = "perf-sw:task-clock";
  long pagesize = sysconf (_SC_PAGESIZE);
  void *p = mmap (NULL, (size_t) pagesize, PROT_READ, MAP_SHARED, fd, 0);
  if (p != MAP_FAILED)
    {
      uint64_t v;
      if (read_rdpmc (p, &v))
        m->source = "rdpmc";
      munmap (p, (size_t) pagesize);
    }
  close (fd);
  return 1;
}

/* The TSC, unless the process made rdtsc trap (PR_SET_TSC), else
   clock_gettime.  */
static void
use_tsc_or_clock (struct metric *m)
{
#ifdef HAVE_TSC
  int mode = PR_TSC_ENABLE;
  if (prctl (PR_GET_TSC, &mode, 0, 0, 0) != 0 || mode == PR_TSC_ENABLE)
    {
      m->kind = K_TSC;
      m->source = "tsc";
      m->unit = "ticks";
      return;
    }
#endif
  m->kind = K_MONOTONIC;
  m->source = "clock_gettime";
  m->unit = "ns";
}

static void
choose_source (struct metric *m)
{
  int err = 0;
  m->kind = K_UNAVAILABLE;
  m->source = "unavailable";
  m->unit = "events";
  if (!strcmp (m->name, "time"))
    {
      m->kind = K_MONOTONIC;
      m->source = "clock_gettime";
      m->unit = "ns";
      return;
    }
  if (!strcmp (m->name, "tsc"))
    {
      use_tsc_or_clock (m);
      return;
    }
  const struct pp_perf_event *e = pp_perf_event_named (m->name);
  if (e && e->type == PERF_TYPE_SOFTWARE) /* task-clock */
    {
      m->type = e->type;
      m->config = e->config;
      m->unit = "ns";
      if (!try_perf (m, &err))
        {
          m->kind = K_THREAD_CPU;
          m->source = "clock_gettime:thread-cputime";
        }
      return;
    }
  if (e) /* a hardware counter */
    {
      m->type = e->type;
      m->config = e->config;
      if (try_perf (m, &err))
        return;
      if (e->config == PERF_COUNT_HW_CPU_CYCLES)
        {
          /* cycles: the TSC counts reference cycles at a constant
             rate, at the cost of an rdtsc (doc/metrics.md).  */
          use_tsc_or_clock (m);
          return;
        }
      fprintf (stderr, "ppgcc profile: metric '%s': no hardware counter "
               "(perf_event_open: %s); recorded as unavailable, without "
               "figures\n", m->name, strerror (err));
      return;
    }
  char *end;
  if (m->name[0] == 'r' && m->name[1]
      && (m->config = strtoull (m->name + 1, &end, 16), !*end))
    {
      m->type = PERF_TYPE_RAW;
      if (try_perf (m, &err))
        return;
      fprintf (stderr, "ppgcc profile: metric '%s': raw event not available "
               "(perf_event_open: %s); recorded as unavailable, without "
               "figures\n", m->name, strerror (err));
      return;
    }
  fprintf (stderr, "ppgcc profile: metric '%s': unknown event; recorded as "
           "unavailable, without figures\n", m->name);
}

/* ------------------------------------------------------------- the list */

/* LIST without blanks, NUL-separated names in OUT; their count.  */
static uint32_t
split (const char *list, char out[][32], uint32_t max, int *too_many)
{
  uint32_t n = 0;
  *too_many = 0;
  for (const char *p = list; *p;)
    {
      while (*p == ' ' || *p == ',')
        p++;
      if (!*p)
        break;
      size_t len = strcspn (p, ", ");
      if (n == max)
        {
          *too_many = 1;
          break;
        }
      snprintf (out[n++], 32, "%.*s", (int) (len < 31 ? len : 31), p);
      p += len;
    }
  return n;
}

static int
same_list (const char *a, const char *b)
{
  char x[PPC_MAX_METRICS][32], y[PPC_MAX_METRICS][32];
  int t;
  uint32_t n = split (a, x, PPC_MAX_METRICS, &t);
  if (split (b, y, PPC_MAX_METRICS, &t) != n)
    return 0;
  for (uint32_t i = 0; i < n; i++)
    if (strcmp (x[i], y[i]))
      return 0;
  return 1;
}

int
__pp_metric_register (const char *list, const char *who)
{
  if (program_list)
    {
      if (same_list (program_list, list))
        return 1;
      fprintf (stderr, "ppgcc profile: %s: metrics '%s' differ from the "
               "program's '%s' (%s); its metrics are not recorded\n",
               who ? who : "?", list, program_list,
               program_who ? program_who : "?");
      return 0;
    }
  program_list = strdup (list);
  program_who = who;
  char names[PPC_MAX_METRICS][32];
  int too_many;
  uint32_t n = split (list, names, PPC_MAX_METRICS, &too_many);
  if (too_many)
    fprintf (stderr, "ppgcc profile: metrics '%s': only the first %d are "
             "recorded\n", list, PPC_MAX_METRICS);
  for (uint32_t m = 0; m < n; m++)
    {
      memcpy (metrics[m].name, names[m], 32);
      choose_source (&metrics[m]);
    }
  /* Instrumented code reads the TSC itself at a path end when it is the
     program's one metric (rt_abi.h, __pp_metric_fast).  */
  __pp_metric_fast = n == 1 && metrics[0].kind == K_TSC;
  __atomic_store_n (&__pp_metric_n, n, __ATOMIC_RELEASE);
  return 1;
}

void
__pp_metric_costs (const double *enter_exit, const double *path)
{
  for (uint32_t m = 0; m < __pp_metric_n; m++)
    {
      metrics[m].enter_exit_cost = enter_exit[m];
      metrics[m].path_cost = path[m];
    }
}

uint32_t
__pp_metric_describe (ppc_metric *out)
{
  for (uint32_t m = 0; m < __pp_metric_n; m++)
    {
      out[m].name = metrics[m].name;
      out[m].source = (char *) metrics[m].source;
      out[m].unit = (char *) metrics[m].unit;
      out[m].enter_exit_cost = metrics[m].enter_exit_cost;
      out[m].path_cost = metrics[m].path_cost;
    }
  return __pp_metric_n;
}

const char *
__pp_metric_list (void)
{
  return program_list;
}
