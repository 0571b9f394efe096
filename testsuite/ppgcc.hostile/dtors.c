/* Paths run in destructors (default and with a priority) and in an atexit
   handler are counted like those of main: the runtime writes after the
   program's last destructor.  Each function runs a known number of times
   per run.  */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

__attribute__ ((noinline)) static void
f_main (void)
{
  sink++;
}

__attribute__ ((noinline)) static void
f_atexit (void)
{
  sink++;
}

__attribute__ ((noinline)) static void
f_dtor (void)
{
  sink++;
}

__attribute__ ((noinline)) static void
f_dtor101 (void)
{
  sink++;
}

__attribute__ ((noinline)) static void
f_dtor500 (void)
{
  sink++;
}

static void
at_exit (void)
{
  for (int i = 0; i < 2; i++)
    f_atexit ();
}

__attribute__ ((destructor)) static void
dtor (void)
{
  for (int i = 0; i < 3; i++)
    f_dtor ();
}

__attribute__ ((destructor (101))) static void
dtor101 (void)
{
  for (int i = 0; i < 4; i++)
    f_dtor101 ();
  /* Printed after main's line: the destructors ran.  */
  printf ("last destructor: sink %d\n", sink);
}

__attribute__ ((destructor (500))) static void
dtor500 (void)
{
  for (int i = 0; i < 5; i++)
    f_dtor500 ();
}

int
main (void)
{
  atexit (at_exit);
  f_main ();
  printf ("main: sink %d\n", sink);
  return 0;
}
