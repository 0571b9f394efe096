/* A threaded-code interpreter under -fprofile-paths-switch=entry: run
   keeps its labels' addresses in a static table and jumps through it,
   which GCC will not copy by itself; =entry gives its copy run.pp_on a
   table of its own, and its own labels where a load from the table was
   folded.  sq is public and small: the unit's calls of it test
   the flag at the call and go to its plain copy or its instrumented one.
   run is called 8 times with the same program: 3 while profiling is on,
   5 while it is off, so every path of run and sq counts 3/8 of what an
   always-on build counts.  */
#include <stdio.h>

void __pp_profile_off (void) __attribute__ ((weak));

int
sq (int x)
{
  return x * x % 1009;
}

long __attribute__ ((noinline))
run (const unsigned char *code, long acc)
{
  static const void *const ops[] = { &&op_inc, &&op_sq, &&op_halve,
                                     &&op_halt };
  const unsigned char *pc = code;
#define NEXT goto *ops[*pc++]
  /* A jump through the table at a constant index: copying run folds the
     load into a label's address, which must be the copy's label (it was
     the original's, and the copy ran on in run's body).  */
  goto *ops[sizeof ops / sizeof ops[0] - 4];
op_inc:
  acc += 3;
  NEXT;
op_sq:
  acc = sq ((int) acc);
  NEXT;
op_halve:
  if (acc & 1)
    acc = acc * 3 + 1;
  else
    acc /= 2;
  NEXT;
op_halt:
  return acc;
}

int
main (void)
{
  unsigned char prog[40];
  for (int i = 0; i < 39; i++)
    prog[i] = (i * 7 + i / 5) % 3;
  prog[39] = 3;
  long s = 0;
  for (int k = 0; k < 8; k++)
    {
      if (k == 3 && __pp_profile_off)
        __pp_profile_off ();
      s += run (prog, 5) + k;
    }
  printf ("%ld\n", s);
  return 0;
}
