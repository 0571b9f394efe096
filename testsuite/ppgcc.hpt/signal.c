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

unsigned
paths14 (unsigned w)
{
  unsigned s = 0;
  if ((w >> 0) & 1) s += 1; else s ^= 3;
  if ((w >> 1) & 1) s += 2; else s ^= 10;
  if ((w >> 2) & 1) s += 3; else s ^= 17;
  if ((w >> 3) & 1) s += 4; else s ^= 24;
  if ((w >> 4) & 1) s += 5; else s ^= 31;
  if ((w >> 5) & 1) s += 6; else s ^= 38;
  if ((w >> 6) & 1) s += 7; else s ^= 45;
  if ((w >> 7) & 1) s += 8; else s ^= 52;
  if ((w >> 8) & 1) s += 9; else s ^= 59;
  if ((w >> 9) & 1) s += 10; else s ^= 66;
  if ((w >> 10) & 1) s += 11; else s ^= 73;
  if ((w >> 11) & 1) s += 12; else s ^= 80;
  if ((w >> 12) & 1) s += 13; else s ^= 87;
  if ((w >> 13) & 1) s += 14; else s ^= 94;
  return s;
}

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
