/* A run merged into a .ppc file's text (the runtime's exit write): OLD's
   image and NOW go straight into the new image, the bytes ppc_decode,
   ppc_merge and ppc_encode would give, without decoding OLD into structs.
   A context NOW did not reach is its lines copied; one it did is its
   node line written again and its path lines merged by id (a path only
   OLD has copied as it is); a function's record is copied, its escaped
   CFG metadata never read.  sqlite3's exit write spent 67 M instructions
   decoding, merging, encoding and freeing its 2.8 MB profile (12,440
   contexts, 1,186 functions' metadata) the long way.

   It takes the common case only, and declines (1) the others, which the
   caller merges the long way: an older format, the other kind, another
   metric list, a function's other CFG version (PP_FN_OLDER, versions to
   keep or drop), escapes in a call site, sampled leaves in NOW.  */
#include "ppc_internal.h"
#include "hash_bytes.h"
#include "pp/sat.h"
#include "pp/rt_abi.h"

#include <stdlib.h>
#include <string.h>

/* A line cursor over OLD's body: the current line is [p, e), e at its
   '\n'; BAD once something is not as the writer writes it.  */
typedef struct
{
  const char *p, *e, *line, *next, *stop;
  int bad;
  unsigned long lines; /* lines stepped onto or over */
} tin;

/* The cursor's steps are a few instructions each and run for every
   context of the file: inline (as calls they were a third of the merge,
   lua's 17,000 contexts).  */
#define TIN_INLINE static inline __attribute__ ((always_inline))

/* Moves to the next line, which must start with KEYWORD and a space.  */
TIN_INLINE int
tin_line (tin *t, const char *keyword, size_t k)
{
  if (t->bad || t->next >= t->stop)
    return t->bad = 1, -1;
  t->line = t->p = t->next;
  t->e = memchr (t->p, '\n', (size_t) (t->stop - t->p));
  t->next = t->e + 1;
  t->lines++;
  if ((size_t) (t->e - t->p) <= k || memcmp (t->p, keyword, k) != 0
      || t->p[k] != ' ')
    return t->bad = 1, -1;
  t->p += k;
  return 0;
}

/* Skips N lines (their starts are not checked): the end of the last.  */
TIN_INLINE const char *
tin_skip (tin *t, uint64_t n)
{
  for (uint64_t i = 0; i < n && !t->bad; i++)
    {
      if (t->next >= t->stop)
        return t->bad = 1, t->next;
      t->next = (const char *) memchr (t->next, '\n',
                                       (size_t) (t->stop - t->next)) + 1;
      t->lines++;
    }
  return t->next;
}

/* Whether the next line starts with WORD (K bytes, at most 8): a word
   compare, not a memcmp call per path line.  */
TIN_INLINE int
tin_peek (const tin *t, const char *word, size_t k)
{
  if ((size_t) (t->stop - t->next) <= 8)
    return (size_t) (t->stop - t->next) > k && memcmp (t->next, word, k) == 0;
  uint64_t a, w = 0;
  memcpy (&a, t->next, 8);
  memcpy (&w, word, k);
  uint64_t mask = k == 8 ? ~0ull : (1ull << (8 * k)) - 1;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  a = __builtin_bswap64 (a);
  w = __builtin_bswap64 (w);
#endif
  return ((a ^ w) & mask) == 0;
}

/* " N".  */
TIN_INLINE uint64_t
tin_u64 (tin *t)
{
  if (t->bad || t->p >= t->e || *t->p != ' ')
    return t->bad = 1, 0;
  const char *p = ++t->p, *d = p;
  uint64_t v = 0;
  /* The line's '\n' (at E) ends the digits if nothing else does.  */
  while ((unsigned) (*p - '0') <= 9)
    v = v * 10 + (unsigned) (*p++ - '0');
  if (__builtin_expect ((size_t) (p - d) - 1 >= 19, 0) && p > d)
    {
      /* 2^64-1 has 20 digits: again, with the overflow test.  */
      v = 0;
      for (const char *q = d; q < p; q++)
        {
          unsigned c = (unsigned) (*q - '0');
          if (v > (UINT64_MAX - c) / 10)
            {
              t->bad = 1;
              break;
            }
          v = v * 10 + c;
        }
    }
  /* P is at most E: the '\n' there is no digit.  */
  if (p == d || (p < t->e && *p != ' '))
    t->bad = 1;
  t->p = p;
  return v;
}

/* " N" or " -" (UINT32_MAX).  */
TIN_INLINE uint32_t
tin_index (tin *t)
{
  if (!t->bad && t->e - t->p >= 2 && t->p[0] == ' ' && t->p[1] == '-')
    {
      t->p += 2;
      return UINT32_MAX;
    }
  uint64_t v = tin_u64 (t);
  if (v >= UINT32_MAX)
    t->bad = 1;
  return (uint32_t) v;
}

