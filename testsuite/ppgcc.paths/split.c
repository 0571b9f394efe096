/* Path splitting (-fprofile-paths-max, split.exp): wide() has 2^12
   paths, one per choice of its 12 diamonds; calls keep every arm a
   branch.  */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

__attribute__ ((noinline)) static void
on (unsigned k)
{
  sink += k;
}

__attribute__ ((noinline)) static void
off (unsigned k)
{
  sink ^= k;
}

__attribute__ ((noinline)) static unsigned
wide (unsigned x)
{
  if (x & 1u)
    on (1);
  else
    off (1);
  if (x & 2u)
    on (2);
  else
    off (2);
  if (x & 4u)
    on (3);
  else
    off (3);
  if (x & 8u)
    on (4);
  else
    off (4);
  if (x & 16u)
    on (5);
  else
    off (5);
  if (x & 32u)
    on (6);
  else
    off (6);
  if (x & 64u)
    on (7);
  else
    off (7);
  if (x & 128u)
    on (8);
  else
    off (8);
  if (x & 256u)
    on (9);
  else
    off (9);
  if (x & 512u)
    on (10);
  else
    off (10);
  if (x & 1024u)
    on (11);
  else
    off (11);
  if (x & 2048u)
    on (12);
  else
    off (12);
  return sink;
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : 3000;
  unsigned long total = 0;
  for (unsigned i = 0; i < n; i++)
    total += wide (i * 2654435761u >> 7);
  printf ("%lu\n", total);
  return 0;
}
