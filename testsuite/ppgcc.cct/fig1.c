/* csprof (Froyd, Mellor-Crummey, Fowler, ICS'05) Figure 1, smaller: c's
   cost depends on its argument, a and b call it through a pointer; the
   calling context tree must keep c under a (2 calls, 2 x 4096 iterations)
   apart from c under b (4 calls, 4 x 2048 iterations).  */
#include <stdio.h>

#define HUGE (1 << 12)
static volatile int sink;

void d (void) { sink++; }
void c (int n) { int i; for (i = 0; i < HUGE / n; ++i) d (); }
void b (void (*f) (int)) { f (2); f (2); f (2); f (2); }
void a (void (*f) (int)) { f (1); f (1); }

int
main (void)
{
  a (c);
  b (c);
  printf ("%d\n", sink);
  return 0;
}
