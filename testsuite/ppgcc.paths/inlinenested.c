/* A public function that -O2 inlines only once its own static helper is
   inlined in it: mujs's js_iscallable (with stackidx) in js_call.  The
   helper's probes came off the summary's entries that are dropped where
   it is inlined (its return), so iscallable, with stackidx in it, weighed
   2 more than without probes and missed max-inline-insns-auto in call.
   inlinesize.exp checks the calls in the assembly; here, the counts.  */
#include <stdio.h>
#include <stdlib.h>

typedef struct { int type; } obj;
typedef struct { obj *object; int tag; } val;
typedef struct { val *stack; int top, bot; } vm;

static val *
stackidx (vm *J, int idx)
{
  static val undef;
  if (idx < 0)
    idx = J->top + idx;
  else
    idx = J->bot + idx;
  if (idx < 0 || idx >= J->top)
    return &undef;
  return J->stack + idx;
}

int
iscallable (vm *J, int idx)
{
  val *v = stackidx (J, idx);
  if (v->tag == 7)
    return v->object->type == 1 || v->object->type == 2
           || v->object->type == 3;
  return 0;
}

__attribute__ ((noreturn, noinline)) void
fail (const char *why)
{
  puts (why);
  exit (1);
}

int
call (vm *J, int n)
{
  if (n < 0)
    fail ("negative");
  if (!iscallable (J, -n - 2))
    fail ("not callable");
  return J->stack[J->top - n - 2].object->type;
}

int
main (void)
{
  obj f = { 2 }, g = { 5 };
  val s[4] = { { &g, 7 }, { &f, 7 }, { &f, 7 }, { &f, 3 } };
  vm J = { s, 4, 0 };
  long t = 0;
  for (int i = 0; i < 100; i++)
    t += call (&J, i & 1) + iscallable (&J, i % 6 - 1);
  printf ("%ld\n", t);
  return 0;
}
// call always finds a function: s[2] (n 0), s[1] (n 1).  iscallable's
// own calls take i % 6 - 1: -1 (s[3], tag 3), 0 (s[0], type 5), 1, 2,
// 3 (s[3]) and 4 (past the top): 17 of each of the first four, 16 of
// the last two.  stackidx: negative 100 + 17, in range 17 * 3 + 16, past
// the top 16.  234 = 2 * 100 + 2 * 17 (s[1] and s[2] hold type 2).
// expect: stackidx 117 18 19 22 24
// expect: stackidx 67 18 21 22 24
// expect: stackidx 16 18 21 22 23
// expect-paths: stackidx 3
// expect: call 100 47 49 51
// expect: main 1 57 58 59 60 61 62
// expect: main 99 61 62
// expect: main 1 61 63 64
