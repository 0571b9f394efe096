/* candidates.exp: classify's three paths (negative, odd, even), one per
   argument.  */
#include <stdio.h>
#include <stdlib.h>

int
classify (int x)
{
  if (x < 0)
    return -1;
  if (x % 2)
    return 1;
  return 0;
}

int
main (int argc, char **argv)
{
  int sum = 0;
  for (int i = 1; i < argc; i++)
    sum += classify (atoi (argv[i]));
  printf ("%d\n", sum);
  return 0;
}
