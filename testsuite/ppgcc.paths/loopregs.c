/* Single-path loops, whose trips the probes count in a local counter (a
   register) and store when the loop is left: left by a break, a goto, a
   return, a longjmp from a callee and a siglongjmp from a signal
   handler, each on the branch that leaves the loop, and by running out;
   entered from two places; and not entered at all.  Every trip that
   completed counts its path exactly once: the first one's path starts
   where the path entering the loop started, the later ones' at the
   header.  loopregs.exp checks that the loops' counts are registers.  */
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
scan (const int *a, int n, int how, int stop)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    {
      s += a[i];
      if (a[i] == stop)
        {
          if (how == 0)
            break;
          if (how == 1)
            goto out;
          if (how == 2)
            return s;
          if (how == 3)
            bail ();
          raise (SIGUSR1);
          break;
        }
    }
  s = -s;
out:
  return s;
}

/* Entered from either arm; the body is one path with two ways out.  */
__attribute__ ((noipa)) static int
find (const int *a, int from, int key)
{
  int i;
  if (from > 0)
    i = from;
  else
    i = 0;
  while (a[i] != key)
    {
      if (a[i] < 0)
        return -1;
      i++;
    }
  return i;
}

int
main (void)
{
  static const int a[12] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, -1 };
  signal (SIGUSR1, on_usr1);
  long r0 = scan (a, 12, 0, 5), r1 = scan (a, 12, 1, 9);
  long r2 = scan (a, 12, 2, 2), r5 = scan (a, 12, 0, 7);
  long r6 = scan (a, 0, 0, 7), r7 = scan (a, 12, 1, 3);
  long r3 = -1, r4 = -1;
  if (!setjmp (jump))
    r3 = scan (a, 12, 3, 6);
  if (!sigsetjmp (sigjump, 1))
    r4 = scan (a, 12, 4, 4);
  int f0 = find (a, 0, 9), f1 = find (a, 6, 3), f2 = find (a, 2, 3);
  int f3 = find (a, 0, 3), f4 = find (a, 4, 8);
  printf ("%ld %ld %ld %ld %ld %ld %ld %ld %d %d %d %d %d\n", r0, r1, r2, r3,
          r4, r5, r6, r7, f0, f1, f2, f3, f4);
  return 0;
}
// scan's trips round the loop (line 33 to the back edge): 4 for stop 5,
// 5 for stop 9, 6 for stop 2, 12 without a stop, 7 before bail's longjmp,
// 2 before the raise: the first trip of each of those six calls from the
// entry (line 32), the 30 others from the header.  The zero-length scan
// and stop 3 (at a[0], the goto in the first trip) leave from the path's
// start; the break, the goto, the return and running out after trips
// from the header.  The paths cut short by the longjmp and the
// siglongjmp count nothing.
// expect-paths: scan 8
// expect: scan 30 33 35 36 33
// expect: scan 6 32 33 35 36 33
// expect: scan 1 32 33 35 36 38 40 41 51 52
// expect: scan 1 32 33 50 51 52
// expect: scan 1 33 35 36 38 50 51 52
// expect: scan 1 33 35 36 38 40 41 51 52
// expect: scan 1 33 35 36 38 40 42 43
// expect: scan 1 33 50 51 52
// find's trips: 5 (key 9 from 0), 3 (3 from 6), 7 (3 from 2), none (3
// at 0), 7 (8 from 4, then the -1): four first trips, three of them
// entered through line 61 (i = from); 18 later ones; three finds return at the key
// after trips, one with -1.
// expect-paths: find 6
// expect: find 18 64 66 68
// expect: find 3 60 61 64 66 68
// expect: find 3 64 70
// expect: find 1 60 63 64 66 68
// expect: find 1 60 63 64 70
// expect: find 1 64 66 67
