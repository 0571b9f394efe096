/* The .ppd codec, merging (format in include/pp/ppd.h): decoded
   profiles of one object by function name (ppd_merge), of several
   objects by name, source file and checksum (ppd_merge_objects), and a
   run's counts into an encoded profile without decoding it
   (ppd_merge_encoded).  Linked into the core library as is; the runtime
   compiles this file as its own object, under __pp_ names with hidden
   visibility (runtime/lib_in_runtime.h), where PPD_ONE_OBJECT_ONLY
   leaves out merging by source file.  */
#include "ppd_internal.h"
#include "hash_bytes.h"
#include "pp/sat.h"
#include "pp/rt_abi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Merged pairs of two ascending lists into a new array.  */
static ppd_pair *
ppd_merge_pairs (const ppd_fn *a, const ppd_fn *b, uint64_t *n)
{
  ppd_pair *out = malloc ((a->npairs + b->npairs + 1) * sizeof *out);
  if (!out)
    return NULL;
  uint64_t i = 0, j = 0, k = 0;
  while (i < a->npairs || j < b->npairs)
    {
      if (j == b->npairs
          || (i < a->npairs && a->pairs[i].id < b->pairs[j].id))
        out[k++] = a->pairs[i++];
      else if (i == a->npairs || b->pairs[j].id < a->pairs[i].id)
        out[k++] = b->pairs[j++];
      else
        {
          out[k] = a->pairs[i++];
          out[k].count = pp_add_sat (out[k].count, b->pairs[j++].count);
          k++;
        }
    }
  *n = k;
  return out;
}

PPD_API uint64_t *
ppd_union_ids (const uint64_t *a, uint64_t na, const uint64_t *b,
               uint64_t nb, uint64_t *n)
{
  uint64_t *out = malloc ((na + nb + 1) * sizeof *out);
  if (!out)
    return NULL;
  uint64_t i = 0, j = 0, k = 0;
  while (i < na || j < nb)
    {
      if (j == nb || (i < na && a[i] < b[j]))
        out[k++] = a[i++];
      else if (i == na || b[j] < a[i])
        out[k++] = b[j++];
      else
        out[k++] = a[i++], j++;
    }
  *n = k;
  return out;
}

static int
ppd_copy_fn (ppd_fn *dst, const ppd_fn *src)
{
  *dst = *src;
  dst->name = strdup (src->name);
  dst->meta = malloc ((size_t) src->meta_len + 1);
  dst->pairs = malloc ((src->npairs + 1) * sizeof *dst->pairs);
  dst->trained = malloc ((src->ntrained + 1) * sizeof *dst->trained);
  dst->values = malloc ((src->nvalues + 1) * sizeof *dst->values);
  if (!dst->name || !dst->meta || !dst->pairs || !dst->trained
      || !dst->values)
    {
      free (dst->name);
      free (dst->meta);
      free (dst->pairs);
      free (dst->trained);
      free (dst->values);
      return -1;
    }
  /* Empty lists may be NULL: memcpy from NULL is undefined even for 0.  */
  if (src->meta_len)
    memcpy (dst->meta, src->meta, src->meta_len);
  dst->meta[src->meta_len] = '\0';
  if (src->npairs)
    memcpy (dst->pairs, src->pairs, src->npairs * sizeof *dst->pairs);
  if (src->ntrained)
    memcpy (dst->trained, src->trained, src->ntrained * sizeof *dst->trained);
  if (src->nvalues)
    memcpy (dst->values, src->values, src->nvalues * sizeof *dst->values);
  return 0;
}

/* The source file FN's metadata names (its `file "..."` statement,
   doc/graph-language.md) as written there, escapes kept (the plugin
   spells each name one way), *N bytes; NULL when there is none.  */
