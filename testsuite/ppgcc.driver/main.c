#include <stdio.h>
int lib_answer (int);
int
main (void)
{
  printf ("%d\n", lib_answer (10));
  return 0;
}