/* " \"...\"": the span from the opening to the closing quote, inclusive,
   escapes as written.  */
TIN_INLINE const char *
tin_str (tin *t, size_t *n)
{
  if (t->bad || t->e - t->p < 3 || t->p[0] != ' ' || t->p[1] != '"')
    return t->bad = 1, NULL;
  const char *s = t->p + 1, *q = s + 1;
  while (q < t->e && *q != '"')
    q += *q == '\\' ? 2 : 1;
  if (q >= t->e)
    return t->bad = 1, NULL;
  *n = (size_t) (q + 1 - s);
  t->p = q + 1;
  return s;
}

/* Eight bytes at a time (SWAR): a call site's key is about twenty, and
   every context's is scanned.  */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static inline uint64_t
load8 (const char *s)
{
  uint64_t w;
  memcpy (&w, s, 8);
  return w;
}

/* The N bytes at S (4 <= N <= 8) as one word: the first four and the
   last four (overlapping when N < 8).  */
static inline uint64_t
load4x2 (const char *s, size_t n)
{
  uint32_t a, b;
  memcpy (&a, s, 4);
  memcpy (&b, s + n - 4, 4);
  return (uint64_t) a | (uint64_t) b << 32;
}

/* Nonzero when a byte of W is 0 (and maybe falsely for the bytes above
   one that is: callers look at the bytes then).  */
static inline uint64_t
has_zero (uint64_t w)
{
  return (w - ONES) & ~w & HIGHS;
}

/* The first '"' or '\\' in [Q, E), or E.  */
static inline const char *
quote_or_backslash (const char *q, const char *e)
{
  while (e - q >= 8)
    {
      uint64_t w = load8 (q);
      uint64_t m = has_zero (w ^ (ONES * '"')) | has_zero (w ^ (ONES * '\\'));
      if (m)
        {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
          /* The lowest flag is the first such byte's (the false ones
             are only above a true one).  */
          return q + (__builtin_ctzll (m) >> 3);
#else
          break;
#endif
        }
      q += 8;
    }
  while (q < e && *q != '"' && *q != '\\')
    q++;
  return q;
}

/* Whether the N bytes at S are written as they are in a STRING field
   (0x20..0x7e but '"' and '\\').  */
static inline int
plain (const char *s, size_t n)
{
  size_t i = 0;
  if (n >= 4)
    for (;; i += 8)
      {
        uint64_t w;
        if (n < 8)
          w = load4x2 (s, n); /* "inlined" */
        else
          {
            if (i + 8 > n)
              i = n - 8; /* the last word overlaps the one before */
            w = load8 (s + i);
          }
        /* below 0x20, 0x80 and up, 0x7f, '"', '\\' */
        if (((w - ONES * 0x20) & ~w & HIGHS) | (w & HIGHS)
            | has_zero (w ^ (ONES * 0x7f)) | has_zero (w ^ (ONES * '"'))
            | has_zero (w ^ (ONES * '\\')))
          {
            i = 0; /* its bytes one by one */
            break;
          }
        if (n < 8 || i + 8 == n)
          return 1;
      }
  for (; i < n; i++)
    if ((unsigned char) s[i] - 0x20u >= 0x5fu || s[i] == '"' || s[i] == '\\')
      return 0;
  return 1;
}


static inline __attribute__ ((always_inline)) void
put_num (ppc_out *o, uint64_t v)
{
  if (o->b.cap - o->b.len < 21)
    {
      ppc_put_u64 (o, v);
      return;
    }
  o->b.len += ppc_format_u64 (o->b.buf + o->b.len, v);
}

/* S as the file writes it (quoted, escaped) into SCRATCH: its bytes.  */
static const char *
quoted (ppc_out *scratch, const char *s, size_t *n)
{
  scratch->b.len = 0;
  ppc_put_cstr (scratch, s);
  *n = scratch->b.len - 1;
  return scratch->b.oom ? NULL : (const char *) scratch->b.buf + 1;
}

/* A call site's key, its name: in-memory lookups only.  */
static uint64_t
hash_bytes (uint64_t h, const char *s, size_t n)
{
  return pp_hash_bytes (h ^ 0xcbf29ce484222325ull ^ n, s, n);
}

static uint64_t
mix3 (uint64_t a, uint64_t b, uint64_t c)
{
  uint64_t h = a * 0x9e3779b97f4a7c15ull ^ b;
  h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull ^ c;
  return (h ^ (h >> 32)) * 0x94d049bb133111ebull;
}

/* OLD's function records.  */
struct ofn
{
  const char *line, *end;      /* the record, '\n' included */
  const char *flags_at, *flags_end; /* " FLAGS" */
  const char *name, *src;      /* quoted */
  size_t name_n, src_n;
  uint32_t checksum, flags, newflags;
  int versions;                /* records of its name and source */
};

