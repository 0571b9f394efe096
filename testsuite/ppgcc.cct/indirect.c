/* One indirect call site taking turns among three callees: its callee
   slot holds one callee at a time, so every call misses the slot, and
   after the first three the thread's cache of links answers
   (__pp_enter_slot_cached, cct_slot_x86_64.S: general registers only).
   Each context's calls and paths must stay exact, the callees' own
   callee slots too.  */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

__attribute__ ((noinline)) static void
leaf (int x)
{
  sink += x;
}

__attribute__ ((noinline)) static void
op0 (int x)
{
  leaf (x);
}

__attribute__ ((noinline)) static void
op1 (int x)
{
  leaf (x + 1);
  leaf (x);
}

__attribute__ ((noinline)) static void
op2 (int x)
{
  sink -= x;
}

void (*ops[3]) (int) = { op0, op1, op2 };

__attribute__ ((noinline)) static void
dispatch (int n)
{
  for (int i = 0; i < n; i++)
    ops[i % 3] (i);
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 3000;
  dispatch (n);
  printf ("%d\n", sink);
  return 0;
}
