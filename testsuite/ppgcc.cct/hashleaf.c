/* A leaf with 2^13 paths, past the array limit of cct builds (4096): it
   counts its paths in a hash table, and its context token has no use.
   GCC dropped the unused token of its entry marker, which was then left
   unlowered and failed the link (pcre2's _pcre2_script_run_8).  Its calls
   still count in its context.  */
#include <stdio.h>

__attribute__ ((noinline)) static unsigned
wide (unsigned x)
{
  unsigned s = 0;
  if (x & 1) s += 1;
  if (x & 2) s += 3;
  if (x & 4) s += 5;
  if (x & 8) s += 7;
  if (x & 16) s += 11;
  if (x & 32) s += 13;
  if (x & 64) s += 17;
  if (x & 128) s += 19;
  if (x & 256) s += 23;
  if (x & 512) s += 29;
  if (x & 1024) s += 31;
  if (x & 2048) s += 37;
  if (x & 4096) s += 41;
  return s;
}

int
main (void)
{
  unsigned t = 0;
  for (unsigned i = 0; i < 300; i++)
    t += wide (i * 2654435761u);
  printf ("%u\n", t);
  return 0;
}