/* OLD's contexts.  */
struct onode
{
  const char *line, *key_end;  /* the node line; after " PARENT FN SITE" */
  const char *paths, *leaves, *end; /* its path lines, leaf lines, next */
  const char *site;            /* quoted */
  size_t site_n;
  uint32_t parent, fn, from;   /* FROM: NOW's node merged in, or none */
  uint64_t npath_lines, nleaf_lines;
};

/* Keys of nodes by (parent, function, site's bytes), OLD's and NOW's
   new ones: open addressing on indices + 1.  */
struct nkey
{
  uint32_t parent, fn;
  const char *site;
  size_t site_n;
};

struct ntab
{
  uint32_t *slot;
  size_t mask;
};

/* Whether the N bytes at A and B are the same: a word at a time.  */
static inline int
same_bytes (const char *a, const char *b, size_t n)
{
  if (n < 8)
    return memcmp (a, b, n) == 0;
  size_t i = 0;
  for (; i + 8 < n; i += 8)
    if (load8 (a + i) != load8 (b + i))
      return 0;
  return load8 (a + n - 8) == load8 (b + n - 8);
}

/* A lookup per context, OLD's and NOW's: inline.  */
static inline __attribute__ ((always_inline)) size_t
ntab_find (const struct ntab *t, const struct nkey *keys, uint32_t parent,
           uint32_t fn, const char *site, size_t n)
{
  /* A site's last eight bytes tell it from its siblings' (the offset's
     digits in "<object>+0x<offset>"): the rest is compared, not hashed.  */
  uint64_t w = n >= 8 ? load8 (site + n - 8) : hash_bytes (0, site, n);
  size_t j = (size_t) mix3 (parent, fn, w ^ n) & t->mask;
  for (; t->slot[j]; j = (j + 1) & t->mask)
    {
      const struct nkey *k = &keys[t->slot[j] - 1];
      if (k->parent == parent && k->fn == fn && k->site_n == n
          && same_bytes (k->site, site, n))
        break;
    }
  return j;
}

/* The path line at LINE ("path ID COUNT METRIC_1 .. METRIC_NM", as the
   writer writes it) into *PA: its '\n', or NULL when it is not one.
   The line ends in '\n' within OLD, where the digits stop.  */
static inline const char *
path_fields (const char *line, uint32_t nm, ppc_path *pa)
{
  if (line[0] != 'p' || line[1] != 'a' || line[2] != 't' || line[3] != 'h')
    return NULL;
  const char *p = line + 4;
  uint64_t *field[2 + PPC_MAX_METRICS];
  field[0] = &pa->id;
  field[1] = &pa->count;
  for (uint32_t m = 0; m < nm; m++)
    field[2 + m] = &pa->metric[m];
  for (uint32_t f = 0; f < 2 + nm; f++)
    {
      if (*p != ' ')
        return NULL;
      const char *d = ++p;
      uint64_t v = 0;
      while ((unsigned) (*p - '0') <= 9)
        v = v * 10 + (unsigned) (*p++ - '0');
      if (p == d)
        return NULL;
      if (p - d >= 20)
        {
          /* 2^64-1 has 20 digits: again, with the overflow test.  */
          v = 0;
          for (const char *q = d; q < p; q++)
            {
              unsigned c = (unsigned) (*q - '0');
              if (v > (UINT64_MAX - c) / 10)
                return NULL;
              v = v * 10 + c;
            }
        }
      *field[f] = v;
    }
  return *p == '\n' ? p : NULL;
}

/* A copy of the N bytes at S, NUL-terminated.  */
static char *
dup_n (const char *s, size_t n)
{
  char *d = malloc (n + 1);
  if (d)
    {
      memcpy (d, s, n);
      d[n] = '\0';
    }
  return d;
}

/* A string as the file has it between its quotes (escaped): the
   string itself when it needs no escape, else a copy (OWNED).  */
struct esc
{
  const char *s;
  size_t n;
  char *owned;
};

/* S escaped as the file writes it, into *E: 0, or -1 when out of
   memory.  */
static int
escape (ppc_out *scratch, const char *s, struct esc *e)
{
  e->owned = NULL;
  e->n = strlen (s);
  e->s = s;
  if (plain (s, e->n))
    return 0;
  const char *q = quoted (scratch, s, &e->n);
  if (!q)
    return -1;
  e->n -= 2;
  e->owned = dup_n (q + 1, e->n);
  e->s = e->owned;
  return e->owned ? 0 : -1;
}

struct merge_state
{
  struct ofn *fns;
  struct onode *nodes;
  struct nkey *keys;
  struct ntab tab;
  uint32_t *fnmap, *nodemap, *added;
  ppc_metric metrics[PPC_MAX_METRICS];
  uint32_t nmetrics;
  ppc_out scratch;
  struct esc *quoted_fns; /* NOW's new functions' names and sources */
};

