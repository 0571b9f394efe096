/* fork with a metric: the child reopens its events (the inherited perf
   event counts the parent's thread, which waits meanwhile), and starts
   from zero.  The child works ten times as much as the parent.  */
// retry: 3
// expect: runs 2 kind cct metrics 1
// expect: node main/child/work calls=1 rec=0 nctx=1 paths=0:200,1:1
// expect: node main/work calls=1 rec=0 nctx=1 paths=0:100,1:1
// expect: node main/parent/work calls=1 rec=0 nctx=1 paths=0:20,1:1
// ratio: 0 main/child/work main/parent/work 5 20
// ratio: 0 main/child/work#0 main/parent/work#0 5 20
#define NM 1
#define METRICS "task-clock"
#include "hand.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

DESC (main, 1);
DESC (child, 1);
DESC (parent, 1);
DESC (work, 2);
UNIT (&main_desc, &child_desc, &parent_desc, &work_desc)

static volatile double sink;
static volatile int chunk = 20000;

NOINLINE static void
work (int n)
{
  ENTER (work);
  for (int i = 0; i < n; i++)
    {
      hand_burn (&sink, chunk);
      PATH (0);
    }
  PATH (1);
  EXIT ();
}

NOINLINE static void
child (void)
{
  ENTER (child);
  work (200);
  PATH (0);
  EXIT ();
}

NOINLINE static void
parent (void)
{
  ENTER (parent);
  work (20);
  PATH (0);
  EXIT ();
}

int
main (void)
{
  ENTER (main);
  work (100); /* before the fork: the parent's, not the child's */
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      child ();
      exit (0);
    }
  int status;
  waitpid (pid, &status, 0);
  parent ();
  PATH (0);
  EXIT ();
  return WIFEXITED (status) ? WEXITSTATUS (status) : 1;
}
