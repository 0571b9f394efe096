/* switch with fall-through and default, over 0..9.  */
#include <stdio.h>

int
kind (int c)
{
  int r = 0;
  switch (c)
    {
    case 0:
      r += 1;
      /* fall through */
    case 1:
      r += 2;
      break;
    case 5:
      r = 50;
      break;
    default:
      r = -1;
    }
  return r;
}

int
main (int argc, char **argv)
{
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += kind (i);
  printf ("%d\n", s);
  return 0;
}
// expect-paths: kind 4
// expect: kind 1 7 8 10 11 13 14 22
// expect: kind 1 7 8 13 14 22
// expect: kind 1 7 8 16 17 22
// expect: kind 7 7 8 19 20 22
