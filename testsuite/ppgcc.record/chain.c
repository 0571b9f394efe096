/* Compares then a loop, as bzip2's mainGtU: the location before the
   loop is given the loop's rate in a crafted line profile (a training
   build that computed it inside the loop), far above the compares'.  */
#include <stdio.h>
#include <stdlib.h>

__attribute__ ((noinline)) int
chain (const unsigned char *a, const unsigned char *b, int n)
{
  if (a[0] != b[0]) return a[0] > b[0]; /* compare 1 */
  if (a[1] != b[1]) return a[1] > b[1]; /* compare 2 */
  if (a[2] != b[2]) return a[2] > b[2]; /* compare 3 */
  int k = n + 8; /* the tail */
  int i = 3;
  do
    {
      if (a[i] != b[i]) return a[i] > b[i]; /* the loop */
      i++;
      k -= 8;
    }
  while (k >= 0 && i < n);
  return 0;
}

int
main (int argc, char **argv)
{
  unsigned char a[64], b[64];
  int n = argc > 1 ? atoi (argv[1]) : 64, s = 0;
  for (int i = 0; i < 64; i++)
    a[i] = b[i] = (unsigned char) i;
  for (int r = 0; r < 1000; r++)
    {
      b[r % 64] ^= 1;
      s += chain (a, b, n < 64 ? n : 64);
      b[r % 64] ^= 1;
    }
  printf ("%d\n", s);
  return 0;
}
