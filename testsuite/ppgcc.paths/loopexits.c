/* One counting loop left five ways: a break, a goto, a return, a longjmp
   from a callee and a siglongjmp from a signal handler.  Every iteration
   that completed before the exit counts its path exactly once, whether
   the loop's path counts live in memory or in registers flushed at its
   exits; the iteration the non-local exits cut short counts nothing.  */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static jmp_buf jump;
static sigjmp_buf sigjump;

static void
on_usr1 (int sig)
{
  (void) sig;
  siglongjmp (sigjump, 1);
}

__attribute__ ((noinline)) static void
bail (int i)
{
  if (i == 7)
    longjmp (jump, 1);
}

__attribute__ ((noinline)) static int
spin (int how, int stop, int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    {
      s += i;
      if (i == stop)
        {
          if (how == 0)
            break;
          if (how == 1)
            goto out;
          if (how == 2)
            return s;
          raise (SIGUSR1);
        }
      if (how == 3)
        bail (i);
    }
  s = -s;
out:
  return s;
}

int
main (void)
{
  signal (SIGUSR1, on_usr1);
  int r0 = spin (0, 5, 100), r1 = spin (1, 6, 100), r2 = spin (2, 4, 100);
  int r3 = -1, r4 = -1;
  if (!setjmp (jump))
    r3 = spin (3, -1, 100);
  if (!sigsetjmp (sigjump, 1))
    r4 = spin (4, 3, 100);
  printf ("%d %d %d %d %d\n", r0, r1, r2, r3, r4);
  return 0;
}
// spin's iterations that went round (from the entry, line 30, or the
// back edge, 31): how 0 goes round 5 times, how 1 6, how 2 4, how 3 7
// (calling bail, line 45), how 4 3: 4 + 1 from the entry, 14 + 6 after.
// The break, the goto and the return end one path each; the longjmp out
// of bail and the siglongjmp out of the handler cut their iteration
// short: it counts nothing.
// expect-paths: spin 7
// expect: spin 4 30 31 33 34 44 31
// expect: spin 14 31 33 34 44 31
// expect: spin 1 30 31 33 34 44 45 31
// expect: spin 6 31 33 34 44 45 31
// expect: spin 1 31 33 34 36 47 48 49
// expect: spin 1 31 33 34 36 38 39 48 49
// expect: spin 1 31 33 34 36 38 40 41
// bail returns 7 times; the 8th call's path ends before its longjmp.
// expect-paths: bail 2
// expect: bail 7 23 25
// expect: bail 1 23 24
