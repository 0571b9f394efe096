/* Callee slots of functions with calls (rt_abi.h, doc/cct.md): every
   function enters inline through the slot its caller stored before the
   call, and restores its caller's at its return.  a and b call each
   other: a's calls under b fold onto a's context (a back edge, filled in
   b's slot like any other: counted recursive there), b's calls under the
   folded a are the tree child's again (not recursive: only calls through
   a back edge are).  SIGALRM every 100us lands anywhere, in the inline
   entries and between a store and its call too, and its handler calls
   hmid (not mid: under mid, that call would fold onto mid's context)
   through a slot of its own: every count stays exact, every context
   right.  */
// expect: node main/spin calls=1 rec=0 nctx=1 paths=0:1
// expect: node main/spin/mid calls=1000000 rec=0 nctx=1 paths=0:1000000
// expect: node main/spin/mid/leaf calls=1000000 rec=0 nctx=1 paths=0:1000000
// expect: node main/spin/a calls=3000000 rec=2000000 nctx=1 paths=0:3000000
// expect: node main/spin/a/b calls=2000000 rec=0 nctx=1 paths=0:2000000
// expect: fn mid calls=1000000
// expect: fn leaf calls=${leaves}
// expect: fn on_alarm calls=${alarms}
// expect: fn hmid calls=${alarms}
// expect-re: ^node main/spin(/mid(/leaf)?|/a(/b)?)?/on_alarm/hmid calls=
// expect-re: ^node main/spin(/mid(/leaf)?|/a(/b)?)?/on_alarm/hmid/leaf calls=
// absent-re: on_alarm/(spin|a|b|on_alarm|leaf|mid)
// absent-re: (leaf|mid|hmid)/(mid|a|b)
// output-re: ^var alarms=[1-9][0-9]*$
#include "hand.h"
#include <signal.h>
#include <stdio.h>

DESC_SITES (main, 1, 1);
DESC_SITES (spin, 1, 2);
DESC_SITES (mid, 1, 1);
DESC_SITES (hmid, 1, 1);
DESC (leaf, 1);
DESC_SITES (a, 1, 1);
DESC_SITES (b, 1, 1);
DESC_SITES (on_alarm, 1, 1);
UNIT (&main_desc, &spin_desc, &mid_desc, &hmid_desc, &leaf_desc, &a_desc,
      &b_desc, &on_alarm_desc)

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
mid (void)
{
  ENTER_SLOT (mid);
  SITE (0);
  leaf ();
  PATH (0);
  EXIT_SLOT ();
}

NOINLINE static void
hmid (void)
{
  ENTER_SLOT (hmid);
  SITE (0);
  leaf ();
  PATH (0);
  EXIT_SLOT ();
}

NOINLINE static void b (int n);

NOINLINE static void
a (int n)
{
  ENTER_SLOT (a);
  if (n > 0)
    {
      SITE (0);
      b (n);
    }
  PATH (0);
  EXIT_SLOT ();
}

NOINLINE static void
b (int n)
{
  ENTER_SLOT (b);
  SITE (0);
  a (n - 1);
  PATH (0);
  EXIT_SLOT ();
}

NOINLINE static void
on_alarm (int sig)
{
  ENTER_SLOT (on_alarm);
  alarms++;
  SITE (0);
  hmid ();
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
      mid ();
      SITE (1);
      a (2);
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
  printf ("var alarms=%d\nvar leaves=%d\n", alarms, 1000000 + alarms);
  return 0;
}
