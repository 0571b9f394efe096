/* fork: the child counts from zero (what the parent counted before the
   fork is the parent's) and writes its own counts at its exit; both runs
   merge into one file.  */
// expect: runs 2 kind cct metrics 0
// expect: node main calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/f calls=3 rec=0 nctx=1 paths=0:3
// expect: node main/g calls=5 rec=0 nctx=1 paths=0:5
// expect: node main/h calls=2 rec=0 nctx=1 paths=0:2
#include "hand.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

DESC (main, 1);
DESC (f, 1);
DESC (g, 1);
DESC (h, 1);
UNIT (&main_desc, &f_desc, &g_desc, &h_desc)

static volatile int sink, two = 2, three = 3, five = 5;

#define LEAF(name)                                                         \
  NOINLINE static void name (void)                                         \
  {                                                                        \
    ENTER (name);                                                          \
    sink++;                                                                \
    PATH (0);                                                              \
    EXIT ();                                                               \
  }
LEAF (f)
LEAF (g)
LEAF (h)

int
main (void)
{
  ENTER (main);
  for (int i = 0; i < three; i++)
    f ();
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      for (int i = 0; i < five; i++)
        g ();
      exit (0);
    }
  int status;
  waitpid (pid, &status, 0);
  for (int i = 0; i < two; i++)
    h ();
  PATH (0);
  EXIT ();
  return WIFEXITED (status) ? WEXITSTATUS (status) : 1;
}
