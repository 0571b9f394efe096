/* PLDI'97 Figure 4's shape: C is called in two contexts, M->A->C and
   M->D->C, and A in two, M->A and M->D->A; the call graph's M->D->A->C
   never happens.  Counts differ per context so that a merge of contexts
   shows.  */
#include <stdio.h>

static volatile int sink;

void B (void) { sink += 1; }
void C (void) { sink += 10; }

void
A (int x)
{
  B ();
  if (x)
    C ();
}

void
D (void)
{
  A (0);
  C ();
  C ();
}

int
main (void)
{
  for (int i = 0; i < 3; i++)
    A (1);
  D ();
  D ();
  printf ("%d\n", sink);
  return 0;
}
