/* Local callees follow their caller (-fprofile-paths-switch=entry): a
   static function called only directly and only from functions that have
   an instrumented copy loses its entry test, and runs its own copy exactly
   when its caller runs the caller's.
   loop is public: loop (10, 4, 0) is entered while on and turns profiling
   off in its fifth iteration; loop (10, 6, 1), entered while off, turns it
   on in its seventh.  inner (static, called by loop) and leaf (static,
   called by inner) follow loop: all ten calls of leaf in the first loop
   count (five odd, five even), none in the second.  aleaf, whose address
   is taken, keeps its entry test: counted for i = 0..3 and 6..9 (four odd,
   four even).  both, static, is called by inner and by the variadic va,
   which has no copy: va tests the flag at its call of both instead, and
   both follows its callers too: its one path counts the ten calls from
   the first loop (following inner) and the one from va (made while on),
   11; the plain inner of the second loop calls plain both, also after
   the flag came on.  */
#include <stdarg.h>
#include <stdio.h>

void __pp_profile_on (void) __attribute__ ((weak));
void __pp_profile_off (void) __attribute__ ((weak));

static int
leaf (int x)
{
  return x & 1 ? x * 3 : x / 2;
}

static int
aleaf (int x)
{
  return x & 1 ? x * 5 : x / 3;
}

static int
both (int x)
{
  return x + 1;
}

int (*volatile fp) (int) = aleaf;

static long
inner (int n, int flip_at, int to_on)
{
  long s = 0;
  for (int i = 0; i < n; i++)
    {
      if (i == flip_at && to_on && __pp_profile_on)
        __pp_profile_on ();
      else if (i == flip_at && !to_on && __pp_profile_off)
        __pp_profile_off ();
      s += leaf (i) + fp (i) + both (i);
    }
  return s;
}

__attribute__ ((noinline)) long
loop (int n, int flip_at, int to_on)
{
  return inner (n, flip_at, to_on) + 1;
}

static int
va (int n, ...)
{
  va_list ap;
  va_start (ap, n);
  int s = 0;
  for (int i = 0; i < n; i++)
    s += both (va_arg (ap, int));
  va_end (ap);
  return s;
}

int
main (void)
{
  long t = loop (10, 4, 0);
  t += loop (10, 6, 1);
  t += va (1, 7);
  printf ("%ld\n", t);
  return 0;
}
