/* The sampler's settings, read once at start (init.c) from the
   environment `ppprof record` sets into __pp_sample_config (state.c).
   The settings (all read here but PPGCC_SAMPLE_STATS, which
   init.c reads when it writes the profile):

     PPGCC_SAMPLE_FILE   the .ppc to write (default: the program's
                         basename + ".sampled.ppc" in the working
                         directory)
     PPGCC_SAMPLE_HZ     samples per second of the event (default 200)
     PPGCC_SAMPLE_EVENT  cpu-clock (default: a CPU-time timer per thread,
                         no PMU needed), task-clock (perf_event's
                         software clock), cycles, instructions,
                         branch-misses, cache-misses (hardware counters)
     PPGCC_SAMPLE_PERIOD events per sample of a hardware event (default
                         1e9 / HZ)
     PPGCC_SAMPLE_NODES  calling contexts per thread (default 65536)
     PPGCC_SAMPLE_LEAVES (context, PC) pairs per thread whose samples
                         are kept (default 65536; a sample past them
                         counts in its context without its PC, said at
                         report time)
     PPGCC_SAMPLE_CALLS  0: no trampoline, no call counts (default 1;
                         off by itself under a shadow stack)
     PPGCC_SAMPLE_STATS  set: a line per thread at the end on stderr
                         (samples, how many unwound only to the
                         trampoline's mark, unsafe, partial, lost)
     PPGCC_SAMPLE_SIGNAL the sampler's signal, a real-time one (default
                         SIGRTMAX - 3)  */
#define _GNU_SOURCE
#include "sample.h"
#include "perf_events.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether the kernel keeps a shadow stack for this thread (x86 CET): a
   return through the trampoline would then fault, the return address on
   the stack no longer being the one the call pushed.  */
static int
shadow_stack (void)
{
  FILE *f = fopen ("/proc/self/status", "re");
  if (!f)
    return 0;
  char line[256];
  int on = 0;
  while (fgets (line, sizeof line, f))
    if (!strncmp (line, "x86_Thread_features:", 20) && strstr (line, "shstk"))
      on = 1;
  fclose (f);
  if (on)
    {
      static const char m[] = "ppgcc sampler: shadow stack on: no call "
                              "counts (the trampoline would fault)\n";
      write (2, m, sizeof m - 1);
    }
  return on;
}

static long
env_long (const char *name, long dflt, long lo, long hi)
{
  const char *v = getenv (name);
  if (!v || !*v)
    return dflt;
  char *end;
  errno = 0;
  long n = strtol (v, &end, 10);
  if (*end || errno || n < lo || n > hi)
    {
      fprintf (stderr, "ppgcc sampler: %s=%s: not a number from %ld to %ld; "
               "using %ld\n", name, v, lo, hi, dflt);
      return dflt;
    }
  return n;
}

PPS_HIDDEN void
__pp_sample_configure (void)
{
  struct pps_config *c = &__pp_sample_config;
  c->hz = env_long ("PPGCC_SAMPLE_HZ", 200, 1, 100000);
  c->nodes = (uint32_t) env_long ("PPGCC_SAMPLE_NODES", 65536, 64,
                                  1L << 26);
  c->leaves = (uint32_t) env_long ("PPGCC_SAMPLE_LEAVES", 65536, 4,
                                   1L << 26);
  const char *ev = getenv ("PPGCC_SAMPLE_EVENT");
  if (!ev || !*ev)
    ev = "cpu-clock";
  snprintf (c->event, sizeof c->event, "%s", ev);
  c->period = 1000000000u / (uint64_t) c->hz;
  const struct pp_perf_event *e = pp_perf_event_named (ev);
  if (e)
    {
      c->perf = 1;
      c->perf_type = e->type;
      c->perf_config = e->config;
    }
  if (!c->perf && strcmp (ev, "cpu-clock") != 0)
    {
      fprintf (stderr, "ppgcc sampler: PPGCC_SAMPLE_EVENT=%s: unknown "
               "event; sampling the CPU-time timer (cpu-clock)\n", ev);
      snprintf (c->event, sizeof c->event, "cpu-clock");
    }
  if (c->perf && c->perf_type == PERF_TYPE_HARDWARE)
    {
      c->period = (uint64_t) env_long ("PPGCC_SAMPLE_PERIOD",
                                       (long) c->period, 1, 1L << 40);
      snprintf (c->metric, sizeof c->metric, "%.40s", c->event);
      snprintf (c->unit, sizeof c->unit, "events");
      snprintf (c->source, sizeof c->source, "perf-hw:%.40s/%llu", c->event,
                (unsigned long long) c->period);
    }
  else
    {
      /* the time each sample stands for */
      snprintf (c->metric, sizeof c->metric, "cpu-time");
      snprintf (c->unit, sizeof c->unit, "ns");
      snprintf (c->source, sizeof c->source, "%s@%ldHz",
                c->perf ? "perf-sw:task-clock" : "timer:thread-cpu-clock",
                c->hz);
    }
  c->signo = (int) env_long ("PPGCC_SAMPLE_SIGNAL", SIGRTMAX - 3, SIGRTMIN,
                             SIGRTMAX);
  /* A CPU-time timer is checked at the kernel's tick: a signal comes
     a tick late or so, standing for the periods that passed; on a
     loaded machine, 17 ms of the thread's CPU time late has been seen
     (2 cores, load 5, 1 kHz).  Later than 100 ms, the thread held the
     signal: the periods beyond are lost, not the stack's it finds.  */
  c->late = c->perf ? UINT64_MAX : 100000000u / c->period + 1;
  const char *calls = getenv ("PPGCC_SAMPLE_CALLS");
  c->calls = !(calls && !strcmp (calls, "0")) && !shadow_stack ();
  const char *file = getenv ("PPGCC_SAMPLE_FILE");
  if (file && *file)
    c->file = strdup (file);
  else
    {
      char exe[4096];
      ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
      exe[n > 0 ? n : 0] = '\0';
      const char *base = strrchr (exe, '/');
      base = base ? base + 1 : (*exe ? exe : "program");
      if (asprintf (&c->file, "%s.sampled.ppc", base) < 0)
        c->file = NULL;
    }
}