static const char *
ppd_meta_file (const ppd_fn *fn, size_t *n)
{
  const char *p = fn->meta, *end = p ? p + fn->meta_len : NULL;
  *n = 0;
  while (p && p < end)
    {
      const char *eol = memchr (p, '\n', (size_t) (end - p));
      if (!eol)
        eol = end;
      while (p < eol && (*p == ' ' || *p == '\t'))
        p++;
      if (eol - p > 5 && !memcmp (p, "file", 4) && (p[4] == ' ' || p[4] == '\t'))
        {
          const char *q = memchr (p, '"', (size_t) (eol - p));
          if (!q)
            return NULL;
          const char *s = ++q;
          while (q < eol && *q != '"')
            q += *q == '\\' && q + 1 < eol ? 2 : 1;
          *n = (size_t) (q - s);
          return s;
        }
      p = eol + 1;
    }
  return NULL;
}

/* Who a function is while merging.  Profiles of one object (BY_UNIT 0):
   its name, unique in an object.  Profiles of several objects (BY_UNIT
   1): name, source file and checksum, as ppprof report tells functions
   apart: two objects may each have a static function of one name.  */
typedef struct
{
  const ppd_fn *fn;
  const char *file;
  size_t file_len;
} ppd_key;

static ppd_key
ppd_key_of (const ppd_fn *fn, int by_unit)
{
  ppd_key k = { fn, NULL, 0 };
  if (by_unit)
    k.file = ppd_meta_file (fn, &k.file_len);
  return k;
}

static uint64_t
ppd_key_hash (const ppd_key *k, int by_unit)
{
  uint64_t h = pp_hash_bytes (14695981039346656037ull, k->fn->name,
                               strlen (k->fn->name));
  if (by_unit)
    {
      h = pp_hash_bytes (h, k->file ? k->file : "", k->file_len);
      h = pp_hash_bytes (h, &k->fn->checksum, sizeof k->fn->checksum);
    }
  return h;
}

static int
ppd_key_equal (const ppd_key *a, const ppd_key *b, int by_unit)
{
  if (strcmp (a->fn->name, b->fn->name) != 0)
    return 0;
  return !by_unit
         || (a->fn->checksum == b->fn->checksum && a->file_len == b->file_len
             && (!a->file_len || !memcmp (a->file, b->file, a->file_len)));
}

/* An open-addressing table of the merged functions' keys: slots hold an
   index + 1 into FNS (0: empty); twice as many slots as functions at
   most, so that a probe ends soon.  */
typedef struct
{
  uint32_t *slot;
  size_t mask;
  ppd_key *keys;
  int by_unit;
} ppd_index;

static int
ppd_index_init (ppd_index *x, size_t max_fns, int by_unit)
{
  size_t cap = 16;
  while (cap < 2 * max_fns)
    cap *= 2;
  x->slot = calloc (cap, sizeof *x->slot);
  x->keys = malloc ((max_fns + 1) * sizeof *x->keys);
  x->mask = cap - 1;
  x->by_unit = by_unit;
  if (!x->slot || !x->keys)
    {
      free (x->slot);
      free (x->keys);
      return -1;
    }
  return 0;
}

/* The slot of K: the one holding an equal key, or the empty one where it
   goes.  */
static uint32_t *
ppd_index_find (const ppd_index *x, const ppd_key *k)
{
  size_t i = (size_t) ppd_key_hash (k, x->by_unit) & x->mask;
  while (x->slot[i] && !ppd_key_equal (&x->keys[x->slot[i] - 1], k,
                                       x->by_unit))
    i = (i + 1) & x->mask;
  return &x->slot[i];
}

/* Adds the counts of SRC into DST, the same function.  0 or -1 (out of
   memory, DST unchanged).  */
