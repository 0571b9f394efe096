/* Metrics along paths (PLDI'97 §3): the program's event list, where each
   event's figures come from, and reading them in a thread.  runtime/cct.c
   reads them at __pp_enter, __pp_exit and __pp_metric_path; doc/metrics.md
   describes the sources and their fallback order.  */
#ifndef PPRT_METRIC_H
#define PPRT_METRIC_H

#include <stdint.h>

#include "pp/ppc.h"

#define PPRT_HIDDEN __attribute__ ((visibility ("hidden")))

/* The program's metric count: 0 until a unit with metrics registers.  */
PPRT_HIDDEN extern uint32_t __pp_metric_n;

/* A thread's events: opened lazily, on the thread's first read.  */
struct pp_mthread
{
  uint32_t n;                /* events opened for (0: none yet) */
  int fd[PPC_MAX_METRICS];   /* perf events, or -1 */
  void *page[PPC_MAX_METRICS]; /* their first mmap'd page, or NULL */
};

/* LIST (a unit's -fprofile-paths-metric=, comma-separated) from the unit
   WHO: the first list registered becomes the program's, and gets its
   sources chosen and the probes' cost measured (calibrate, below).
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

/* The program's metrics for the profile header (name, source, unit,
   probe costs); returns their count.  */
PPRT_HIDDEN uint32_t __pp_metric_describe (ppc_metric *out);

/* The list as given ("cycles,time"), for messages; NULL without.  */
PPRT_HIDDEN const char *__pp_metric_list (void);

#endif