static void
state_free (struct merge_state *s, uint32_t nnew_fns)
{
  free (s->fns);
  free (s->nodes);
  free (s->keys);
  free (s->tab.slot);
  free (s->fnmap);
  free (s->nodemap);
  free (s->added);
  for (uint32_t m = 0; m < s->nmetrics; m++)
    ppc_free_metric (&s->metrics[m]);
  free (s->scratch.b.buf);
  if (s->quoted_fns)
    for (uint32_t i = 0; i < 2 * nnew_fns; i++)
      free (s->quoted_fns[i].owned);
  free (s->quoted_fns);
}

/* A metric line's fields without escapes (else declined): 0 or 1.  */
static int
parse_metric (tin *t, ppc_metric *mt)
{
  const char *f[3];
  size_t n[3];
  for (int i = 0; i < 3; i++)
    {
      f[i] = tin_str (t, &n[i]);
      if (t->bad || memchr (f[i], '\\', n[i]))
        return 1;
    }
  double c[2];
  for (int i = 0; i < 2; i++)
    {
      if (t->p >= t->e || *t->p != ' ')
        return 1;
      const char *s = ++t->p, *sp = memchr (s, ' ', (size_t) (t->e - s));
      const char *e = sp ? sp : t->e;
      if (ppc_parse_double (s, (size_t) (e - s), &c[i]) < 0)
        return 1;
      t->p = e;
    }
  mt->runs = tin_u64 (t);
  if (t->bad || t->p != t->e)
    return 1;
  mt->name = dup_n (f[0] + 1, n[0] - 2);
  mt->source = dup_n (f[1] + 1, n[1] - 2);
  mt->unit = dup_n (f[2] + 1, n[2] - 2);
  mt->enter_exit_cost = c[0];
  mt->path_cost = c[1];
  return !mt->name || !mt->source || !mt->unit;
}

