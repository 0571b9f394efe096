/* Trained as it is, then rebuilt with -DV2: pick's control flow changes
   (one more branch), steady's does not.  With the old training profile,
   pick must fall back to Ball-Larus (a warning naming it) and steady keep
   its preferential numbering; the counts stay exact either way.  */
#include <stdio.h>
#include <stdlib.h>

/* pick: another CFG with -DV2.  */
static int
pick (int x)
{
  if (x & 1)
    x = x * 3;
#ifdef V2
  if (x & 2)
    x = x + 7;
#endif
  return x;
}

/* steady: the same CFG in both versions.  */
static int
steady (int x)
{
  if (x > 4)
    return x - 4;
  return x + 1;
}

int
main (int argc, char **argv)
{
  int sum = 0;
  for (int i = 1; i < argc; i++)
    {
      int x = atoi (argv[i]);
      sum = sum * 7 + pick (x) + steady (x);
    }
  printf ("%d\n", sum);
  return 0;
}
