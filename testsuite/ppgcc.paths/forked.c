/* fork: the child counts its own calls; parent and child both write.  */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int
twice (int x)
{
  return x > 100 ? x : 2 * x;
}

int
main (void)
{
  int s = 0;
  for (int i = 0; i < 2; i++)
    s += twice (i);
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      for (int i = 0; i < 3; i++)
        s += twice (i);
      return s == 7 ? 0 : 1;
    }
  int status;
  waitpid (pid, &status, 0);
  for (int i = 0; i < 5; i++)
    s += twice (i);
  printf ("%d %d\n", s, WEXITSTATUS (status));
  return 0;
}
// 2 calls before the fork, 3 in the child, 5 in the parent after it.
// expect: twice 10 9
// expect-paths: twice 1
