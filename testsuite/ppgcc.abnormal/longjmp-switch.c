/* A __builtin_longjmp out of a callee back to main's __builtin_setjmp:
   with -fprofile-paths-switch the flag test split GCC's dispatcher block
   and the program hung.  */
#include <stdio.h>

void *buf[5];

__attribute__ ((noinline)) void
jump (void)
{
  __builtin_longjmp (buf, 1);
}

int
main (void)
{
  if (__builtin_setjmp (buf))
    {
      puts ("back");
      return 0;
    }
  jump ();
  puts ("not reached");
  return 1;
}
// main (every call in it may jump to the receiver, so each ends a path):
// entry to the setup, the way to jump (), the receiver, the dispatcher
// (no line), from the receiver's test to puts, and puts to the return.
// expect-paths: jump 1
// expect: jump 1 11
// expect-paths: main 6
// expect: main 1 17 22
// expect: main 1
// expect: main 1 17 19
// expect: main 1 20
