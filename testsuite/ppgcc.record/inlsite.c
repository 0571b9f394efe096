/* A helper the training build inlines at two call sites: the call
   lines keep no instruction of their own, the helper's carry its lines.  */
#include <stdio.h>
#include <stdlib.h>

static inline unsigned
mix (unsigned s, unsigned i)
{
  s ^= i * 0x9e3779b9u;
  s = (s << 7) | (s >> 25);
  s += (s >> 3) ^ (i << 5);
  s *= 0x85ebca6bu;
  s ^= (s >> 11) + i;
  s = (s << 9) | (s >> 23);
  s += (s >> 5) ^ (i << 3);
  s *= 0xc2b2ae35u;
  s ^= (s >> 15) + (i >> 2);
  s = (s << 11) | (s >> 21);
  s += (s >> 7) ^ (i << 9);
  s *= 0x27d4eb2fu;
  return s ^ (s >> 13);
}

__attribute__ ((noinline)) unsigned
run (unsigned n, unsigned k)
{
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    {
      if (i % k)
        s = mix (s, i); /* the first call */
      else
        s = mix (i, s); /* the second call */
    }
  return s;
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) atoi (argv[1]) : 1000u;
  printf ("%u\n", run (n, argc > 2 ? (unsigned) atoi (argv[2]) : 3u));
  return 0;
}
