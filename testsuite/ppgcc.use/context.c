/* One function called from two contexts with opposite branch behaviour:
   sum_big's data always passes count_above's test, sum_small's never
   does.  An edge profile gives count_above one average, 50/50; a context
   profile (-fprofile-paths=cct) gives each caller's copy its own.  */
#include <stdio.h>

#define N 1000

int hits[8];
int big[N], small[N];

/* Not inlined by the early inliner (a loop): GCC's instrumentation sees
   one body.  */
static int
count_above (const int *a, int n, int t)
{
  int c = 0;
  for (int i = 0; i < n; i++)
    {
      if (a[i] > t) /* the test */
        {
          c += a[i];
          hits[i & 7]++;
        }
      else
        c -= 1;
    }
  return c;
}

int
sum_big (int t)
{
  return count_above (big, N, t);
}

int
sum_small (int t)
{
  return count_above (small, N, t);
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? 200 : 50;
  for (int i = 0; i < N; i++)
    {
      big[i] = 1000 + i;
      small[i] = i % 100;
    }
  long s = 0;
  for (int r = 0; r < rounds; r++)
    s += sum_big (500) + sum_small (500);
  printf ("%ld %d %d\n", s, hits[0], hits[7]);
  return 0;
}
