/* A computed-goto interpreter.  Its dispatch block (`goto *ops[...]',
   one block that GCC factors every jump through) ends each path inside
   it and is entered after every bytecode, so the one-block path that
   restarts there runs once per bytecode: no probe counts it, readers
   derive its count from the bytecodes' paths that end at the breaks
   into it (lib/placement.c, pp_plan_derived).  A bytecode whose call
   longjmps out of run never reaches the dispatch: neither its path nor
   a dispatch counts.  */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf out;

__attribute__ ((noinline)) static void
check (long acc)
{
  if (acc > 100000)
    longjmp (out, 1);
}

__attribute__ ((noinline)) static long
run (const unsigned char *pc, long acc)
{
  static const void *const ops[] = { &&op_add, &&op_dbl, &&op_loop,
                                     &&op_chk, &&op_halt };
  int n = 0;
#define NEXT goto *ops[*pc++]
  NEXT;
op_add:
  acc += 3;
  NEXT;
op_dbl:
  if (acc < 50)
    acc *= 2;
  NEXT;
op_loop:
  if (++n < 4)
    pc -= 3;
  NEXT;
op_chk:
  check (acc);
  NEXT;
op_halt:
  return acc;
}

int
main (void)
{
  static const unsigned char loop4[] = { 0, 1, 2, 3, 4 };
  static const unsigned char bail[] = { 3, 4 };
  long s = 0;
  for (int k = 0; k < 3; k++)
    s += run (loop4, 1 + k);
  if (!setjmp (out))
    s += run (bail, 200000);
  printf ("%ld\n", s);
  return 0;
}
// run is entered 4 times; loop4 runs add, dbl and loop 4 times each
// (dbl doubles 3 times, then acc is 53, 56 or 59), chk and halt once.
// 13 bytecodes per loop4 run reach the dispatch: 39 dispatches, derived.
// bail's chk longjmps out of check: its path and its dispatch count
// nothing.
// expect-paths: run 9
// expect: run 4 26 27 28
// expect: run 39
// expect: run 12 29 30 31
// expect: run 9 32 33 34 35
// expect: run 3 32 33 35
// expect: run 9 36 37 38 39
// expect: run 3 36 37 39
// expect: run 3 40 41 42
// expect: run 3 43 44
