/* Two callees of one caller: scan loops 40 times a call, tick once.
   scan stays plain (its loops restart its paths 8 or more times a call)
   and tick is expanded, with =clone and =inline alike.  */
#include <stdio.h>
#include <stdlib.h>

static int scan (const int *a, int n, int key)
{
  int hits = 0;
  for (int i = 0; i < n; i++)
    if (a[i] == key)
      hits++;
  return hits;
}

static int tick (int x)
{
  return x & 1 ? x * 3 : x / 2;
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 50;
  int a[40];
  for (int i = 0; i < 40; i++)
    a[i] = i % 7;
  long t = 0;
  for (int r = 0; r < n; r++)
    t += scan (a, 40, r % 7) + tick (r);
  printf ("%ld\n", t);
  return 0;
}
