/* Callee slots (rt_abi.h): spin stores its slot before each call of the
   leaves, whose entries are inline; SIGALRM every 100us lands anywhere,
   between a store and its call too, and its handler stores slots of its
   own (calling the same leaf, and a non-leaf): every count stays exact,
   every context right.  leaf has three sites in spin (two of them share
   slot 2, as one call statement the compiler duplicated would: their
   inline entries miss in turn), so three contexts, and one under the
   handler.  */
// expect: node main/spin calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/spin/leaf calls=3000000 rec=0 nctx=3 paths=0:3000000
// expect: node main/spin/other calls=1000000 rec=0 nctx=1 paths=0:1000000
// expect: fn leaf calls=${leaves}
// expect: fn other calls=1000000
// expect: fn on_alarm calls=${alarms}
// expect: fn inner calls=${alarms}
// expect-re: ^node main/spin(/leaf|/other)?/on_alarm/leaf calls=
// expect-re: ^node main/spin(/leaf|/other)?/on_alarm/inner calls=
// absent-re: on_alarm/(spin|other|on_alarm)
// absent-re: (leaf|inner|other)/leaf
// output-re: ^var alarms=[1-9][0-9]*$
#include "hand.h"
#include <signal.h>
#include <stdio.h>

DESC_SITES (main, 1, 1);
DESC_SITES (spin, 1, 3);
DESC (leaf, 1);
DESC (other, 1);
DESC (inner, 1);
DESC_SITES (on_alarm, 1, 2);
UNIT (&main_desc, &spin_desc, &leaf_desc, &other_desc, &inner_desc,
      &on_alarm_desc)

static volatile long sink;
static volatile int alarms;

NOINLINE static void
leaf (void)
{
  ENTER_LEAF (leaf);
  sink++;
  PATH (0);
}

NOINLINE static void
other (void)
{
  ENTER_LEAF (other);
  sink--;
  PATH (0);
}

NOINLINE static void
inner (void)
{
  ENTER_SLOT (inner);
  sink++;
  PATH (0);
  EXIT_SLOT ();
}

NOINLINE static void
on_alarm (int sig)
{
  ENTER_SLOT (on_alarm);
  alarms++;
  SITE (0);
  leaf ();
  SITE (1);
  inner ();
  PATH (0);
  EXIT_SLOT ();
}

NOINLINE static void
spin (void)
{
  ENTER_SLOT (spin);
  for (int i = 0; i < 1000000; i++)
    {
      SITE (0);
      leaf ();
      SITE (1);
      other ();
      SITE (2);
      leaf ();
      SITE (2);
      leaf ();
    }
  PATH (0);
  EXIT_SLOT ();
}

int
main (void)
{
  ENTER_SLOT (main);
  hand_alarm_every (on_alarm, 100);
  SITE (0);
  spin ();
  hand_alarm_every (NULL, 0);
  PATH (0);
  EXIT_SLOT ();
  printf ("var alarms=%d\nvar leaves=%d\n", alarms, 3000000 + alarms);
  return 0;
}