static int
ppd_add_fn (ppd_fn *dst, const ppd_fn *src)
{
  /* A record written without metadata (its program's .pp_meta section
     was stripped; runtime/meta_section.c) takes the other's.  */
  char *meta = NULL;
  if (dst->meta_len == 0 && src->meta_len > 0)
    {
      meta = malloc ((size_t) src->meta_len + 1);
      if (!meta)
        return -1;
      memcpy (meta, src->meta, src->meta_len);
      meta[src->meta_len] = '\0';
    }
  /* Value profiles add word by word; a record without them takes the
     other's (the sites are the CFG's, which the checksum matched).  */
  uint64_t *values = NULL;
  if (src->nvalues && dst->nvalues != src->nvalues)
    {
      values = malloc (src->nvalues * sizeof *values);
      if (!values)
        {
          free (meta);
          return -1;
        }
      memcpy (values, src->values, src->nvalues * sizeof *values);
    }
  uint64_t k;
  ppd_pair *pairs = ppd_merge_pairs (dst, src, &k);
  if (!pairs)
    {
      free (meta);
      free (values);
      return -1;
    }
  if (meta)
    {
      free (dst->meta);
      dst->meta = meta;
      dst->meta_len = src->meta_len;
    }
  if (src->flags & PP_FN_TRAINED)
    {
      uint64_t nt;
      uint64_t *t = ppd_union_ids (dst->trained, dst->ntrained, src->trained,
                                   src->ntrained, &nt);
      if (!t)
        {
          free (pairs);
          free (values);
          return -1;
        }
      free (dst->trained);
      dst->trained = t;
      dst->ntrained = nt;
    }
  if (values)
    {
      free (dst->values);
      dst->values = values;
      dst->nvalues = src->nvalues;
    }
  else
    for (uint64_t v = 0; v + PPD_VALUE_WORDS <= src->nvalues;
         v += PPD_VALUE_WORDS)
      ppd_value_merge_site (dst->values + v, src->values + v);
  free (dst->pairs);
  dst->pairs = pairs;
  dst->npairs = k;
  dst->dropped = pp_add_sat (dst->dropped, src->dropped);
  /* Older only while both say so: a current record of it makes it
     current.  */
  uint32_t older = dst->flags & src->flags & PP_FN_OLDER;
  dst->flags = ((dst->flags | src->flags) & ~PP_FN_OLDER) | older;
  return 0;
}

static void
ppd_free_fn (ppd_fn *fn)
{
  free (fn->name);
  free (fn->meta);
  free (fn->pairs);
  free (fn->trained);
  free (fn->values);
}

/* ppd_merge and ppd_merge_objects: functions told apart as ppd_key_of
   says.  */
