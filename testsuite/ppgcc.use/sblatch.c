/* A loop latch that joins two hot paths (sblatch.exp), the shape of
   bzip2's copy_input_until_stop: fill's loop is left at its top, and its
   latch (the block that advances the input and tests the total's
   overflow) is entered from both arms of `c != s->last`, 57% and 43% of
   the time.  A copy of the latch per arm gave bzip2's loop a latch per path
   and cost about two instructions a character.  */
#include <stdio.h>

#define MAX 100000

struct state
{
  const unsigned char *next;
  unsigned avail, total, total_hi, len, last, runs;
  unsigned char block[MAX];
};

static struct state st;
static unsigned char input[200000];

static int __attribute__ ((noinline))
fill (struct state *s)
{
  int progress = 0;
  while (1)
    {
      if (s->len >= MAX)
        break;
      if (s->avail == 0)
        break;
      progress = 1;
      unsigned c = *s->next;
      if (c != s->last)
        {
          s->block[s->len++] = (unsigned char) c;
          s->last = c;
        }
      else
        s->runs++;
      s->next++;
      s->avail--;
      s->total++;
      if (s->total == 0)
        s->total_hi++;
    }
  return progress;
}

int
main (void)
{
  unsigned seed = 7;
  for (unsigned k = 0; k < sizeof input; k++)
    {
      seed = seed * 1103515245u + 12345u;
      /* About one character in three repeats the one before.  */
      input[k] = k && (seed >> 16) % 3 == 0 ? input[k - 1]
                                            : (unsigned char) ((seed >> 20) % 7);
    }
  st.next = input;
  st.avail = sizeof input;
  st.last = 256;
  long check = 0;
  while (fill (&st))
    {
      for (unsigned k = 0; k < st.len; k++)
        check = check * 31 + st.block[k];
      st.len = 0;
    }
  printf ("%u %u %u %ld\n", st.total, st.runs, st.total_hi, check);
  return 0;
}
