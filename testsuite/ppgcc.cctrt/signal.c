/* Signal handlers that enter instrumented code.  raise() in work(): the
   handler's function is a context under work.  Then SIGALRM every 100us
   while spin() makes three million calls: the handler lands anywhere, in
   the probes too; every context stays right (on_alarm only ever calls
   inner, never nests) and every count exact.  */
// expect: node main/work/on_signal calls=3 rec=0 nctx=1 paths=0:3
// expect: node main/work/on_signal/inner calls=3 rec=0 nctx=1 paths=0:3
// expect: node main/work calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/spin calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/spin/leaf calls=3000000 rec=0 nctx=1 paths=0:3000000
// expect: fn leaf calls=3000000
// expect: fn on_alarm calls=${alarms}
// expect: fn inner calls=${inner}
// expect-re: ^node main/spin(/leaf)?/on_alarm/inner calls=
// absent-re: on_alarm/(leaf|on_alarm|spin|work)
// absent-re: inner/
// output-re: ^var alarms=[1-9][0-9]*$
#include "hand.h"
#include <signal.h>
#include <stdio.h>

DESC (main, 1);
DESC (work, 1);
DESC (on_signal, 1);
DESC (inner, 1);
DESC (spin, 1);
DESC (leaf, 1);
DESC (on_alarm, 1);
UNIT (&main_desc, &work_desc, &on_signal_desc, &inner_desc, &spin_desc,
      &leaf_desc, &on_alarm_desc)

static volatile long sink;
static volatile int alarms, three = 3;

NOINLINE static void
inner (void)
{
  ENTER (inner);
  sink++;
  PATH (0);
  EXIT ();
}

NOINLINE static void
on_signal (int sig)
{
  ENTER (on_signal);
  inner ();
  PATH (0);
  EXIT ();
}

NOINLINE static void
on_alarm (int sig)
{
  ENTER (on_alarm);
  alarms++;
  inner ();
  PATH (0);
  EXIT ();
}

NOINLINE static void
work (void)
{
  ENTER (work);
  for (int i = 0; i < three; i++)
    raise (SIGUSR1);
  PATH (0);
  EXIT ();
}

NOINLINE static void
leaf (void)
{
  ENTER (leaf);
  sink++;
  PATH (0);
  EXIT ();
}

NOINLINE static void
spin (void)
{
  ENTER (spin);
  /* One call site, so one context: GCC 13 and later unroll small loops
     at -O2 on x86-64 (-munroll-only-small-loops), which gave leaf two.  */
#if __GNUC__ >= 13
#pragma GCC unroll 1
#endif
  for (int i = 0; i < 3000000; i++)
    leaf ();
  PATH (0);
  EXIT ();
}

int
main (void)
{
  ENTER (main);
  signal (SIGUSR1, on_signal);
  work ();
  hand_alarm_every (on_alarm, 100);
  spin ();
  hand_alarm_every (NULL, 0);
  PATH (0);
  EXIT ();
  printf ("var alarms=%d\nvar inner=%d\n", alarms, alarms + 3);
  return 0;
}
