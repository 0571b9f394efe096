/* The perf events ppgcc knows by name: each name's perf_event_attr type
   and config.  One table for the runtime's metrics (runtime/metric.c),
   the sampler (runtime/sample/config.c) and `ppprof record -e`
   (tools/record.c).  Static, in a header: each file that includes it
   has its own copy and gains no symbol (the runtime defines only __pp_
   ones).  */
#ifndef PP_PERF_EVENTS_H
#define PP_PERF_EVENTS_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const struct pp_perf_event
{
  const char *name;
  uint32_t type;   /* perf_event_attr.type */
  uint64_t config; /* perf_event_attr.config */
} pp_perf_events[] = {
  { "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
  { "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
  { "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
  { "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
  { "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
};

/* The event called NAME; NULL when there is none.  */
static inline const struct pp_perf_event *
pp_perf_event_named (const char *name)
{
  for (size_t i = 0; i < sizeof pp_perf_events / sizeof *pp_perf_events; i++)
    if (!strcmp (name, pp_perf_events[i].name))
      return &pp_perf_events[i];
  return NULL;
}

#endif