PPC_API int
ppc_merge_text (const char *old, size_t len, const ppc_profile *now,
                char **out, size_t *out_len)
{
  /* The first line and the seal, as ppc_decode checks them.  */
  static const char head[] = PPC_MAGIC " 4\n";
  if (PPC_VERSION != 4 || len < sizeof head || old[len - 1] != '\n'
      || memcmp (old, head, sizeof head - 1) != 0 || now->nnodes == 0
      || now->nmetrics > PPC_MAX_METRICS)
    return 1;
  /* The end line's start; its count and checksum are checked once the
     lines before it have been counted on the way (a pass of its own to
     count them was 4% of the merge).  */
  size_t last = len - 1;
  while (last > 0 && old[last - 1] != '\n')
    last--;
  if (last < sizeof head - 1)
    return 1;
  /* Bounds for the counts the file gives: a record is at least 16
     bytes, so no count is an allocation the file cannot back.  */
  const uint64_t max_records = len / 16;

  struct merge_state s;
  memset (&s, 0, sizeof s);
  uint32_t nnew_fns = 0;
  int rc = 1;
  tin t = { NULL, NULL, NULL, old + sizeof head - 1, old + last, 0, 1 };
  ppc_out o = { { NULL, 0, 0, 0 }, 0 };

  /* runs, kind, metrics: NOW's metric list must be OLD's.  */
  if (tin_line (&t, "runs", 4) < 0)
    goto done;
  uint64_t runs = tin_u64 (&t);
  const char *kind_line = t.next;
  if (tin_line (&t, "kind", 4) < 0)
    goto done;
  if ((size_t) (t.e - t.p) != (now->cct ? 4 : 5)
      || memcmp (t.p + 1, now->cct ? "cct" : "flat", t.e - t.p - 1) != 0)
    goto done;
  const char *kind_end = t.next;
  if (tin_line (&t, "metrics", 7) < 0)
    goto done;
  uint64_t nm = tin_u64 (&t);
  if (t.bad || nm != now->nmetrics)
    goto done;
  for (uint32_t m = 0; m < nm; m++)
    {
      ppc_metric a;
      memset (&a, 0, sizeof a);
      int bad = tin_line (&t, "metric", 6) < 0 || parse_metric (&t, &a);
      const char *w;
      bad = bad || strcmp (a.name, now->metrics[m].name) != 0
            || ppc_merge_metric (&s.metrics[m], &a, &now->metrics[m], &w) < 0;
      ppc_free_metric (&a);
      if (bad)
        goto done;
      s.nmetrics = m + 1;
    }

  /* Functions: NOW's by name and source, the same CFG checksum, one
     version in OLD, neither older; or new ones, appended.  */
  if (tin_line (&t, "functions", 9) < 0)
    goto done;
  uint64_t nf = tin_u64 (&t);
  /* Counts no larger than the file's lines (as ppc_decode bounds them):
     a count is never an allocation the file cannot back.  */
  if (t.bad || nf >= UINT32_MAX || nf > max_records)
    goto done;
  size_t fcap = 64;
  while (fcap < 2 * (nf + now->nfns))
    fcap *= 2;
  s.fns = calloc (nf + 1, sizeof *s.fns);
  uint32_t *ftab = calloc (fcap, sizeof *ftab);
  s.fnmap = malloc ((now->nfns + 1) * sizeof *s.fnmap);
  s.quoted_fns = calloc (2 * (size_t) now->nfns + 1, sizeof *s.quoted_fns);
  if (!s.fns || !ftab || !s.fnmap || !s.quoted_fns)
    {
      free (ftab);
      rc = -1;
      goto done;
    }
  for (uint32_t f = 0; f < nf; f++)
    {
      struct ofn *g = &s.fns[f];
      if (tin_line (&t, "fn", 2) < 0 || tin_u64 (&t) != f)
        break;
      g->line = t.line;
      g->end = t.next;
      g->name = tin_str (&t, &g->name_n);
      g->checksum = (uint32_t) tin_u64 (&t);
      g->flags_at = t.p;
      g->flags = g->newflags = (uint32_t) tin_u64 (&t);
      g->flags_end = t.p;
      tin_u64 (&t);
      g->src = tin_str (&t, &g->src_n);
      if (t.bad)
        break;
      /* Keyed by the bytes between the quotes, as NOW's are.  */
      size_t j = (size_t) hash_bytes (hash_bytes (0, g->name + 1,
                                                  g->name_n - 2),
                                      g->src + 1, g->src_n - 2)
                 & (fcap - 1);
      for (; ftab[j]; j = (j + 1) & (fcap - 1))
        {
          struct ofn *h = &s.fns[ftab[j] - 1];
          if (h->name_n == g->name_n && h->src_n == g->src_n
              && !memcmp (h->name, g->name, g->name_n)
              && !memcmp (h->src, g->src, g->src_n))
            break;
        }
      if (ftab[j])
        s.fns[ftab[j] - 1].versions++; /* another version: declined */
      else
        ftab[j] = f + 1;
      g->versions++;
    }
  for (uint32_t f = 0; f < now->nfns && !t.bad; f++)
    {
      const ppc_fn *src = &now->fns[f];
      /* Escaped only when it needs it (a copy each cost sqlite3's exit
         2,258 allocations).  */
      struct esc name, source;
      if (escape (&s.scratch, src->name, &name) < 0
          || escape (&s.scratch, src->source, &source) < 0)
        {
          free (name.owned);
          t.bad = 1;
          rc = -1;
          break;
        }
      size_t j = (size_t) hash_bytes (hash_bytes (0, name.s, name.n),
                                      source.s, source.n)
                 & (fcap - 1);
      uint32_t g = UINT32_MAX;
      for (; ftab[j]; j = (j + 1) & (fcap - 1))
        {
          uint32_t h = ftab[j] - 1;
          struct esc hn, hs;
          if (h < nf)
            {
              hn = (struct esc){ s.fns[h].name + 1, s.fns[h].name_n - 2,
                                 NULL };
              hs = (struct esc){ s.fns[h].src + 1, s.fns[h].src_n - 2,
                                 NULL };
            }
          else
            {
              hn = s.quoted_fns[2 * (h - nf)];
              hs = s.quoted_fns[2 * (h - nf) + 1];
            }
          if (hn.n == name.n && hs.n == source.n
              && !memcmp (hn.s, name.s, name.n)
              && !memcmp (hs.s, source.s, source.n))
            {
              g = h;
              break;
            }
        }
      if ((src->flags & PP_FN_OLDER)
          || (g < nf && (s.fns[g].versions > 1 || s.fns[g].checksum
                         != src->checksum || (s.fns[g].flags & PP_FN_OLDER))))
        {
          free (name.owned);
          free (source.owned);
          t.bad = 1;
          break;
        }
      if (g == UINT32_MAX)
        {
          /* New here; a second record of it in NOW is declined.  */
          g = (uint32_t) nf + nnew_fns;
          s.quoted_fns[2 * nnew_fns] = name;
          s.quoted_fns[2 * nnew_fns + 1] = source;
          nnew_fns++;
          ftab[j] = g + 1;
        }
      else
        {
          free (name.owned);
          free (source.owned);
          if (g >= nf)
            {
              t.bad = 1;
              break;
            }
          s.fns[g].newflags |= src->flags;
        }
      s.fnmap[f] = g;
    }
  free (ftab);
  if (t.bad)
    goto done;

  /* Contexts: OLD's, keyed; NOW's matched to them or appended.  */
  if (tin_line (&t, "nodes", 5) < 0)
    goto done;
  uint64_t nn = tin_u64 (&t);
  if (t.bad || nn == 0 || nn > max_records || nn + now->nnodes >= UINT32_MAX)
    goto done;
  size_t ncap = 64;
  while (ncap < 2 * (nn + now->nnodes))
    ncap *= 2;
  s.nodes = calloc (nn, sizeof *s.nodes);
  s.keys = calloc (nn + now->nnodes, sizeof *s.keys);
  s.tab.slot = calloc (ncap, sizeof *s.tab.slot);
  s.tab.mask = ncap - 1;
  s.nodemap = malloc (now->nnodes * sizeof *s.nodemap);
  s.added = malloc ((now->nnodes + 1) * sizeof *s.added);
  if (!s.nodes || !s.keys || !s.tab.slot || !s.nodemap || !s.added)
    {
      rc = -1;
      goto done;
    }
  for (uint32_t i = 0; i < nn; i++)
    {
      struct onode *d = &s.nodes[i];
      /* The key only: the counts are read where NOW adds to them (most
         of a long-lived file's contexts are not this run's), and the
         path and leaf lines are found by their keywords.  */
      if (tin_line (&t, "node", 4) < 0 || tin_u64 (&t) != i)
        goto done;
      d->line = t.line;
      d->parent = tin_index (&t);
      d->fn = tin_index (&t);
      /* " \"SITE\"", without escapes (else declined).  */
      if (t.bad || t.e - t.p < 3 || t.p[0] != ' ' || t.p[1] != '"')
        goto done;
      d->site = t.p + 1;
      const char *q = quote_or_backslash (t.p + 2, t.e);
      if (q == t.e || *q != '"')
        goto done;
      d->site_n = (size_t) (q + 1 - d->site);
      t.p = q + 1;
      d->key_end = t.p;
      if (i == 0 ? d->parent != UINT32_MAX || d->fn != PPC_NO_FN
                 : d->parent >= i || d->fn >= nf)
        goto done;
      d->from = UINT32_MAX;
      d->paths = t.next;
      while (!t.bad && tin_peek (&t, "path ", 5))
        tin_skip (&t, 1), d->npath_lines++;
      d->leaves = t.next;
      while (!t.bad && tin_peek (&t, "leaf ", 5))
        tin_skip (&t, 1), d->nleaf_lines++;
      d->end = t.next;
      if (t.bad)
        goto done;
      /* Keyed by the site's bytes: it has no escapes.  */
      s.keys[i] = (struct nkey){ d->parent, d->fn, d->site + 1,
                                 d->site_n - 2 };
      if (i)
        {
          size_t j = ntab_find (&s.tab, s.keys, d->parent, d->fn,
                                d->site + 1, d->site_n - 2);
          if (s.tab.slot[j])
            goto done; /* a context twice */
          s.tab.slot[j] = i + 1;
        }
    }
  /* The objects section, if any, then the end line.  */
  const char *objects = t.next;
  uint64_t nobj = 0;
  if (tin_peek (&t, "objects ", 8))
    {
      tin_line (&t, "objects", 7);
      nobj = tin_u64 (&t);
      tin_skip (&t, nobj);
    }
  const char *why;
  if (t.bad || t.next != t.stop
      || ppc_check_seal (old, len, last, t.lines, 4, &why))
    goto done;

  uint32_t nadded = 0;
  s.nodemap[0] = 0;
  s.nodes[0].from = 0;
  for (uint32_t i = 1; i < now->nnodes; i++)
    {
      const ppc_node *src = &now->nodes[i];
      if (src->nleaves || src->parent >= i || src->fn >= now->nfns)
        goto done;
      uint32_t parent = s.nodemap[src->parent], fn = s.fnmap[src->fn];
      const char *site = src->site ? src->site : "";
      size_t sn = strlen (site);
      if (!plain (site, sn))
        goto done; /* it would be escaped */
      /* The file's context after the last one's, first: NOW's contexts
         mostly come in the file's order (a program run again builds
         its tree in the same order: sqlite3, 11,959 of 12,032), and a
         key met there is that context (OLD's keys are distinct).  */
      uint32_t guess = s.nodemap[i - 1] + 1;
      if (guess < nn)
        {
          const struct nkey *g = &s.keys[guess];
          if (g->parent == parent && g->fn == fn && g->site_n == sn
              && same_bytes (g->site, site, sn))
            {
              if (s.nodes[guess].from != UINT32_MAX)
                goto done; /* two of NOW's in one context */
              s.nodes[guess].from = i;
              s.nodemap[i] = guess;
              continue;
            }
        }
      size_t j = ntab_find (&s.tab, s.keys, parent, fn, site, sn);
      uint32_t k = s.tab.slot[j];
      if (!k)
        {
          k = (uint32_t) nn + nadded + 1;
          s.keys[k - 1] = (struct nkey){ parent, fn, site, sn };
          s.tab.slot[j] = k;
          s.added[nadded++] = i;
        }
      else if (k <= nn)
        {
          if (s.nodes[k - 1].from != UINT32_MAX)
            goto done; /* two of NOW's in one context */
          s.nodes[k - 1].from = i;
        }
      else
        goto done;
      s.nodemap[i] = k - 1;
    }
  if (now->nodes[0].nleaves)
    goto done;

  /* The image.  */
  size_t want = len + 256;
  for (uint32_t f = 0; f < now->nfns; f++)
    want += now->fns[f].meta_len * 4 + 64;
  for (uint32_t i = 0; i < now->nnodes; i++)
    want += 96 + now->nodes[i].npaths * (21 * (2 + nm) + 8);
  if (pp_buf_reserve (&o.b, want) < 0)
    {
      rc = -1;
      goto done;
    }
  ppc_put (&o, head, sizeof head - 1);
  o.lines++;
  ppc_puts (&o, "runs");
  ppc_put_u64 (&o, pp_add_sat (runs, now->runs));
  ppc_put_eol (&o);
  ppc_put (&o, kind_line, (size_t) (kind_end - kind_line));
  o.lines++;
  ppc_puts (&o, "metrics");
  ppc_put_u64 (&o, nm);
  ppc_put_eol (&o);
  for (uint32_t m = 0; m < nm; m++)
    ppc_put_metric (&o, &s.metrics[m]);
  ppc_puts (&o, "functions");
  ppc_put_u64 (&o, nf + nnew_fns);
  ppc_put_eol (&o);
  for (uint32_t f = 0; f < nf; f++)
    {
      const struct ofn *g = &s.fns[f];
      if (g->newflags == g->flags)
        ppc_put (&o, g->line, (size_t) (g->end - g->line));
      else
        {
          ppc_put (&o, g->line, (size_t) (g->flags_at - g->line));
          ppc_put_u64 (&o, g->newflags);
          ppc_put (&o, g->flags_end, (size_t) (g->end - g->flags_end));
        }
      o.lines++;
    }
  for (uint32_t f = 0; f < now->nfns; f++)
    if (s.fnmap[f] >= nf)
      ppc_put_fn (&o, s.fnmap[f], &now->fns[f]);
  ppc_puts (&o, "nodes");
  ppc_put_u64 (&o, nn + nadded);
  ppc_put_eol (&o);
  ppc_path *merged = NULL;
  const char **lines = NULL;
  size_t merged_cap = 0;
  for (uint32_t i = 0; i < nn; i++)
    {
      const struct onode *d = &s.nodes[i];
      if (d->from == UINT32_MAX)
        {
          ppc_put (&o, d->line, (size_t) (d->end - d->line));
          o.lines += 1 + d->npath_lines + d->nleaf_lines;
          continue;
        }
      const ppc_node *src = &now->nodes[d->from];
      /* Its counts, after the key; as many paths as path lines.  */
      uint64_t calls, recursive, npaths, excl[PPC_MAX_METRICS];
      {
        const char *le = d->paths - 1; /* the node line's '\n' */
        tin u = { d->key_end, le, d->line, d->paths, d->paths, 0, 0 };
        calls = tin_u64 (&u);
        recursive = tin_u64 (&u);
        npaths = tin_u64 (&u);
        for (uint32_t m = 0; m < nm; m++)
          excl[m] = tin_u64 (&u);
        if (u.bad || u.p != u.e || d->npath_lines != npaths)
          {
            free (lines);
            free (merged);
            goto done;
          }
      }
      /* Paths by id: LINES[k], OLD's line as it is, or else MERGED[k],
         NOW's path or the sum of both.  */
      size_t need = npaths + src->npaths + 1;
      if (need > merged_cap)
        {
          free (merged);
          free (lines);
          merged_cap = need * 2;
          merged = malloc (merged_cap * sizeof *merged);
          lines = malloc (2 * merged_cap * sizeof *lines);
          if (!merged || !lines)
            {
              free (merged);
              free (lines);
              rc = -1;
              goto done;
            }
        }
      /* LINES[2k], LINES[2k + 1]: the line's start and '\n'.  */
      size_t k = 0;
      uint64_t a = 0, b = 0, last_id = 0;
      const char *l = d->paths;
      ppc_path pa;
      while (a < npaths || b < src->npaths)
        {
          const char *le = NULL;
          if (a < npaths)
            {
              /* Each of OLD's path lines read once, whole.  */
              le = path_fields (l, nm, &pa);
              if (!le || (a && pa.id <= last_id))
                break;
            }
          if (a < npaths
              && (b == src->npaths || pa.id < src->paths[b].id))
            {
              lines[2 * k] = l;
              lines[2 * k++ + 1] = le;
              last_id = pa.id;
              l = le + 1, a++;
            }
          else if (a == npaths || src->paths[b].id < pa.id)
            {
              const ppc_path *q = &src->paths[b++];
              lines[2 * k] = NULL;
              merged[k].id = q->id;
              merged[k].count = q->count;
              for (uint32_t m = 0; m < nm; m++)
                merged[k].metric[m] = q->metric[m];
              k++;
            }
          else
            {
              const ppc_path *q = &src->paths[b++];
              pa.count = pp_add_sat (pa.count, q->count);
              for (uint32_t m = 0; m < nm; m++)
                pa.metric[m] = pp_add_sat (pa.metric[m], q->metric[m]);
              lines[2 * k] = NULL;
              merged[k].id = pa.id;
              merged[k].count = pa.count;
              for (uint32_t m = 0; m < nm; m++)
                merged[k].metric[m] = pa.metric[m];
              k++;
              last_id = pa.id;
              l = le + 1, a++;
            }
        }
      if (a < npaths || b < src->npaths)
        {
          free (lines);
          free (merged);
          goto done; /* not as written: the long way says why */
        }
      /* "node I PARENT FN SITE" as OLD has it: its index stays.  */
      ppc_put (&o, d->line, (size_t) (d->key_end - d->line));
      put_num (&o, pp_add_sat (calls, src->calls));
      put_num (&o, pp_add_sat (recursive, src->recursive));
      put_num (&o, k);
      for (uint32_t m = 0; m < nm; m++)
        put_num (&o, pp_add_sat (excl[m], src->excl[m]));
      ppc_put (&o, "\n", 1);
      o.lines++;
      for (size_t x = 0; x < k; x++)
        if (lines[2 * x])
          {
            ppc_put (&o, lines[2 * x],
                       (size_t) (lines[2 * x + 1] + 1 - lines[2 * x]));
            o.lines++;
          }
        else
          {
            /* ppc_put_path's line */
            ppc_put (&o, "path", 4);
            put_num (&o, merged[x].id);
            put_num (&o, merged[x].count);
            for (uint32_t m = 0; m < nm; m++)
              put_num (&o, merged[x].metric[m]);
            ppc_put (&o, "\n", 1);
            o.lines++;
          }
      if (d->end > d->leaves)
        {
          ppc_put (&o, d->leaves, (size_t) (d->end - d->leaves));
          o.lines += d->nleaf_lines;
        }
    }
  free (merged);
  free (lines);
  for (uint32_t k = 0; k < nadded; k++)
    {
      const ppc_node *src = &now->nodes[s.added[k]];
      ppc_put_node (&o, (uint32_t) nn + k, s.nodemap[src->parent],
                    s.fnmap[src->fn], src, nm);
    }

  /* Objects by name, in OLD's order, NOW's record replacing OLD's of its
     name, NOW's others after them (ppc_merge_objects).  */
  {
    uint64_t total = nobj;
    char *taken = calloc (now->nobjects + 1, 1);
    const char *ol = objects;
    if (!taken)
      {
        rc = -1;
        goto done;
      }
    if (nobj)
      ol = (const char *) memchr (objects, '\n', (size_t) (t.stop - objects))
           + 1;
    /* First pass: which of NOW's are OLD's.  */
    const char *first = ol;
    for (uint64_t x = 0; x < nobj; x++)
      {
        const char *le = memchr (ol, '\n', (size_t) (t.stop - ol));
        tin u = { ol + 6, le, ol, le + 1, le + 1, 0, 0 };
        size_t n;
        const char *name = memcmp (ol, "object ", 7) ? NULL : tin_str (&u, &n);
        if (!name)
          {
            free (taken);
            goto done;
          }
        for (uint32_t y = 0; y < now->nobjects; y++)
          {
            size_t qn;
            const char *q = quoted (&s.scratch, now->objects[y].name, &qn);
            if (q && qn == n && !memcmp (q, name, n))
              taken[y] = 1;
          }
        ol = le + 1;
      }
    for (uint32_t y = 0; y < now->nobjects; y++)
      total += !taken[y];
    if (total)
      {
        ppc_puts (&o, "objects");
        ppc_put_u64 (&o, total);
        ppc_put_eol (&o);
      }
    ol = first;
    for (uint64_t x = 0; x < nobj; x++)
      {
        const char *le = memchr (ol, '\n', (size_t) (t.stop - ol));
        tin u = { ol + 6, le, ol, le + 1, le + 1, 0, 0 };
        size_t n = 0;
        const char *name = tin_str (&u, &n);
        const ppc_object *mine = NULL;
        for (uint32_t y = 0; y < now->nobjects && !mine; y++)
          {
            size_t qn;
            const char *q = quoted (&s.scratch, now->objects[y].name, &qn);
            if (q && qn == n && !memcmp (q, name, n))
              mine = &now->objects[y];
          }
        if (mine)
          ppc_put_object (&o, mine);
        else
          {
            ppc_put (&o, ol, (size_t) (le + 1 - ol));
            o.lines++;
          }
        ol = le + 1;
      }
    for (uint32_t y = 0; y < now->nobjects; y++)
      if (!taken[y])
        ppc_put_object (&o, &now->objects[y]);
    free (taken);
  }
  if (s.scratch.b.oom)
    {
      rc = -1;
      goto done;
    }
  rc = ppc_put_seal (&o, out, out_len) < 0 ? -1 : 0;
  o.b.buf = NULL;
done:
  free (o.b.buf);
  state_free (&s, nnew_fns);
  return rc;
}