static int
ppd_merge_by (ppd_profile *into, const ppd_profile *from, int by_unit,
              void (*warn) (void *ctx, const char *fn_name), void *ctx)
{
  size_t max = (size_t) into->nfns + from->nfns;
  if (max > UINT32_MAX - 1)
    return -1;
  ppd_fn *fns = calloc (max + 1, sizeof *fns);
  ppd_index x;
  if (!fns || ppd_index_init (&x, max, by_unit) < 0)
    {
      free (fns);
      return -1;
    }
  if (into->nfns)
    memcpy (fns, into->fns, into->nfns * sizeof *fns);
  uint32_t n = into->nfns;
  /* Keys point into FNS, whose records move no more.  */
  for (uint32_t g = 0; g < n; g++)
    {
      x.keys[g] = ppd_key_of (&fns[g], by_unit);
      uint32_t *s = ppd_index_find (&x, &x.keys[g]);
      /* The first of a repeated key gets the counts, as before; by name,
         the current version (not PP_FN_OLDER).  */
      if (!*s || ((fns[*s - 1].flags & PP_FN_OLDER)
                  && !(fns[g].flags & PP_FN_OLDER)))
        *s = g + 1;
    }
  for (uint32_t f = 0; f < from->nfns; f++)
    {
      const ppd_fn *src = &from->fns[f];
      ppd_key k = ppd_key_of (src, by_unit);
      uint32_t *s = ppd_index_find (&x, &k);
      if (*s && fns[*s - 1].checksum == src->checksum)
        {
          if (ppd_add_fn (&fns[*s - 1], src) < 0)
            goto oom;
          continue;
        }
      if (*s)
        {
          /* Only by name: another build's CFG of the function.  An older
             version of it with SRC's CFG takes the counts and becomes
             current; else SRC's is added, in the oldest version's place
             when there are PPD_MAX_VERSIONS.  */
          uint32_t cur = *s - 1, same = UINT32_MAX, oldest = UINT32_MAX;
          int versions = 0;
          for (uint32_t g = 0; g < n; g++)
            if (!strcmp (fns[g].name, src->name))
              {
                versions++;
                if (fns[g].checksum == src->checksum)
                  same = g;
                else if (g != cur && oldest == UINT32_MAX)
                  oldest = g;
              }
          if (same != UINT32_MAX)
            {
              if (ppd_add_fn (&fns[same], src) < 0)
                goto oom;
              fns[same].flags &= ~PP_FN_OLDER;
              fns[cur].flags |= PP_FN_OLDER;
              *s = same + 1;
              continue;
            }
          ppd_fn copy;
          if (ppd_copy_fn (&copy, src) < 0)
            goto oom;
          fns[cur].flags |= PP_FN_OLDER;
          uint32_t at = n;
          if (versions >= PPD_MAX_VERSIONS)
            {
              if (warn)
                warn (ctx, src->name);
              at = oldest != UINT32_MAX ? oldest : cur;
              ppd_free_fn (&fns[at]);
            }
          else
            n++;
          fns[at] = copy;
          x.keys[at] = ppd_key_of (&fns[at], by_unit);
          *s = at + 1;
          continue;
        }
      ppd_fn copy;
      if (ppd_copy_fn (&copy, src) < 0)
        goto oom;
      fns[n] = copy;
      x.keys[n] = ppd_key_of (&fns[n], by_unit);
      *s = ++n;
    }
  free (x.slot);
  free (x.keys);
  free (into->fns);
  into->fns = fns;
  into->nfns = n;
  into->runs = pp_add_sat (into->runs, from->runs);
  into->sum_max = pp_add_sat (into->sum_max, from->sum_max);
  if ((!into->source || !*into->source) && from->source)
    {
      free (into->source);
      into->source = strdup (from->source);
    }
  /* Out of memory here loses only the programs' names: the counts are
     merged.  */
  ppd_merge_progs (&into->progs, &into->nprogs, from->progs, from->nprogs);
  return 0;
oom:
  /* INTO's records merged so far (their lists replaced, freed) go back to
     INTO: partly merged, but consistent.  */
  if (into->nfns)
    memcpy (into->fns, fns, into->nfns * sizeof *fns);
  for (uint32_t g = into->nfns; g < n; g++)
    ppd_free_fn (&fns[g]);
  free (x.slot);
  free (x.keys);
  free (fns);
  return -1;
}

PPD_API int
ppd_merge (ppd_profile *into, const ppd_profile *from,
           void (*warn) (void *ctx, const char *fn_name), void *ctx)
{
  return ppd_merge_by (into, from, 0, warn, ctx);
}

/* Not in the runtime, which merges one object's profiles only: without a
   call with BY_UNIT set, ppd_merge_by's key by source file is compiled
   out of every instrumented program.  */
#ifndef PPD_ONE_OBJECT_ONLY
PPD_API int
ppd_merge_objects (ppd_profile *into, const ppd_profile *from)
{
  return ppd_merge_by (into, from, 1, NULL, NULL);
}
#endif

/* The entry of NAME in the sorted PROGS[0..N): its index, or -1 - where
   it would go.  */
