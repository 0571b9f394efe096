/* An inline comparator with early returns (sbreturn.exp), the shape of
   bzip2's mainGtU: every `return` jumps to the function's one return
   block, and the hot paths end there.  Inlined, that block is a jump to
   the caller's continuation: a tail copy of it per path straightened
   nothing, but moved GCC's split of mainGtU into an inlined head and an
   outlined tail (1.9 M instructions more in bzip2).  */
#include <stdio.h>

#define N 2000

static unsigned char text[N + 16];
static int order[N];

static inline int
greater (int i, int j)
{
  if (text[i] != text[j])
    return text[i] > text[j];
  if (text[i + 1] != text[j + 1])
    return text[i + 1] > text[j + 1];
  if (text[i + 2] != text[j + 2])
    return text[i + 2] > text[j + 2];
  if (text[i + 3] != text[j + 3])
    return text[i + 3] > text[j + 3];
  return i > j;
}

/* Not declared inline: called, its return block gets a copy on the hot
   path, which saves the jump to the shared return (lua's
   luaH_getshortstr: 1.1 M instructions fewer).  */
static int __attribute__ ((noinline))
find (int c)
{
  for (int k = 0; k < 16; k++)
    if (text[k] == c)
      return k;
  return -1;
}

int
main (void)
{
  unsigned seed = 12345;
  for (int k = 0; k < N + 16; k++)
    {
      seed = seed * 1103515245u + 12345u;
      text[k] = (unsigned char) ('a' + (seed >> 16) % 3);
    }
  for (int k = 0; k < N; k++)
    order[k] = k;
  /* Insertion sort of the suffixes by their first four characters.  */
  for (int k = 1; k < N; k++)
    {
      int v = order[k], m = k;
      while (m > 0 && greater (order[m - 1], v))
        {
          order[m] = order[m - 1];
          m--;
        }
      order[m] = v;
    }
  long check = 0;
  for (int c = 'a'; c < 'a' + 4; c++)
    for (int k = 0; k < 20000; k++)
      check += find (c);
  for (int k = 0; k < N; k++)
    check += (long) order[k] * (k + 1);
  printf ("%d %d %ld\n", order[0], order[N - 1], check);
  return 0;
}
