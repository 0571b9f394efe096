/* sysheader.exp: count_a, first declared in a system header.  */
#include "sysheader.h"

int
count_a (const char *s)
{
  int n = 0;
  for (; *s; s++)
    if (*s == 'a')
      n++;
  return n;
}
