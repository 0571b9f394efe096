/* What -fprofile-paths-switch=entry forwards to an instrumented copy, and
   what keeps one body with tests at its path ends: structures by value
   and returned, floating point, recursion, always_inline, variable-length
   arrays, a nested function and its parent, cleanups, a parameter whose
   address is taken (copied), and
   variable arguments, setjmp, computed goto, noreturn (kept).  Rounds 0
   and 2 run with profiling on, round 1 off: fact counts the 5 + 7 calls of
   rounds 0 and 2, in either kind of function.  */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void __pp_profile_on (void) __attribute__ ((weak));
void __pp_profile_off (void) __attribute__ ((weak));

struct big { int a[16]; };
struct small { int x, y; };

static struct big
mkbig (int k)
{
  struct big b;
  for (int i = 0; i < 16; i++)
    b.a[i] = i * k;
  return b;
}

static struct small
mksmall (struct small s, struct big b)
{
  struct small r = { s.x + b.a[3], s.y - b.a[5] };
  if (r.x > 100)
    r.x -= 7;
  return r;
}

static int
sum (int n, ...)
{
  va_list ap;
  va_start (ap, n);
  int s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg (ap, int);
  va_end (ap);
  return s;
}

static inline __attribute__ ((always_inline)) int
ai (int x)
{
  return x > 3 ? x * 2 : x - 1;
}

__attribute__ ((noinline)) int
fact (int n)
{
  return n <= 1 ? 1 : n * fact (n - 1);
}

static int
vla (int n)
{
  int a[n];
  for (int i = 0; i < n; i++)
    a[i] = i;
  int s = 0;
  for (int i = 0; i < n; i++)
    if (a[i] & 1)
      s += a[i];
  return s;
}

static jmp_buf jb;

static int
sj (int n)
{
  volatile int r = 0;
  if (setjmp (jb))
    return r + 1;
  r = n;
  if (n > 2)
    longjmp (jb, 1);
  return r;
}

static int
nested (int n)
{
  int acc = 0;
  void add (int v) { acc += v; }
  for (int i = 0; i < n; i++)
    if (i & 1)
      add (i);
  return acc;
}

static void
zero (int *p)
{
  *p = 0;
}

static int
cl (int n)
{
  int __attribute__ ((cleanup (zero))) c = n;
  return c * 2;
}

/* A parameter whose address is taken (found by csmith).  */
static signed char
addressed (signed char c, struct small s)
{
  signed char *p = &c;
  *p += (signed char) s.x;
  return c;
}

static double
fl (double d, float f)
{
  return d > f ? d - f : f * 2.0;
}

static int
computed (int n)
{
  static void *t[] = { &&a, &&b };
  goto *t[n & 1];
a:
  return n + 1;
b:
  return n - 1;
}

__attribute__ ((noreturn)) static void
die (int x)
{
  if (x)
    exit (x);
  abort ();
}

int
main (int argc, char **argv)
{
  (void) argv;
  long t = 0;
  for (int round = 0; round < 3; round++)
    {
      if (round == 1 && __pp_profile_off)
        __pp_profile_off ();
      if (round == 2 && __pp_profile_on)
        __pp_profile_on ();
      struct big b = mkbig (round + argc);
      struct small s = { 1, 2 };
      s = mksmall (s, b);
      t += s.x + s.y + sum (3, 1, 2, round) + ai (round + 2)
           + fact (round + 5) + vla (10 + round) + sj (round + 1)
           + nested (round + 7) + cl (round) + (long) fl (round, 1.5f)
           + computed (round) + addressed ((signed char) round, s);
    }
  printf ("%ld\n", t);
  if (argc > 5)
    die (argc);
  return 0;
}
