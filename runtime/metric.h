/* Metrics along paths (PLDI'97 §3): the program's event list, where each
   event's figures come from, and reading them in a thread.  runtime/cct.c
   reads them at __pp_enter, __pp_exit and __pp_metric_path; doc/metrics.md
   describes the sources and their fallback order.

   cct.c calls metric.c, never the reverse: metric.c is a leaf that knows
   nothing of the trees.  The accounting along paths (what a path and its
   callees took: marks, exclusive totals, §3.1) is the shadow
   stack's, and stays with it in cct.c, as does the probes' calibration,
   which runs the probes.  Not a hook installed by metric.c: metric.o must
   come out of libpprt.a with cct.o in any case, by a reference from it,
   since the probes' ABI gives metric.c no symbol of its own that every
   metrics build refers to (a unit with a metric list whose functions all
   count by hash or PPP calls no __pp_metric_path: only array-mode
   functions get metrics, plugin/instrument.cc; yet its contexts get
   exclusive metric totals from __pp_enter and __pp_exit's readings).  */
#ifndef PPRT_METRIC_H
#define PPRT_METRIC_H

#include <stdint.h>

#include "pp/ppc.h"

#define PPRT_HIDDEN __attribute__ ((visibility ("hidden")))

/* The program's metric count: 0 until a unit with metrics registers.  */
PPRT_HIDDEN extern uint32_t __pp_metric_n;
/* 1 when that is one metric read by rdtsc (rt_abi.h: the probes' inline
   path end, and the entry and exit fast paths, read it themselves).  */
PPRT_HIDDEN extern int __pp_metric_fast;

/* The TSC, where __pp_metric_fast can be 1.  */
static inline uint64_t
pp_tsc (void)
{
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_ia32_rdtsc ();
#else
  return 0;
#endif
}

/* A thread's events: opened lazily, on the thread's first read.  */
struct pp_mthread
{
  uint32_t n;                /* events opened for (0: none yet) */
  int fd[PPC_MAX_METRICS];   /* perf events, or -1 */
  void *page[PPC_MAX_METRICS]; /* their first mmap'd page, or NULL */
};

/* LIST (a unit's -fprofile-paths-metric=, comma-separated) from the unit
   WHO: the first list registered becomes the program's, and gets its
   sources chosen (then cct.c measures the probes' cost).
   Returns 1 when LIST is the program's list, 0 when it differs (one
   warning line; that unit's metrics are not recorded).  */
PPRT_HIDDEN int __pp_metric_register (const char *list, const char *who);

/* NOW[m] for every program metric m, in this thread (opening its events
   on first use).  */
PPRT_HIDDEN void __pp_metric_read (struct pp_mthread *t, uint64_t *now);

/* Closes T's events (another thread's, after fork) / opens them afresh
   (the forking thread, in the child).  */
PPRT_HIDDEN void __pp_metric_thread_close (struct pp_mthread *t);
PPRT_HIDDEN void __pp_metric_thread_reopen (struct pp_mthread *t);

/* What one __pp_enter/__pp_exit pair and one __pp_metric_path add to
   each program metric, as cct.c measured them ([__pp_metric_n] each).  */
PPRT_HIDDEN void __pp_metric_costs (const double *enter_exit,
                                    const double *path);

/* The program's metrics for the profile header (name, source, unit,
   probe costs); returns their count.  */
PPRT_HIDDEN uint32_t __pp_metric_describe (ppc_metric *out);

/* The list as given ("cycles,time"), for messages; NULL without.  */
PPRT_HIDDEN const char *__pp_metric_list (void);

#endif
