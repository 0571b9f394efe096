/* A later branch decided by an earlier one through the data: an item's
   flag is set exactly when its kind is 1, which GCC cannot prove; the
   paths show it.  */
#include <stdio.h>

#define N 4096

struct item { int kind, flag, v; };
struct item items[N];
long pos, neg, flagged, plain;

static void __attribute__ ((noinline))
scan (const struct item *it, int n)
{
  for (int i = 0; i < n; i++)
    {
      if (it[i].kind == 1) /* the first test */
        pos += it[i].v;
      else
        neg += it[i].v;
      if (it[i].flag) /* the correlated test */
        flagged += it[i].v * 3;
      else
        plain -= it[i].v;
    }
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? 400 : 100;
  for (int i = 0; i < N; i++)
    {
      items[i].kind = (i * 7 + i / 3) % 2;
      items[i].flag = items[i].kind == 1;
      items[i].v = i % 17;
    }
  for (int r = 0; r < rounds; r++)
    scan (items, N);
  printf ("%ld %ld %ld %ld\n", pos, neg, flagged, plain);
  return 0;
}
