/* Copies whose size is known only at run time: copy's memcpy runs 1000
   times a run, 24 and 25 bytes in turn (24500 bytes in all, no size the
   majority), clear's memset 10 times, 96 bytes (960 in all).  A
   constant-size memcpy (fixed) is not counted, nor put's, whose size is
   its parameter: -O2 inlines it, and each call's size is a constant.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char src[4096], dst[4096];

__attribute__ ((noinline)) static unsigned
copy (size_t n, int k)
{
  memcpy (dst + k, src, n);
  return (unsigned char) dst[k + n - 1];
}

__attribute__ ((noinline)) static void
clear (size_t n)
{
  memset (dst, 0, n);
}

static void
put (char *d, const char *s, size_t n)
{
  memcpy (d, s, n);
}

__attribute__ ((noinline)) static void
fixed (int k)
{
  memcpy (dst + k, src, 16);
}

int
main (int argc, char **argv)
{
  size_t n = argc > 1 ? strtoul (argv[1], 0, 10) : 24;
  unsigned s = 0;
  for (int i = 0; i < 4096; i++)
    src[i] = (char) (i * 7);
  for (int i = 0; i < 1000; i++)
    {
      s += copy (n + (i & 1), i & 7);
      if (i % 100 == 0)
        {
          clear (n * 4);
          fixed (i & 3);
        }
    }
  put (dst + 64, src + 8, 8);
  put (dst + 128, src + 16, 16);
  printf ("%u %d %d %d\n", s, dst[3], dst[70], dst[140]);
  return 0;
}
