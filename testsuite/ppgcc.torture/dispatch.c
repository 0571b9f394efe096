/* A computed-goto interpreter (the shape of Lua's and CPython's main
   loops) calling static helpers, some of them inlined: every mode must
   keep the program's output and agree on its profile.  */
#include <stdio.h>

enum { PUSH, ADD, MUL, DUP, JNZ, DEC, PRINT, HALT };

static int stack[64];
static int sp;

static inline void
push (int v)
{
  stack[sp++] = v;
}

static inline int
pop (void)
{
  return stack[--sp];
}

__attribute__ ((noinline)) static int
run (const int *code)
{
  static const void *ops[] = { &&op_push, &&op_add, &&op_mul, &&op_dup,
                               &&op_jnz, &&op_dec, &&op_print, &&op_halt };
  int pc = 0, printed = 0;
#define NEXT goto *ops[code[pc++]]
  NEXT;
op_push:
  push (code[pc++]);
  NEXT;
op_add:
  push (pop () + pop ());
  NEXT;
op_mul:
  push (pop () * pop ());
  NEXT;
op_dup:
  {
    int v = pop ();
    push (v);
    push (v);
  }
  NEXT;
op_jnz:
  {
    int target = code[pc++];
    if (pop ())
      pc = target;
  }
  NEXT;
op_dec:
  push (pop () - 1);
  NEXT;
op_print:
  printf ("%d\n", stack[sp - 1]);
  printed++;
  NEXT;
op_halt:
  return printed;
#undef NEXT
}

int
main (void)
{
  /* acc = 1; n = 6; do { acc *= n; print; } while (--n) */
  static const int code[] = { PUSH, 6, PUSH, 1,           /* n acc */
                              MUL, PRINT, PUSH, 0, ADD,   /* 4: acc*n */
                              HALT };
  int printed = run (code);
  static const int loop[] = { PUSH, 5, DUP, PRINT, DEC, DUP, JNZ, 2, HALT };
  printed += run (loop);
  printf ("printed %d\n", printed);
  return 0;
}
