/* A bytecode interpreter with a computed-goto dispatch (lua's shape):
   each handler ends in its own `goto *dispatch[...]`; ppgcc.record/lines.exp
   recompiles it from its samples.  */
#include <stdio.h>
#include <stdlib.h>

enum { PUSH, ADD, SUB, MUL, XOR, DUP, SWAP, POP, SHL, SHR, JNZ, DEC, HALT };

static const unsigned char prog[] = {
  PUSH, 7, PUSH, 3, ADD, DUP, MUL, PUSH, 5, XOR, PUSH, 2, SHL, PUSH, 1, SHR,
  SWAP, SUB, POP, DEC, JNZ, 0, HALT
};

__attribute__ ((noinline)) long
run (long n)
{
  static const void *dispatch[] = { &&push, &&add, &&sub, &&mul, &&xor_, &&dup,
                                    &&swap, &&pop, &&shl, &&shr, &&jnz, &&dec,
                                    &&halt };
  long stack[64], *sp = stack, acc = 0, count = n;
  const unsigned char *pc = prog;
#define NEXT goto *dispatch[*pc++]
  NEXT;
push: *sp++ = *pc++; NEXT;
add: sp[-2] += sp[-1]; sp--; NEXT;
sub: sp[-2] -= sp[-1]; sp--; NEXT;
mul: sp[-2] *= sp[-1]; sp--; NEXT;
xor_: sp[-2] ^= sp[-1]; sp--; NEXT;
dup: sp[0] = sp[-1]; sp++; NEXT;
swap: { long t = sp[-1]; sp[-1] = sp[-2]; sp[-2] = t; } NEXT;
pop: acc += *--sp; NEXT;
shl: sp[-2] <<= sp[-1]; sp--; NEXT;
shr: sp[-2] >>= sp[-1]; sp--; NEXT;
dec: count--; NEXT;
jnz: if (count > 0) { pc = prog + *pc; sp = stack; } else pc++; NEXT;
halt: return acc;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000;
  printf ("%ld\n", run (n));
  return 0;
}
