/* A signal handler runs a function with 2^14 paths while the main loop
   runs it too: the handler's probe may find its Hot Path Table set locked
   by the code it interrupted, and must then drop the count, not wait
   (a wait would never end).  The handler's runs go to handler.count, so
   that counts plus dropped can be checked: main's ITERS plus those.  */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#define ITERS 3000000

#include "paths14.h"

static volatile sig_atomic_t handled;
static volatile unsigned handler_sum;

static void
on_alarm (int sig)
{
  (void) sig;
  for (unsigned w = 0; w < 16; w++)
    handler_sum += paths14 (w * 977 + handled);
  handled += 16;
}

int
main (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction (SIGALRM, &sa, NULL);
  struct itimerval it = { { 0, 200 }, { 0, 200 } };
  setitimer (ITIMER_REAL, &it, NULL);
  unsigned long long s = 0;
  unsigned x = 1;
  for (int i = 0; i < ITERS; i++)
    {
      x = x * 1103515245u + 12345u;
      s += paths14 ((x >> 8) & 3 ? (x >> 12) & 3 : (x >> 12) & 0x3fff);
    }
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &off, NULL);
  FILE *f = fopen ("handler.count", "w");
  if (f)
    {
      fprintf (f, "%d\n", (int) handled);
      fclose (f);
    }
  printf ("%llu\n", s);
  return 0;
}
