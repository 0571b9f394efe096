/* One memset whose size is known only at run time, called 13 times a
   run: 5 times 10 bytes, 3 times 20, 4 times 30, once 10.  The majority
   vote (Boyer and Moore's) of a run: 10 gains 5 votes and 20 takes 3
   away; 30 takes the last 2, becomes the candidate with none left, and
   gains 2 of its own; the last 10 takes one: 30 with 1.  The sum is 240
   bytes.  */
#include <stdio.h>
#include <string.h>

static char buf[64];

__attribute__ ((noinline)) static void
put (size_t n, int c)
{
  memset (buf, c, n);
}

int
main (void)
{
  static const unsigned char sizes[] = { 10, 10, 10, 10, 10, 20, 20, 20,
                                         30, 30, 30, 30, 10 };
  unsigned s = 0;
  for (unsigned i = 0; i < sizeof sizes; i++)
    {
      put (sizes[i], (int) i + 1);
      s = s * 31 + (unsigned char) buf[sizes[i] - 1];
    }
  printf ("%u\n", s);
  return 0;
}
