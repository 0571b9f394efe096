/* wordstat: counts lines, words, numbers and punctuation in its input and
   prints the five most frequent words.  The bundled example for ppgcc: a
   program with loops, a switch and early returns, so it has hot and cold
   paths to look at.  */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_SIZE 4096
#define WORD_MAX 64

struct entry
{
  char word[WORD_MAX];
  unsigned count;
};

static struct entry table[TABLE_SIZE];
static unsigned distinct;

static unsigned
hash (const char *s)
{
  unsigned h = 5381;
  while (*s)
    h = h * 33 + (unsigned char) *s++;
  return h;
}

static void
add_word (const char *w)
{
  unsigned i = hash (w) % TABLE_SIZE;
  while (table[i].count != 0)
    {
      if (strcmp (table[i].word, w) == 0)
        {
          table[i].count++;
          return;
        }
      i = (i + 1) % TABLE_SIZE;
    }
  if (distinct + 1 >= TABLE_SIZE)
    return; /* table full: ignore new words */
  strcpy (table[i].word, w);
  table[i].count = 1;
  distinct++;
}

static int
by_count (const void *a, const void *b)
{
  const struct entry *x = a, *y = b;
  if (x->count != y->count)
    return x->count < y->count ? 1 : -1;
  return strcmp (x->word, y->word);
}

int
main (void)
{
  unsigned lines = 0, words = 0, numbers = 0, punct = 0, len = 0;
  int in_number = 0, c;
  char word[WORD_MAX];
  while ((c = getchar ()) != EOF)
    {
      switch (c)
        {
        case '\n':
          lines++;
          /* fall through */
        case ' ':
        case '\t':
          break;
        case '.':
        case ',':
        case ';':
        case ':':
        case '!':
        case '?':
          punct++;
          break;
        default:
          if (isalpha (c))
            {
              if (len + 1 < WORD_MAX)
                word[len++] = (char) tolower (c);
              continue;
            }
          if (isdigit (c))
            {
              if (!in_number)
                numbers++;
              in_number = 1;
              continue;
            }
          break;
        }
      in_number = 0;
      if (len > 0)
        {
          word[len] = '\0';
          add_word (word);
          words++;
          len = 0;
        }
    }
  if (len > 0)
    {
      word[len] = '\0';
      add_word (word);
      words++;
    }
  printf ("%u lines, %u words (%u distinct), %u numbers, %u punctuation\n",
          lines, words, distinct, numbers, punct);
  qsort (table, TABLE_SIZE, sizeof table[0], by_count);
  for (int i = 0; i < 5 && table[i].count > 0; i++)
    printf ("%8u %s\n", table[i].count, table[i].word);
  return 0;
}
