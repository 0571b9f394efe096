/* A program that profiles itself the classic way: its own SIGPROF
   handler, counting its ticks, and ITIMER_PROF every 10 ms of the
   process's CPU time, while work spins for 0.6 s of CPU.  Its handler
   must still run (ticks > 0, and no more than the timer's rate: no
   signal of the sampler reaches it), and the sampler must still
   sample.  */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

volatile unsigned long sink;
static volatile sig_atomic_t ticks;

static void
tick (int sig)
{
  (void) sig;
  ticks++;
}

static double
process_cpu (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__ ((noipa)) void
spin (long n)
{
  unsigned long x = sink;
  for (long i = 0; i < n; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
}

__attribute__ ((noipa)) void
work (double seconds)
{
  while (process_cpu () < seconds)
    spin (100000);
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? atof (argv[1]) : 0.6;
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = tick;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  if (sigaction (SIGPROF, &sa, NULL) != 0)
    return 1;
  struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
  if (setitimer (ITIMER_PROF, &it, NULL) != 0)
    return 1;
  work (seconds);
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_PROF, &off, NULL);
  printf ("ticks %d cpu %.3f\n", (int) ticks, process_cpu ());
  return 0;
}
