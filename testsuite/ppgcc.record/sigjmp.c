/* siglongjmp out of a SIGALRM handler, thousands of times: an interval
   timer of 200 us of real time interrupts spin, and the handler jumps
   back to main, which spins again, until 1 s of CPU time.  A SIGALRM
   that lands inside the sampler's own handler must not leave the
   sampler stuck: the samples' cpu-time comes close to the CPU time the
   program measured.  */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

volatile unsigned long sink;
static sigjmp_buf back;

static void
alarm_handler (int sig)
{
  (void) sig;
  siglongjmp (back, 1);
}

static double
thread_cpu (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__ ((noipa)) void
spin (void)
{
  unsigned long x = sink;
  for (;;)
    {
      x = x * 6364136223846793005ul + 1442695040888963407ul;
      sink = x;
    }
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? atof (argv[1]) : 1.0;
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = alarm_handler;
  sigemptyset (&sa.sa_mask);
  if (sigaction (SIGALRM, &sa, NULL) != 0)
    return 1;
  struct itimerval it = { { 0, 200 }, { 0, 200 } };
  if (setitimer (ITIMER_REAL, &it, NULL) != 0)
    return 1;
  long jumps = 0;
  while (thread_cpu () < seconds)
    if (sigsetjmp (back, 1) == 0)
      spin ();
    else
      jumps++;
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &off, NULL);
  printf ("jumps %ld cpu %.3f\n", jumps, thread_cpu ());
  return 0;
}
