/* A recursive call is a call site like any other: fact's call of fact is
   expanded once (depth 1), so a segment is fact's path, the path of the
   callee's activation, and fact's continuation; the callee's own call
   goes to plain fact again.  */
#include <stdio.h>
#include <stdlib.h>

int fact (int n)
{
  if (n <= 1)
    return 1;
  return n * fact (n - 1);
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 5;
  printf ("%d\n", fact (n));
  return 0;
}
// train: 3
// ref: 6
// ips: fact 2 fact 10 12 [10:F] > fact 10 12 [10:F] > fact 12
// ips: fact 1 fact 10 12 [10:F] > fact 10-11 [10:T] > fact 12
// untested-none: fact
// The training run (n = 3) never returned at once from the copy (n <= 1
// there): its own segment profile says so, the over-approximation from
// fact's intraprocedural paths does not.
// untested-exact: fact 1 fact 10 12 [10:F] > fact 10-11 [10:T] > fact 12
