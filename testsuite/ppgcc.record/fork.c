/* fork: the child works in child_work and ends by _exit (exit's
   handlers do not run); the parent works in parent_work, twice as long,
   and waits.  Each process writes its own run into the one profile:
   runs 2, both trees merged.  */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

volatile unsigned long sink;

__attribute__ ((noipa)) void
spin (long n)
{
  unsigned long x = sink;
  for (long i = 0; i < n; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
}

__attribute__ ((noipa)) void
child_work (long n)
{
  spin (n);
  sink++;
}

__attribute__ ((noipa)) void
parent_work (long n)
{
  spin (2 * n);
  sink++;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 150000000;
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    return 1;
  if (pid == 0)
    {
      child_work (n);
      _exit (0);
    }
  parent_work (n);
  int st;
  waitpid (pid, &st, 0);
  printf ("child %d\n", WIFEXITED (st) ? WEXITSTATUS (st) : -1);
  return 0;
}