static long
ppd_find_prog (const ppd_prog *progs, uint32_t n, const char *name)
{
  uint32_t lo = 0, hi = n;
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      int c = strcmp (progs[mid].name, name);
      if (c == 0)
        return mid;
      if (c < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return -1 - (long) lo;
}

PPD_INTERNAL int
ppd_merge_progs (ppd_prog **into, uint32_t *n, const ppd_prog *from,
                 uint32_t m)
{
  if (!m)
    return 0;
  /* At most PPD_MAX_PROGS named and the "" entry.  */
  ppd_prog *p = realloc (*into, (PPD_MAX_PROGS + 1) * sizeof *p);
  if (!p)
    return -1;
  *into = p;
  for (uint32_t i = 0; i < m; i++)
    {
      const char *name = from[i].name;
      long at = ppd_find_prog (p, *n, name);
      if (at < 0 && *name && *n - (ppd_find_prog (p, *n, "") >= 0)
                                 >= PPD_MAX_PROGS)
        {
          name = ""; /* past the named ones: the others' entry */
          at = ppd_find_prog (p, *n, name);
        }
      if (at < 0)
        {
          char *copy = strdup (name);
          if (!copy)
            return -1;
          at = -1 - at;
          memmove (p + at + 1, p + at, (*n - (uint32_t) at) * sizeof *p);
          p[at].name = copy;
          p[at].runs = 0;
          ++*n;
        }
      p[at].runs = pp_add_sat (p[at].runs, from[i].runs);
    }
  return 0;
}

/* --------------------------------------- merging into an encoded profile */

/* Whether the names of P's functions are all distinct (an open-addressing
   set of indices; 1 also when memory runs out is not safe: then 0).  */
static int
ppd_names_distinct (const ppd_profile *p)
{
  size_t cap = 16;
  while (cap < 2 * (size_t) p->nfns)
    cap *= 2;
  uint32_t *slot = calloc (cap, sizeof *slot);
  if (!slot)
    return 0;
  int distinct = 1;
  for (uint32_t f = 0; f < p->nfns && distinct; f++)
    {
      const char *name = p->fns[f].name;
      size_t i = (size_t) pp_hash_bytes (14695981039346656037ull, name,
                                          strlen (name)) & (cap - 1);
      for (; slot[i]; i = (i + 1) & (cap - 1))
        if (!strcmp (p->fns[slot[i] - 1].name, name))
          {
            distinct = 0;
            break;
          }
      slot[i] = f + 1;
    }
  free (slot);
  return distinct;
}

/* A string field of IN, not copied: its bytes and *N.  */
static const unsigned char *
ppd_span_str (ppd_in *in, uint32_t *n)
{
  *n = (uint32_t) ppd_get (in, 4);
  if (in->bad || (size_t) (in->end - in->p) < *n)
    {
      in->bad = 1;
      return NULL;
    }
  const unsigned char *s = in->p;
  in->p += *n;
  return s;
}

/* The little-endian u64 at P.  */
static uint64_t
ppd_le64 (const unsigned char *p)
{
  uint64_t v;
  memcpy (&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64 (v);
#endif
  return v;
}

/* V as a little-endian u64 at P.  */
static void
ppd_store64 (unsigned char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64 (v);
#endif
  memcpy (p, &v, 8);
}

/* The count of records patched into O at AT (a u64 put there before).  */
static void
ppd_patch_u64 (ppd_out *o, size_t at, uint64_t v)
{
  if (!o->oom)
    ppd_store64 (o->buf + at, v);
}

/* N bytes at DATA onto O, inline while O has room (ppd_merge_encoded
   allocates O at its final size up front, so it always has).  memmove,
   not memcpy: in the runtime (-Os) GCC expands a memcpy of unknown size
   into rep movsb, which valgrind counts a step per byte, and these runs
   are megabytes (a 7 MB trained list cost 8 M "instructions").  */
static inline void
ppd_copy (ppd_out *o, const void *data, size_t n)
{
  if (o->cap - o->len >= n && !o->oom)
    {
      memmove (o->buf + o->len, data, n);
      o->len += n;
    }
  else
    ppd_put (o, data, n);
}

/* OLD's N ascending records of SIZE bytes (an id first) at IN merged into
   O with the NEW_N ascending ids of NEW (pairs when SIZE is 16, with
   their counts added to OLD's where the ids meet: ppd_merge_pairs; ids
   alone when it is 8: ppd_union_ids).  OLD's records are copied in runs,
   as they are: a program run again mostly adds to ids its file has.
   Before the one-copy case below, an IPPP build's trained list (bzip2's
   blocksort: 874,890 ids, the same in every run) cost two buffer calls
   per id, 90 M instructions of each run's exit.
   0, or 1 when OLD's ids are not ascending or do not fit IN.  */
static int
ppd_put_merged (ppd_out *o, ppd_in *in, uint64_t n, size_t size,
                const void *new, uint64_t new_n)
{
  if (in->bad || n > (size_t) (in->end - in->p) / size)
    return 1;
  const unsigned char *rec = in->p, *run = rec;
  in->p += n * size;
  const ppd_pair *pairs = new;
  const uint64_t *ids = new;
#define NEW_ID(j) (size == 16 ? pairs[j].id : ids[j])
  size_t at = o->len;
  ppd_put_u64 (o, 0); /* the number of records, patched below */
  /* A run again mostly meets only ids OLD has: then OLD's records go
     out in one copy and this run's counts are added there in place.  At
     the first id OLD lacks, the general merge below starts over.  */
  size_t base = o->len;
  ppd_copy (o, rec, (size_t) n * size);
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* The same list of ids as the file's (an IPPP build's trained list,
     every run): OLD is ascending as NEW is, nothing to walk.  */
  if (size == 8 && n == new_n && n && !o->oom
      && memcmp (rec, ids, (size_t) n * 8) == 0)
    {
      ppd_patch_u64 (o, at, n);
      return 0;
    }
#endif
  if (!o->oom)
    {
      unsigned char *out = o->buf + base;
      uint64_t j = 0, last = 0, i;
      for (i = 0; i < n; i++)
        {
          uint64_t id = ppd_le64 (rec + i * size);
          if (i && id <= last)
            return 1;
          last = id;
          if (j == new_n || NEW_ID (j) > id)
            continue;
          if (NEW_ID (j) < id)
            break;
          if (size == 16)
            ppd_store64 (out + i * 16 + 8,
                         pp_add_sat (ppd_le64 (rec + i * 16 + 8),
                                     pairs[j].count));
          j++;
        }
      if (i == n && j == new_n)
        {
          ppd_patch_u64 (o, at, n);
          return 0;
        }
    }
  o->len = base;
  uint64_t j = 0, k = n, last = 0;
  for (uint64_t i = 0; i < n; i++, rec += size)
    {
      uint64_t id = ppd_le64 (rec);
      if (i && id <= last)
        return 1;
      last = id;
      if (j == new_n || NEW_ID (j) > id)
        continue;
      if (NEW_ID (j) < id)
        {
          /* New ids before this record: OLD's run so far, then them.  */
          ppd_copy (o, run, (size_t) (rec - run));
          for (; j < new_n && NEW_ID (j) < id; j++, k++)
            {
              ppd_put_u64 (o, NEW_ID (j));
              if (size == 16)
                ppd_put_u64 (o, pairs[j].count);
            }
          run = rec;
        }
      if (j < new_n && NEW_ID (j) == id)
        {
          if (size == 16)
            {
              /* The run up to this record's count, then the sum.  */
              ppd_copy (o, run, (size_t) (rec + 8 - run));
              ppd_put_u64 (o, pp_add_sat (ppd_le64 (rec + 8), pairs[j].count));
              run = rec + 16;
            }
          j++;
        }
    }
  ppd_copy (o, run, (size_t) (rec - run));
  for (; j < new_n; j++, k++)
    {
      ppd_put_u64 (o, NEW_ID (j));
      if (size == 16)
        ppd_put_u64 (o, pairs[j].count);
    }
#undef NEW_ID
  ppd_patch_u64 (o, at, k);
  return 0;
}

/* Whether this run adds nothing to FN's record: no count, no drop, no
   trained list or value profile of its own.  */
static int
ppd_fn_untouched (const ppd_fn *fn)
{
  return !fn->npairs && !fn->dropped && !fn->nvalues
         && !((fn->flags & PP_FN_TRAINED) && fn->ntrained);
}

/* The bytes of the record at IN (left where it is), when it is FN's and
   this run, adding nothing to it (ppd_fn_untouched), would write it out
   as it is: its name, checksum and metadata FN's or kept, its flags
   holding FN's, its lists fitting IN.  0 otherwise (the general merge
   then reads it).  Most functions of a program do not run in one run:
   copied in one piece with their neighbours, they cost lua's exit a
   third of what writing them field by field did.  */
static size_t
ppd_untouched_span (const ppd_in *in, const ppd_fn *fn, size_t name_len)
{
  ppd_in r = *in;
  uint32_t n;
  const unsigned char *name = ppd_span_str (&r, &n);
  uint32_t checksum = (uint32_t) ppd_get (&r, 4);
  uint32_t flags = (uint32_t) ppd_get (&r, 4);
  if (r.bad || n != name_len || memcmp (name, fn->name, n)
      || checksum != fn->checksum || (flags | fn->flags) != flags
      || (flags & PP_FN_OLDER))
    return 0;
  if (r.end - r.p < 16)
    return 0;
  r.p += 16; /* num_paths, dropped */
  ppd_span_str (&r, &n);
  if (!n && fn->meta_len)
    return 0;
  static const size_t size[3] = { 16, 8, 8 };
  for (int list = 0; list < 3 && !r.bad; list++)
    {
      uint64_t k = ppd_get (&r, 8);
      if (r.bad || k > (size_t) (r.end - r.p) / size[list]
          || (list == 2 && k % PPD_VALUE_WORDS))
        return 0;
      r.p += k * size[list];
    }
  return r.bad ? 0 : (size_t) (r.p - in->p);
}

PPD_API int
ppd_merge_encoded (const unsigned char *old, size_t len,
                   const ppd_profile *now, unsigned char **out,
                   size_t *out_len)
{
  const char *why;
  if (ppd_check (old, len, &why) != PPD_VERSION || !ppd_names_distinct (now))
    return 1;
  ppd_in in = { old + PPD_HEADER_SIZE, old + len, 0, 0 };
  ppd_out o = { NULL, 0, 0, 0 };
  int rc = 1;
  /* The output's size at most: OLD, and what this run may add to it (its
     source, each function's metadata and records).  Allocated once, not
     grown by doubling and copied on the way.  */
  size_t bound = len + (now->source ? strlen (now->source) : 0);
  for (uint32_t g = 0; g < now->nprogs; g++)
    bound += strlen (now->progs[g].name) + 12;
  for (uint32_t f = 0; f < now->nfns; f++)
    bound += now->fns[f].meta_len + 16 * now->fns[f].npairs
             + 8 * now->fns[f].ntrained + 8 * now->fns[f].nvalues;
  o.buf = malloc (bound);
  o.cap = o.buf ? bound : 0;
  ppd_put (&o, PPD_MAGIC, 4);
  ppd_put_u32 (&o, PPD_VERSION);
  ppd_put_u64 (&o, 0); /* length, patched below */
  ppd_put_u64 (&o, 0); /* checksum, patched below */
  ppd_put_u64 (&o, pp_add_sat (ppd_get (&in, 8), now->runs));
  ppd_put_u64 (&o, pp_add_sat (ppd_get (&in, 8), now->sum_max));
  uint32_t n;
  const unsigned char *s = ppd_span_str (&in, &n);
  if (!n && now->source && *now->source)
    ppd_put_str (&o, now->source, (uint32_t) strlen (now->source));
  else if (s)
    ppd_put_str (&o, (const char *) s, n);
  if ((uint32_t) ppd_get (&in, 4) != now->nfns)
    goto out;
  ppd_put_u32 (&o, now->nfns);
  /* Untouched records, copied together at the next touched one.  */
  const unsigned char *untouched = in.p;
  for (uint32_t f = 0; f < now->nfns && !in.bad; f++)
    {
      const ppd_fn *fn = &now->fns[f];
      size_t name_len = strlen (fn->name), span;
      if (ppd_fn_untouched (fn)
          && (span = ppd_untouched_span (&in, fn, name_len)))
        {
          in.p += span;
          continue;
        }
      ppd_copy (&o, untouched, (size_t) (in.p - untouched));
      const unsigned char *name = ppd_span_str (&in, &n);
      uint32_t checksum = (uint32_t) ppd_get (&in, 4);
      uint32_t flags = (uint32_t) ppd_get (&in, 4);
      if (in.bad || n != name_len || memcmp (name, fn->name, n)
          || checksum != fn->checksum || ((flags | fn->flags) & PP_FN_OLDER))
        goto out;
      ppd_put_str (&o, fn->name, n);
      ppd_put_u32 (&o, checksum);
      ppd_put_u32 (&o, flags | fn->flags);
      ppd_put_u64 (&o, ppd_get (&in, 8)); /* num_paths: the file's */
      ppd_put_u64 (&o, pp_add_sat (ppd_get (&in, 8), fn->dropped));
      /* A record without metadata takes this one's (ppd_add_fn).  */
      const unsigned char *meta = ppd_span_str (&in, &n);
      if (!n && fn->meta_len)
        ppd_put_str (&o, fn->meta, fn->meta_len);
      else if (meta)
        ppd_put_str (&o, (const char *) meta, n);
      uint64_t np = ppd_get (&in, 8);
      if (ppd_put_merged (&o, &in, np, 16, fn->pairs, fn->npairs))
        goto out;
      /* Trained lists: a union, when this run has one (ppd_add_fn).  */
      uint64_t nt = ppd_get (&in, 8);
      int trained = (fn->flags & PP_FN_TRAINED) != 0;
      if (ppd_put_merged (&o, &in, nt, 8, fn->trained,
                          trained ? fn->ntrained : 0))
        goto out;
      /* Value profiles: word by word; the file's or this run's alone
         when the other has none (ppd_add_fn).  */
      uint64_t nv = ppd_get (&in, 8);
      if (in.bad || (nv && fn->nvalues && nv != fn->nvalues)
          || nv > (size_t) (in.end - in.p) / 8)
        goto out;
      uint64_t keep = nv ? nv : fn->nvalues;
      if (keep % PPD_VALUE_WORDS)
        goto out;
      ppd_put_u64 (&o, keep);
      for (uint64_t v = 0; v < keep; v += PPD_VALUE_WORDS)
        {
          uint64_t site[PPD_VALUE_WORDS] = { 0 };
          for (int w = 0; nv && w < PPD_VALUE_WORDS; w++)
            site[w] = ppd_get (&in, 8);
          if (fn->nvalues)
            ppd_value_merge_site (site, fn->values + v);
          for (int w = 0; w < PPD_VALUE_WORDS; w++)
            ppd_put_u64 (&o, site[w]);
        }
      untouched = in.p;
    }
  if (!in.bad)
    ppd_copy (&o, untouched, (size_t) (in.p - untouched));
  ppd_prog *progs;
  uint32_t nprogs;
  ppd_get_progs (&in, &progs, &nprogs);
  if (!in.bad
      && ppd_merge_progs (&progs, &nprogs, now->progs, now->nprogs) < 0)
    in.bad = in.oom = 1;
  if (!in.bad)
    ppd_put_progs (&o, progs, nprogs);
  ppd_free_progs (progs, nprogs);
  if (in.oom)
    {
      rc = -1;
      goto out;
    }
  if (in.bad || in.p != in.end)
    goto out;
  if (o.oom)
    {
      rc = -1;
      goto out;
    }
  ppd_seal (&o);
  *out = o.buf;
  *out_len = o.len;
  return 0;
out:
  free (o.buf);
  return rc;
}
