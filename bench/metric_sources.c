/* The cost of one reading of each metric source the runtime may use
   (runtime/metric.c, doc/metrics.md): rdtsc, clock_gettime through the
   vDSO, the thread CPU clock, read() of a perf software event
   (task-clock), and, where the machine has a PMU, read() and rdpmc of
   the cycle counter.  Nanoseconds per reading, the best of 5 rounds of
   N readings.  Usage: metric_sources [N]  */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

static volatile uint64_t sink;
static int fd_sw = -1, fd_hw = -1;
static struct perf_event_mmap_page *page_hw;

static double
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int
perf_open (uint32_t type, uint64_t config)
{
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = type;
  a.config = config;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  return (int) syscall (SYS_perf_event_open, &a, 0, -1, -1, 0);
}

#ifdef HAVE_TSC
static void
r_tsc (void)
{
  sink += __rdtsc ();
}

static void
r_rdpmc (void)
{
  struct perf_event_mmap_page *pc = page_hw;
  uint32_t seq;
  uint64_t count;
  do
    {
      seq = pc->lock;
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      count = pc->offset + __rdpmc ((int) pc->index - 1);
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
    }
  while (pc->lock != seq);
  sink += count;
}
#endif

static void
r_mono (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  sink += (uint64_t) ts.tv_nsec;
}

static void
r_thread (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  sink += (uint64_t) ts.tv_nsec;
}

static void
r_read_sw (void)
{
  uint64_t v;
  if (read (fd_sw, &v, 8) == 8)
    sink += v;
}

static void
r_read_hw (void)
{
  uint64_t v;
  if (read (fd_hw, &v, 8) == 8)
    sink += v;
}

static void
measure (const char *name, void (*fn) (void), long n)
{
  double best = -1;
  for (int r = 0; r < 5; r++)
    {
      double t0 = now_ns ();
      for (long i = 0; i < n; i++)
        fn ();
      double d = (now_ns () - t0) / n;
      if (best < 0 || d < best)
        best = d;
    }
  printf ("%-36s %8.1f ns\n", name, best);
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000000;
#ifdef HAVE_TSC
  measure ("rdtsc", r_tsc, n);
#endif
  measure ("clock_gettime(CLOCK_MONOTONIC)", r_mono, n);
  measure ("clock_gettime(CLOCK_THREAD_CPUTIME_ID)", r_thread, n / 4);
  fd_sw = perf_open (PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
  if (fd_sw >= 0)
    measure ("read() perf task-clock", r_read_sw, n / 4);
  else
    printf ("%-36s unavailable\n", "read() perf task-clock");
  fd_hw = perf_open (PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
  if (fd_hw >= 0)
    {
      measure ("read() perf cycles", r_read_hw, n / 4);
      page_hw = mmap (NULL, (size_t) sysconf (_SC_PAGESIZE), PROT_READ,
                      MAP_SHARED, fd_hw, 0);
#ifdef HAVE_TSC
      if (page_hw != MAP_FAILED && page_hw->cap_user_rdpmc && page_hw->index)
        measure ("rdpmc cycles", r_rdpmc, n);
      else
#endif
        printf ("%-36s unavailable\n", "rdpmc cycles");
    }
  else
    printf ("%-36s unavailable (no PMU)\n", "perf cycles");
  return 0;
}
