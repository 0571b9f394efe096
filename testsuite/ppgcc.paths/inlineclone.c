/* A helper that -O2 inlines once GCC has split it and cloned the part:
   lua's hashint.  fnsplit makes hashint.part.0 of one arm, IPA-SRA clones
   that (hashint.part.0.isra), and the clone, whose body GCC makes only
   after inlining, kept the summary the part had before the probes were
   taken out of it: 3 more than -O2's, and hashint then missed
   max-inline-insns-auto in its three callers.  inlinesize.exp checks the
   calls in the assembly; here, the counts.  */
#include <stdio.h>

typedef struct
{
  long key;
  long value;
  int next;
} node;

typedef struct
{
  unsigned char flags;
  unsigned char lsizenode;
  node *node;
} table;

static node *
hashint (const table *t, long long i)
{
  unsigned long long ui = (unsigned long long) i;
  if (ui <= (unsigned int) 2147483647)
    return &t->node[(int) ui % (((1 << t->lsizenode) - 1) | 1)];
  else
    return &t->node[ui % (((1 << t->lsizenode) - 1) | 1)];
}

__attribute__ ((noinline)) const node *
getint (const table *t, long long key)
{
  const node *n = hashint (t, key);
  for (;;)
    {
      if (n->key == key)
        return n;
      if (n->next == 0)
        return NULL;
      n += n->next;
    }
}

__attribute__ ((noinline)) const node *
mainposition (const table *t, long long key)
{
  const node *n = hashint (t, key);
  while (n->next > 1)
    n += n->next;
  return n;
}

__attribute__ ((noinline)) long
bucket (const table *t, long long key)
{
  long b = 0;
  for (const node *n = hashint (t, key); n->next; n += n->next)
    b++;
  return b;
}

int
main (void)
{
  node slots[8];
  for (int j = 0; j < 8; j++)
    {
      slots[j].key = (j * 5) % 8;
      slots[j].value = j;
      slots[j].next = j < 7 ? 1 : 0;
    }
  table t = { 0, 3, slots };
  long found = 0;
  for (long long k = -2; k < 10; k++)
    {
      found += getint (&t, k) != NULL;
      found += mainposition (&t, k * 3)->value;
      found += bucket (&t, k + 100);
    }
  printf ("%ld\n", found);
  return 0;
}
// hashint: 36 calls, 4 with a negative key (getint's -2 and -1,
// mainposition's -6 and -3).  getint finds 0 to 4, 6 and 7, walking
// forward from slot key % 7; not 5 (its slot lies behind), 8, 9, -2, -1.
// expect: hashint 32 27 28 29
// expect: hashint 4 27 28 31
// expect: getint 4 37 40 41
// expect: getint 8 37 40 42 44
// expect: getint 29 40 42 44
// expect: getint 3 40 41
// expect: getint 5 40 42 43
// expect: mainposition 12 51 52 54
// expect: bucket 12 60 61 62
// expect: bucket 41 61 62
// expect: bucket 12 61 63
