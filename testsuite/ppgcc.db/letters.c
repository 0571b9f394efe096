/* The profile database's test program: each letter of argv[1] takes one
   path through classify (a vowel, a consonant, a digit, other), so the
   test knows which paths a run takes.  -DBUILD=N makes another build
   (another build id) of the same source, whose classify is the same
   function (same CFG checksum).  */
#include <stdio.h>
#include <string.h>

#ifndef BUILD
#define BUILD 1
#endif

static int __attribute__ ((noinline))
classify (int c)
{
  if (c >= '0' && c <= '9')
    return 2;
  if (strchr ("aeiou", c))
    return 0;
  if (c >= 'a' && c <= 'z')
    return 1;
  return 3;
}

int
main (int argc, char **argv)
{
  int kinds[4] = { 0 };
  const char *s = argc > 1 ? argv[1] : "";
  for (; *s; s++)
    kinds[classify ((unsigned char) *s)]++;
  printf ("build %d: %d vowels %d consonants %d digits %d other\n", BUILD,
          kinds[0], kinds[1], kinds[2], kinds[3]);
  return 0;
}
