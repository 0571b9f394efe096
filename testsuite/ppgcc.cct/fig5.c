/* PLDI'97 Figure 5's shape: A and B recursive through each other.  The
   recursive activations of A fold onto its first record (a backedge in
   the CCT, §4.1), so the tree stays M -> A -> {B, C}.  */
#include <stdio.h>

static volatile int sink;

void C (void) { sink += 100; }
void A (int n);
void B (int n) { A (n - 1); }

void
A (int n)
{
  if (n > 0)
    B (n);
  else
    C ();
}

int
main (void)
{
  A (3);
  printf ("%d\n", sink);
  return 0;
}
