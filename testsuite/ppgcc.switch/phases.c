/* Switchable profiling: work runs 10 times, then 100 times with profiling
   off, then 5 times on again (through the API, or through the signal named
   by PPGCC_SWITCH_SIGNAL when the program's argument is "signal").  Each
   call runs 30 iterations: 20 take the if, 10 the else.  */
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* Weak: the same program builds with plain gcc, where they are absent.  */
void __pp_profile_on (void) __attribute__ ((weak));
void __pp_profile_off (void) __attribute__ ((weak));

__attribute__ ((noinline)) int
work (int x)
{
  int s = 0;
  for (int i = 0; i < x; i++)
    if (i % 3)
      s += i;
    else
      s -= 1;
  return s;
}

int
main (int argc, char **argv)
{
  int by_signal = argc > 1 && !strcmp (argv[1], "signal");
  long t = 0;
  for (int k = 0; k < 10; k++)
    t += work (30);
  if (by_signal)
    raise (SIGUSR2);  /* only with PPGCC_SWITCH_SIGNAL=USR2 */
  else if (__pp_profile_off)
    __pp_profile_off ();
  for (int k = 0; k < 100; k++)
    t += work (30);
  if (by_signal)
    raise (SIGUSR2);
  else if (__pp_profile_on)
    __pp_profile_on ();
  for (int k = 0; k < 5; k++)
    t += work (30);
  printf ("%ld\n", t);
  return 0;
}
