/* Loops whose one way out is a break, a goto, a return, a longjmp (a
   call after the exit) or a raise whose handler siglongjmps, and a loop
   that runs out or is never entered: each a single path, so its trips
   are counted in a local counter (a register) and stored when the loop
   is left.  Every trip that completed counts its path exactly once: the
   first one's path starts where the path entering the loop started, the
   later ones' at the header.  loopregs.exp checks that these loops have
   -O2's instructions.  */
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
bail (void)
{
  longjmp (jump, 1);
}

__attribute__ ((noipa)) static long
by_break (const int *a, int stop)
{
  long s = 0;
  for (int i = 0;; i++)
    {
      if (a[i] == stop)
        break;
      s += a[i];
    }
  return -s;
}

__attribute__ ((noipa)) static long
by_goto (const int *a, int stop)
{
  long s = 0;
  /* The label on the return's line: the lines of the path that jumps
     there are then the same whether GCC's first CFG keeps the jump in a
     block of its own (-O0) or not.  */
  for (int i = 0;; s += a[i++])
    if (a[i] == stop)
      goto out;
out: return s * 2;
}

__attribute__ ((noipa)) static long
by_return (const int *a, int stop)
{
  long s = 0;
  for (int i = 0;; i++)
    {
      if (a[i] == stop)
        return s;
      s += a[i];
    }
}

__attribute__ ((noipa)) static long
by_longjmp (const int *a, int stop, int how)
{
  long s = 0;
  for (int i = 0;; i++)
    {
      if (a[i] == stop)
        {
          if (how)
            bail ();
          else
            raise (SIGUSR1);
          break;
        }
      s += a[i];
    }
  return s;
}

__attribute__ ((noipa)) static long
sum (const int *a, int n)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

int
main (void)
{
  static const int a[12] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, -1 };
  signal (SIGUSR1, on_usr1);
  long r0 = by_break (a, 5), r1 = by_break (a, 3), r2 = by_goto (a, 9);
  long r3 = by_return (a, 2), r4 = by_return (a, -1);
  long r5 = -1, r6 = -1;
  if (!setjmp (jump))
    r5 = by_longjmp (a, 6, 1);
  if (!sigsetjmp (sigjump, 1))
    r6 = by_longjmp (a, 4, 0);
  long r7 = sum (a, 12), r8 = sum (a, 0), r9 = sum (a, 1);
  printf ("%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", r0, r1, r2, r3, r4, r5,
          r6, r7, r8, r9);
  return 0;
}
// by_break (stop 5, then stop 3 at a[0]): 4 trips, the first from the
// entry (line 32), and a stop in the first trip.  by_goto (9): 5 trips.
// by_return (2, then -1): 6 and 11 trips.  by_longjmp (6, then 4): 7 and
// 2 trips; the path cut short by the longjmp, and by the siglongjmp out
// of the handler, counts nothing.  sum (12, 0, 1): 12 trips, none, 1.
// expect-paths: by_break 4
// expect: by_break 3 35 33 34 35 36 37
// expect: by_break 1 32 33 35 39
// expect: by_break 1 32 33 35 33 34 35 36 37
// expect: by_break 1 35 39
// expect-paths: by_goto 3
// expect: by_goto 4 50 49
// expect: by_goto 1 45 46 47 48 49 50 49
// expect: by_goto 1 50 51 52
// expect-paths: by_return 3
// expect: by_return 15 61 59 60 61 62 63
// expect: by_return 2 58 59 61 59 60 61 62 63
// expect: by_return 2 61 62
// expect-paths: by_longjmp 2
// expect: by_longjmp 7 73 71 72 73 74 75 76 77 78 79 80 81
// expect: by_longjmp 2 70 71 73 71 72 73 74 75 76 77 78 79 80 81
// expect-paths: sum 4
// expect: sum 11 90 91
// expect: sum 2 89 90 91
// expect: sum 2 90 92
// expect: sum 1 89 90 92
