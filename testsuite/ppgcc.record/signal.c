/* Ends by a signal: works in busy, then raises SIGTERM (default
   action).  The profile is written all the same; ppprof record passes
   the death on as status 128 + 15.  */
#include <signal.h>
#include <stdlib.h>

volatile unsigned long sink;

__attribute__ ((noipa)) void
busy (long n)
{
  unsigned long x = sink;
  for (long i = 0; i < n; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
}

int
main (int argc, char **argv)
{
  busy (argc > 1 ? atol (argv[1]) : 100000000);
  raise (SIGTERM);
  return 0;
}
