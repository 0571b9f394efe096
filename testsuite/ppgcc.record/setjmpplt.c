/* setjmp and longjmp, sigsetjmp and siglongjmp, millions of times, each
   call through the PLT: the shape of Lua's coroutines (every yield is a
   _longjmp to the _setjmp of lua_resume).  A sample that lands in
   setjmp's PLT stub finds a frame whose return address setjmp is about
   to keep in the jmp_buf: a trampoline's address there sends a later
   longjmp wherever the mark of the day returns.  The program prints
   what it computed, the same under the sampler as without it.
     setjmpplt [N]   N rounds (default 2,000,000: 0.1 s)  */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static sigjmp_buf senv;
volatile unsigned long sink;

__attribute__ ((noipa)) static void
step (unsigned long i)
{
  sink = sink * 31 + i;
  if (i % 3)
    longjmp (env, (int) (i % 7) + 1);
}

__attribute__ ((noipa)) static void
sstep (unsigned long i)
{
  sink = sink * 17 + i;
  if (i % 5)
    siglongjmp (senv, (int) (i % 11) + 1);
}

/* one setjmp per call (through _setjmp@plt): the value longjmp passed,
   or 0 */
__attribute__ ((noipa)) static int
once (unsigned long i)
{
  int r = setjmp (env);
  if (r)
    return r;
  step (i);
  return 0;
}

/* through __sigsetjmp@plt */
__attribute__ ((noipa)) static int
sonce (unsigned long i)
{
  int r = sigsetjmp (senv, 0);
  if (r)
    return r;
  sstep (i);
  return 0;
}

int
main (int argc, char **argv)
{
  unsigned long n = argc > 1 ? strtoul (argv[1], NULL, 10) : 2000000;
  unsigned long sum = 0;
  for (unsigned long i = 0; i < n; i++)
    sum = sum * 3 + (unsigned long) once (i) + (unsigned long) sonce (i);
  printf ("%lu %lu\n", sum, sink);
  return 0;
}
