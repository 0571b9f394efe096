/* "instructions" has no fallback: without a hardware counter (none on
   the machine these tests were written on) the profile says
   "unavailable" and the program printed one warning line; the other
   metric still measures.  Where a counter exists, its figures are
   there instead.  A second unit with another metric list: one warning
   naming both lists, and its accumulators left alone.  */
// expect: runs 1 kind cct metrics 2
// expect-re: ^metric instructions (unavailable|rdpmc|perf-read) events$
// expect: metric time clock_gettime ns
// expect: node main/f calls=3 rec=0 nctx=1 paths=0:3
// expect-re: ^pathm main/f 0 [0-9]+ [1-9][0-9]*$
// expect: node other calls=2 rec=0 nctx=1 paths=0:2
// expect: pathm other 0 0 0
// output-re: ^ppgcc profile: metric 'instructions': no hardware counter .*unavailable|^var counter=1$
// output-count: 1 metrics 'tsc' differ from the program's 'instructions,time'
// output-re: ^var other_acc=0 other_count=2$
#define NM 2
#define METRICS "instructions,time"
#include "hand.h"
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

DESC (main, 1);
DESC (f, 1);
UNIT (&main_desc, &f_desc)

/* The other unit, flat, one metric "tsc", registered after the first
   (as a dlopen'd object's would be).  */
static uint64_t other_counters[1], other_metrics[1];
__attribute__ ((section ("__pp_d_other"), used, aligned (8)))
static struct __pp_fn_desc other_desc = {
  .name = "other", .cfg_checksum = 7, .num_paths = 1,
  .counters = other_counters, .nmetrics = 1,
  .metrics = other_metrics,
};
static struct __pp_unit other_unit = {
  PP_ABI_VERSION, 1, PPD_PATH ".other.ppd", "other.c", &other_desc, NULL,
  "tsc", 0, 0, .fns_end = &other_desc + 1
};

static volatile int sink, three = 3;

NOINLINE static void
f (void)
{
  ENTER (f);
  for (int i = 0; i < 100000; i++)
    sink++;
  PATH (0);
  EXIT ();
}

NOINLINE static void
other (void)
{
  struct __pp_fn_desc *pp_d = &other_desc;
  uint64_t *pp_tok = __pp_enter (pp_d, __builtin_return_address (0),
                                 __builtin_frame_address (0));
  sink++;
  pp_d->counters[0]++;
  __pp_metric_path (pp_d->metrics, 1);
  __pp_exit (pp_tok);
}

int
main (void)
{
  __pp_register_unit (&other_unit);
  ENTER (main);
  for (int i = 0; i < three; i++)
    f ();
  other ();
  other ();
  PATH (0);
  EXIT ();
  /* Whether this machine has a hardware counter at all.  */
  struct perf_event_attr a;
  memset (&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_HARDWARE;
  a.config = PERF_COUNT_HW_INSTRUCTIONS;
  a.exclude_kernel = 1;
  int fd = (int) syscall (SYS_perf_event_open, &a, 0, -1, -1, 0);
  printf ("var counter=%d\n", fd >= 0);
  printf ("var other_acc=%llu other_count=%llu\n",
          (unsigned long long) other_metrics[0],
          (unsigned long long) other_counters[0]);
  return 0;
}
