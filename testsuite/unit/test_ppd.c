/* CUnit tests of the .ppd codec (include/pp/ppd.h, lib/ppd_*.c):
   version 2 round trips with trained lists, version 1 images (no trained
   list) written by hand, merging (counts add, trained sets unite), and the
   rejection of malformed and truncated images.  */
#define _GNU_SOURCE /* memmem */
#include "test_ppd.h"

#include "pp/ppd.h"
#include "pp/rt_abi.h"
#include "pp/meta_pack.h"
#include "file_io.h"
#include "ppd_internal.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ helpers */

/* Fills FN with malloc'd copies, so that ppd_free can release it.  */
static void
set_fn (ppd_fn *fn, const char *name, uint32_t checksum, uint32_t flags,
        const ppd_pair *pairs, uint64_t npairs, const uint64_t *trained,
        uint64_t ntrained)
{
  memset (fn, 0, sizeof *fn);
  fn->name = strdup (name);
  fn->checksum = checksum;
  fn->flags = flags;
  fn->num_paths = 16;
  fn->meta = strdup ("entry s\nexit t\nedge s t\n");
  fn->meta_len = (uint32_t) strlen (fn->meta);
  fn->pairs = calloc (npairs + 1, sizeof *fn->pairs);
  if (npairs)
    memcpy (fn->pairs, pairs, npairs * sizeof *pairs);
  fn->npairs = npairs;
  if (ntrained)
    {
      fn->trained = calloc (ntrained, sizeof *fn->trained);
      memcpy (fn->trained, trained, ntrained * sizeof *trained);
    }
  fn->ntrained = ntrained;
}

static void
init_profile (ppd_profile *p, uint64_t runs, const char *source,
              uint32_t nfns)
{
  memset (p, 0, sizeof *p);
  p->runs = runs;
  p->source = strdup (source);
  p->nfns = nfns;
  p->fns = calloc (nfns + 1, sizeof *p->fns);
}

/* A profile with one function "f" (checksum 1) and the given lists.  */
static void
one_fn_profile (ppd_profile *p, uint32_t flags, const ppd_pair *pairs,
                uint64_t npairs, const uint64_t *trained, uint64_t ntrained)
{
  init_profile (p, 1, "t.c", 1);
  set_fn (&p->fns[0], "f", 1, flags, pairs, npairs, trained, ntrained);
}

/* Our own FNV-1a 64, so that hand-built images do not trust the codec.  */
static uint64_t
fnv1a64 (const unsigned char *p, size_t n)
{
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

/* Our own pp_sum64 (version 3 on): FNV-1a's step over 64-bit
   little-endian words, a shift, the length folded in first.  */
static uint64_t
sum64 (const unsigned char *p, size_t n)
{
  uint64_t h = 14695981039346656037ull ^ (uint64_t) n;
  for (size_t i = 0; i < n; i += 8)
    {
      uint64_t w = 0;
      for (size_t k = 0; k < 8 && i + k < n; k++)
        w |= (uint64_t) p[i + k] << (8 * k);
      h = (h ^ w) * 1099511628211ull;
      h ^= h >> 29;
    }
  return h;
}

/* Our own pp_sum64_lanes (version 4 on): the bytes zero-padded to a
   multiple of 64, word I (little-endian) into lane I mod 8, A += word
   then B += A; the eight As, then the eight Bs, mixed into the length by
   MurmurHash3's fmix64.  */
static uint64_t
fmix64 (uint64_t x)
{
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

static uint64_t
sum64_lanes (const unsigned char *p, size_t n)
{
  uint64_t a[8] = { 0 }, b[8] = { 0 };
  for (size_t i = 0; 8 * i < (n + 63) / 64 * 64; i++)
    {
      uint64_t w = 0;
      for (size_t k = 0; k < 8 && 8 * i + k < n; k++)
        w |= (uint64_t) p[8 * i + k] << (8 * k);
      a[i % 8] += w;
      b[i % 8] += a[i % 8];
    }
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t) n;
  for (int l = 0; l < 8; l++)
    h = fmix64 (h ^ a[l]);
  for (int l = 0; l < 8; l++)
    h = fmix64 (h ^ b[l]);
  return h;
}

/* pp_sum64, four words a step, against the word-at-a-time definition
   above: every length from 0 to 200 (whole steps, whole words, a 1-7
   byte tail) over the same bytes.  */
static void
test_sum64_lengths (void)
{
  unsigned char b[200];
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < sizeof b; i++)
    {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      b[i] = (unsigned char) x;
    }
  for (size_t n = 0; n <= sizeof b; n++)
    CU_ASSERT_EQUAL (pp_sum64 (b, n), sum64 (b, n));
}

/* pp_sum64_lanes (64 bytes a step in vectors, then word by word) against
   the definition above, every length from 0 to 300 and from every
   alignment; and what it must notice: a changed byte anywhere, two words
   that trade places, a zero word added at the end.  */
static void
test_sum64_lanes (void)
{
  unsigned char b[320];
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < sizeof b; i++)
    {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      b[i] = (unsigned char) x;
    }
  int same = 0, tries = 0;
  for (size_t off = 0; off < 8; off++)
    for (size_t n = 0; n + off <= 300; n++, tries++)
      same += pp_sum64_lanes (b + off, n) == sum64_lanes (b + off, n);
  CU_ASSERT_EQUAL (same, tries);
  uint64_t whole = pp_sum64_lanes (b, 256);
  int noticed = 0;
  for (size_t i = 0; i < 256; i++)
    {
      b[i] ^= 0x10;
      noticed += pp_sum64_lanes (b, 256) != whole;
      b[i] ^= 0x10;
    }
  CU_ASSERT_EQUAL (noticed, 256);
  unsigned char t[8];
  memcpy (t, b + 8, 8);
  memcpy (b + 8, b + 72, 8); /* words 1 and 9: the same lane */
  memcpy (b + 72, t, 8);
  CU_ASSERT_NOT_EQUAL (pp_sum64_lanes (b, 256), whole);
  memcpy (b + 72, b + 8, 8);
  memcpy (b + 8, t, 8);
  CU_ASSERT_EQUAL (pp_sum64_lanes (b, 256), whole);
  memset (b + 256, 0, 8);
  CU_ASSERT_NOT_EQUAL (pp_sum64_lanes (b, 264), whole);
}

static void
store_le (unsigned char *at, uint64_t v, int bytes)
{
  for (int i = 0; i < bytes; i++)
    at[i] = (unsigned char) (v >> (8 * i));
}

/* Rewrites the header of the image BUF (LEN bytes): magic, VERSION, the
   payload length and its checksum.  */
static void
seal (unsigned char *buf, size_t len, uint32_t version)
{
  memcpy (buf, "PPD\x01", 4);
  store_le (buf + 4, version, 4);
  store_le (buf + 8, len - PPD_HEADER_SIZE, 8);
  store_le (buf + 16,
            version >= 4   ? sum64_lanes (buf + PPD_HEADER_SIZE,
                                          len - PPD_HEADER_SIZE)
            : version == 3 ? sum64 (buf + PPD_HEADER_SIZE, len - PPD_HEADER_SIZE)
                           : fnv1a64 (buf + PPD_HEADER_SIZE,
                                      len - PPD_HEADER_SIZE),
            8);
}

/* An image built by hand, header left for seal.  */
typedef struct
{
  unsigned char buf[1024];
  size_t len;
} image;

static void
put (image *im, uint64_t v, int bytes)
{
  store_le (im->buf + im->len, v, bytes);
  im->len += bytes;
}

static void
put_str (image *im, const char *s)
{
  put (im, strlen (s), 4);
  memcpy (im->buf + im->len, s, strlen (s));
  im->len += strlen (s);
}

/* A version-1 payload: one function "h" with pairs (0,1) (2,6).  When
   WITH_TRAINED, in the version 2 layout: a zero sum_max after the runs and
   an empty trained list at the end.  */
static void
old_image (image *im, uint32_t version, int with_trained)
{
  im->len = PPD_HEADER_SIZE;
  put (im, 4, 8);           /* runs */
  if (with_trained)
    put (im, 0, 8);         /* sum_max */
  put_str (im, "old.c");    /* source */
  put (im, 1, 4);           /* nfns */
  put_str (im, "h");        /* name */
  put (im, 9, 4);           /* checksum */
  put (im, 0, 4);           /* flags */
  put (im, 3, 8);           /* num_paths */
  put (im, 5, 8);           /* dropped */
  put_str (im, "meta");
  put (im, 2, 8);           /* npairs */
  put (im, 0, 8), put (im, 1, 8);
  put (im, 2, 8), put (im, 6, 8);
  if (with_trained)
    put (im, 0, 8);
  if (version >= 6)
    put (im, 0, 8);         /* nvalues */
  if (version >= 5)
    put (im, 0, 4);         /* nprogs */
  seal (im->buf, im->len, version);
}

/* Decodes BUF and expects failure with reason WHY.  */
static void
expect_reject (const unsigned char *buf, size_t len, const char *why)
{
  ppd_profile p;
  const char *got = NULL;
  CU_ASSERT_EQUAL (ppd_decode (buf, len, &p, &got), -1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (got);
  CU_ASSERT_STRING_EQUAL (got, why);
  /* A failed decode leaves nothing to free.  */
  CU_ASSERT_EQUAL (p.nfns, 0);
  CU_ASSERT_PTR_NULL (p.fns);
}

/* -------------------------------------------------------------- tests */

static void
test_round_trip (void)
{
  const ppd_pair pf[] = { { 1, 10 }, { 5, UINT64_MAX } };
  const uint64_t tf[] = { 0, 5, 11 };
  ppd_profile p;
  init_profile (&p, 3, "a.c", 2);
  set_fn (&p.fns[0], "f", 0xdeadbeef, PP_FN_TRAINED | PP_FN_PPP, pf, 2, tf,
          3);
  p.fns[0].dropped = 2;
  p.sum_max = 123456789012ull;
  set_fn (&p.fns[1], "g", 7, 0, NULL, 0, NULL, 0);

  unsigned char *buf;
  size_t len;
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&p, &buf, &len), 0);
  CU_ASSERT_EQUAL (memcmp (buf, "PPD\x01", 4), 0);
  CU_ASSERT_EQUAL (buf[4], 6); /* version 6 */

  ppd_profile q;
  const char *why = NULL;
  CU_ASSERT_EQUAL_FATAL (ppd_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL (q.runs, 3);
  CU_ASSERT_EQUAL (q.sum_max, 123456789012ull);
  CU_ASSERT_STRING_EQUAL (q.source, "a.c");
  CU_ASSERT_EQUAL_FATAL (q.nfns, 2);
  const ppd_fn *f = &q.fns[0], *g = &q.fns[1];
  CU_ASSERT_STRING_EQUAL (f->name, "f");
  CU_ASSERT_EQUAL (f->checksum, 0xdeadbeef);
  CU_ASSERT_EQUAL (f->flags, PP_FN_TRAINED | PP_FN_PPP);
  CU_ASSERT_EQUAL (f->num_paths, 16);
  CU_ASSERT_EQUAL (f->dropped, 2);
  CU_ASSERT_EQUAL (f->meta_len, p.fns[0].meta_len);
  CU_ASSERT_STRING_EQUAL (f->meta, p.fns[0].meta);
  CU_ASSERT_EQUAL_FATAL (f->npairs, 2);
  CU_ASSERT_EQUAL (f->pairs[0].id, 1);
  CU_ASSERT_EQUAL (f->pairs[0].count, 10);
  CU_ASSERT_EQUAL (f->pairs[1].id, 5);
  CU_ASSERT_EQUAL (f->pairs[1].count, UINT64_MAX);
  CU_ASSERT_EQUAL_FATAL (f->ntrained, 3);
  CU_ASSERT_EQUAL (f->trained[0], 0);
  CU_ASSERT_EQUAL (f->trained[1], 5);
  CU_ASSERT_EQUAL (f->trained[2], 11);
  CU_ASSERT_STRING_EQUAL (g->name, "g");
  CU_ASSERT_EQUAL (g->checksum, 7);
  CU_ASSERT_EQUAL (g->flags, 0);
  CU_ASSERT_EQUAL (g->npairs, 0);
  CU_ASSERT_EQUAL (g->ntrained, 0);

  /* Encoding what was decoded gives the same bytes.  */
  unsigned char *again;
  size_t again_len;
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&q, &again, &again_len), 0);
  CU_ASSERT_EQUAL_FATAL (again_len, len);
  CU_ASSERT_EQUAL (memcmp (again, buf, len), 0);
  free (again);
  free (buf);
  ppd_free (&q);
  ppd_free (&p);
}

static void
test_files (void)
{
  const ppd_pair pf[] = { { 2, 3 } };
  const uint64_t tf[] = { 2, 4 };
  ppd_profile p, q;
  one_fn_profile (&p, PP_FN_TRAINED, pf, 1, tf, 2);
  char dir[] = "/tmp/test_ppd.XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL (mkdtemp (dir));
  char path[64];
  snprintf (path, sizeof path, "%s/x.ppd", dir);
  const char *why = NULL;
  CU_ASSERT_EQUAL (ppd_read_file (path, &q, &why), 1); /* no file yet */
  CU_ASSERT_EQUAL_FATAL (ppd_write_file (path, &p), 0);
  CU_ASSERT_EQUAL_FATAL (ppd_read_file (path, &q, &why), 0);
  CU_ASSERT_EQUAL_FATAL (q.nfns, 1);
  CU_ASSERT_EQUAL_FATAL (q.fns[0].ntrained, 2);
  CU_ASSERT_EQUAL (q.fns[0].trained[0], 2);
  CU_ASSERT_EQUAL (q.fns[0].trained[1], 4);
  ppd_free (&q);

  /* The same file cut short by one byte.  */
  FILE *fp = fopen (path, "rb");
  CU_ASSERT_PTR_NOT_NULL_FATAL (fp);
  CU_ASSERT_EQUAL (fseek (fp, 0, SEEK_END), 0);
  long size = ftell (fp);
  fclose (fp);
  CU_ASSERT_FATAL (size > PPD_HEADER_SIZE);
  CU_ASSERT_EQUAL_FATAL (truncate (path, size - 1), 0);
  why = NULL;
  CU_ASSERT_EQUAL (ppd_read_file (path, &q, &why), -1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (why);
  CU_ASSERT_STRING_EQUAL (why, "truncated");
  unlink (path);
  rmdir (dir);
  ppd_free (&p);
}

static void
test_version1 (void)
{
  image im;
  old_image (&im, 1, 0);
  ppd_profile p;
  const char *why = NULL;
  CU_ASSERT_EQUAL_FATAL (ppd_decode (im.buf, im.len, &p, &why), 0);
  CU_ASSERT_EQUAL (p.runs, 4);
  CU_ASSERT_STRING_EQUAL (p.source, "old.c");
  CU_ASSERT_EQUAL_FATAL (p.nfns, 1);
  const ppd_fn *h = &p.fns[0];
  CU_ASSERT_STRING_EQUAL (h->name, "h");
  CU_ASSERT_EQUAL (h->checksum, 9);
  CU_ASSERT_EQUAL (h->flags, 0);
  CU_ASSERT_EQUAL (h->num_paths, 3);
  CU_ASSERT_EQUAL (h->dropped, 5);
  CU_ASSERT_EQUAL (h->meta_len, 4);
  CU_ASSERT_STRING_EQUAL (h->meta, "meta");
  CU_ASSERT_EQUAL_FATAL (h->npairs, 2);
  CU_ASSERT_EQUAL (h->pairs[0].id, 0);
  CU_ASSERT_EQUAL (h->pairs[0].count, 1);
  CU_ASSERT_EQUAL (h->pairs[1].id, 2);
  CU_ASSERT_EQUAL (h->pairs[1].count, 6);
  CU_ASSERT_EQUAL (h->ntrained, 0);

  /* Written again, it is a version 6 file with a zero sum_max, an
     empty trained list, no value profiles and no programs (the layout of
     version 2, another checksum, then the values' and the programs'
     counts).  */
  unsigned char *buf;
  size_t len;
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&p, &buf, &len), 0);
  image v6;
  old_image (&v6, 6, 1);
  CU_ASSERT_EQUAL_FATAL (len, v6.len);
  CU_ASSERT_EQUAL (memcmp (buf, v6.buf, len), 0);
  /* A version 4 image (no programs) is still read.  */
  image v4;
  old_image (&v4, 4, 1);
  ppd_profile p4;
  CU_ASSERT_EQUAL (ppd_decode (v4.buf, v4.len, &p4, &why), 0);
  CU_ASSERT_EQUAL (p4.nprogs, 0);
  if (p4.nfns == 1)
    CU_ASSERT_EQUAL (p4.fns[0].npairs, 2);
  ppd_free (&p4);
  /* A version 3 image (pp_sum64) is still read, and checked with its
     own sum: a version 4 header over it is corrupt.  */
  image v3;
  old_image (&v3, 3, 1);
  ppd_profile p3;
  CU_ASSERT_EQUAL (ppd_decode (v3.buf, v3.len, &p3, &why), 0);
  if (p3.nfns == 1)
    CU_ASSERT_EQUAL (p3.fns[0].npairs, 2);
  ppd_free (&p3);
  store_le (v3.buf + 4, 4, 4);
  expect_reject (v3.buf, v3.len, "checksum mismatch (corrupted)");
  /* A version 2 image (FNV-1a 64) is still read.  */
  image v2;
  old_image (&v2, 2, 1);
  ppd_profile p2;
  CU_ASSERT_EQUAL (ppd_decode (v2.buf, v2.len, &p2, &why), 0);
  if (p2.nfns == 1)
    CU_ASSERT_EQUAL (p2.fns[0].npairs, 2);
  ppd_free (&p2);
  /* Each version is checked with its own sum: a version 3 header over a
     version 2 checksum is corrupt.  */
  store_le (v2.buf + 4, 3, 4);
  expect_reject (v2.buf, v2.len, "checksum mismatch (corrupted)");
  free (buf);
  ppd_free (&p);

  /* The version decides: the version 1 payload under version 2 lacks the
     trained list, and other versions are refused.  */
  old_image (&im, 2, 0);
  expect_reject (im.buf, im.len, "malformed contents");
  old_image (&im, 7, 0);
  expect_reject (im.buf, im.len,
                 "profile format version not supported by this ppgcc");
}

static void
test_merge (void)
{
  const ppd_pair pa[] = { { 1, 2 }, { 3, 4 } };
  const ppd_pair pb[] = { { 3, 1 }, { 9, 7 } };
  const uint64_t ta[] = { 1, 5 }, tb[] = { 2, 5, 9 };
  ppd_profile a, b;
  one_fn_profile (&a, PP_FN_TRAINED, pa, 2, ta, 2);
  one_fn_profile (&b, PP_FN_TRAINED, pb, 2, tb, 3);
  a.fns[0].dropped = 1;
  b.fns[0].dropped = 2;
  a.sum_max = 40;
  b.sum_max = 2;
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&a, &b, NULL, NULL), 0);
  CU_ASSERT_EQUAL (a.runs, 2);
  CU_ASSERT_EQUAL (a.sum_max, 42); /* summed over runs, as gcov's */
  CU_ASSERT_EQUAL_FATAL (a.nfns, 1);
  const ppd_fn *f = &a.fns[0];
  CU_ASSERT_EQUAL (f->flags, PP_FN_TRAINED);
  CU_ASSERT_EQUAL (f->dropped, 3);
  CU_ASSERT_EQUAL_FATAL (f->npairs, 3);
  CU_ASSERT_EQUAL (f->pairs[0].id, 1);
  CU_ASSERT_EQUAL (f->pairs[0].count, 2);
  CU_ASSERT_EQUAL (f->pairs[1].id, 3);
  CU_ASSERT_EQUAL (f->pairs[1].count, 5);
  CU_ASSERT_EQUAL (f->pairs[2].id, 9);
  CU_ASSERT_EQUAL (f->pairs[2].count, 7);
  CU_ASSERT_EQUAL_FATAL (f->ntrained, 4);
  CU_ASSERT_EQUAL (f->trained[0], 1);
  CU_ASSERT_EQUAL (f->trained[1], 2);
  CU_ASSERT_EQUAL (f->trained[2], 5);
  CU_ASSERT_EQUAL (f->trained[3], 9);

  /* Into an empty profile (as ppprof merge starts): the list is kept.  */
  ppd_profile m = { 0 };
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&m, &b, NULL, NULL), 0);
  CU_ASSERT_EQUAL_FATAL (m.nfns, 1);
  CU_ASSERT_EQUAL (m.fns[0].flags, PP_FN_TRAINED);
  CU_ASSERT_EQUAL_FATAL (m.fns[0].ntrained, 3);
  CU_ASSERT_EQUAL (m.fns[0].trained[0], 2);
  CU_ASSERT_EQUAL (m.fns[0].trained[1], 5);
  CU_ASSERT_EQUAL (m.fns[0].trained[2], 9);
  CU_ASSERT_PTR_NOT_EQUAL (m.fns[0].trained, b.fns[0].trained); /* a copy */

  /* A profile without a trained list (version 1, say) adds its counts and
     leaves the list alone.  */
  ppd_profile c;
  one_fn_profile (&c, 0, pa, 1, NULL, 0);
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&m, &c, NULL, NULL), 0);
  CU_ASSERT_EQUAL (m.fns[0].flags, PP_FN_TRAINED);
  CU_ASSERT_EQUAL (m.fns[0].ntrained, 3);
  CU_ASSERT_EQUAL_FATAL (m.fns[0].npairs, 3);
  CU_ASSERT_EQUAL (m.fns[0].pairs[0].id, 1);
  CU_ASSERT_EQUAL (m.fns[0].pairs[0].count, 2);
  ppd_free (&c);
  ppd_free (&m);
  ppd_free (&b);
  ppd_free (&a);
}

/* FN: function NAME of source FILE (in its metadata, as the plugin writes
   it) with CHECKSUM and one path, id ID run COUNT times.  */
static void
set_fn_in (ppd_fn *fn, const char *name, const char *file, uint32_t checksum,
           uint64_t id, uint64_t count)
{
  const ppd_pair pair = { id, count };
  set_fn (fn, name, checksum, 0, &pair, 1, NULL, 0);
  char meta[256];
  snprintf (meta, sizeof meta, "function %s\nfile \"%s\"\nchecksum 0x%08x\n"
            "max_paths 0\nentry s\nexit t\nedge s t\n", name, file, checksum);
  free (fn->meta);
  fn->meta = strdup (meta);
  fn->meta_len = (uint32_t) strlen (meta);
}

/* The record of NAME in FILE with CHECKSUM in P, or NULL.  */
static const ppd_fn *
find_fn (const ppd_profile *p, const char *name, const char *file,
         uint32_t checksum)
{
  char quoted[128];
  snprintf (quoted, sizeof quoted, "\nfile \"%s\"\n", file);
  for (uint32_t f = 0; f < p->nfns; f++)
    if (!strcmp (p->fns[f].name, name) && p->fns[f].checksum == checksum
        && strstr (p->fns[f].meta, quoted))
      return &p->fns[f];
  return NULL;
}

static void
expect_one_pair (const ppd_fn *fn, uint64_t id, uint64_t count)
{
  CU_ASSERT_PTR_NOT_NULL_FATAL (fn);
  CU_ASSERT_EQUAL_FATAL (fn->npairs, 1);
  CU_ASSERT_EQUAL (fn->pairs[0].id, id);
  CU_ASSERT_EQUAL (fn->pairs[0].count, count);
}

static int warnings;

static void
count_warning (void *ctx, const char *fn)
{
  warnings++;
}

/* ppprof merge of two objects' profiles: each has a
   static helper (another CFG in each) and a static twin (the same CFG):
   all four kept with their own counts; the same name, file and checksum
   add up; the same name and file with another checksum is kept too.  */
static void
test_merge_objects (void)
{
  ppd_profile a, b, m = { 0 };
  init_profile (&a, 1, "a.c", 2);
  set_fn_in (&a.fns[0], "helper", "a.c", 0x11, 0, 5);
  set_fn_in (&a.fns[1], "twin", "a.c", 0x77, 1, 30);
  init_profile (&b, 1, "b.c", 4);
  set_fn_in (&b.fns[0], "helper", "b.c", 0x22, 2, 3);
  set_fn_in (&b.fns[1], "twin", "b.c", 0x77, 0, 70);
  set_fn_in (&b.fns[2], "inl", "h.h", 0x33, 4, 1);
  set_fn_in (&b.fns[3], "inl", "h.h", 0x34, 4, 2);
  CU_ASSERT_EQUAL_FATAL (ppd_merge_objects (&m, &a), 0);
  CU_ASSERT_EQUAL_FATAL (ppd_merge_objects (&m, &b), 0);
  CU_ASSERT_EQUAL (m.runs, 2);
  CU_ASSERT_EQUAL (m.nfns, 6);
  expect_one_pair (find_fn (&m, "helper", "a.c", 0x11), 0, 5);
  expect_one_pair (find_fn (&m, "helper", "b.c", 0x22), 2, 3);
  expect_one_pair (find_fn (&m, "twin", "a.c", 0x77), 1, 30);
  expect_one_pair (find_fn (&m, "twin", "b.c", 0x77), 0, 70);
  expect_one_pair (find_fn (&m, "inl", "h.h", 0x33), 4, 1);
  expect_one_pair (find_fn (&m, "inl", "h.h", 0x34), 4, 2);
  /* Again: every function adds to its own record only.  */
  CU_ASSERT_EQUAL_FATAL (ppd_merge_objects (&m, &b), 0);
  CU_ASSERT_EQUAL (m.nfns, 6);
  expect_one_pair (find_fn (&m, "helper", "a.c", 0x11), 0, 5);
  expect_one_pair (find_fn (&m, "helper", "b.c", 0x22), 2, 6);
  expect_one_pair (find_fn (&m, "twin", "a.c", 0x77), 1, 30);
  expect_one_pair (find_fn (&m, "twin", "b.c", 0x77), 0, 140);
  expect_one_pair (find_fn (&m, "inl", "h.h", 0x34), 4, 4);

  /* ppd_merge (one object's runs, as the runtime merges): by name.  A
     run of another build's CFG (another -O level) becomes the current
     record; the old one is kept beside it, flagged older, without a
     warning; a run of the old CFG again adds to it and makes it current.  */
  ppd_profile old, now;
  init_profile (&old, 1, "a.c", 1);
  set_fn_in (&old.fns[0], "helper", "a.c", 0x11, 0, 5);
  init_profile (&now, 1, "a.c", 1);
  set_fn_in (&now.fns[0], "helper", "a.c", 0x12, 3, 1);
  warnings = 0;
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&old, &now, count_warning, NULL), 0);
  CU_ASSERT_EQUAL (warnings, 0);
  CU_ASSERT_EQUAL (old.nfns, 2);
  expect_one_pair (find_fn (&old, "helper", "a.c", 0x12), 3, 1);
  expect_one_pair (find_fn (&old, "helper", "a.c", 0x11), 0, 5);
  CU_ASSERT_FALSE (find_fn (&old, "helper", "a.c", 0x12)->flags & PP_FN_OLDER);
  CU_ASSERT_TRUE (find_fn (&old, "helper", "a.c", 0x11)->flags & PP_FN_OLDER);
  ppd_free (&now);
  init_profile (&now, 1, "a.c", 1);
  set_fn_in (&now.fns[0], "helper", "a.c", 0x11, 0, 2);
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&old, &now, count_warning, NULL), 0);
  CU_ASSERT_EQUAL (warnings, 0);
  CU_ASSERT_EQUAL (old.nfns, 2);
  expect_one_pair (find_fn (&old, "helper", "a.c", 0x11), 0, 7);
  CU_ASSERT_FALSE (find_fn (&old, "helper", "a.c", 0x11)->flags & PP_FN_OLDER);
  CU_ASSERT_TRUE (find_fn (&old, "helper", "a.c", 0x12)->flags & PP_FN_OLDER);
  /* Up to PPD_MAX_VERSIONS CFGs; the next drops the oldest (0x11's was
     first written) after a warning; the current one is never dropped.  */
  for (uint32_t v = 0x13; v <= 0x15; v++)
    {
      ppd_free (&now);
      init_profile (&now, 1, "a.c", 1);
      set_fn_in (&now.fns[0], "helper", "a.c", v, 1, v);
      CU_ASSERT_EQUAL_FATAL (ppd_merge (&old, &now, count_warning, NULL), 0);
    }
  CU_ASSERT_EQUAL (warnings, 1);
  CU_ASSERT_EQUAL (old.nfns, PPD_MAX_VERSIONS);
  CU_ASSERT_PTR_NULL (find_fn (&old, "helper", "a.c", 0x11));
  expect_one_pair (find_fn (&old, "helper", "a.c", 0x15), 1, 0x15);
  CU_ASSERT_FALSE (find_fn (&old, "helper", "a.c", 0x15)->flags & PP_FN_OLDER);
  int current = 0;
  for (uint32_t f = 0; f < old.nfns; f++)
    current += !(old.fns[f].flags & PP_FN_OLDER);
  CU_ASSERT_EQUAL (current, 1);
  ppd_free (&old);
  ppd_free (&now);

  /* A run whose .pp_meta section was stripped wrote no metadata
     (runtime/meta_section.c): the next run's record gives it back.  */
  init_profile (&old, 1, "a.c", 1);
  set_fn_in (&old.fns[0], "helper", "a.c", 0x11, 2, 5);
  free (old.fns[0].meta);
  old.fns[0].meta = strdup ("");
  old.fns[0].meta_len = 0;
  init_profile (&now, 1, "a.c", 1);
  set_fn_in (&now.fns[0], "helper", "a.c", 0x11, 2, 1);
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&old, &now, NULL, NULL), 0);
  CU_ASSERT_EQUAL (old.nfns, 1);
  expect_one_pair (find_fn (&old, "helper", "a.c", 0x11), 2, 6);
  ppd_free (&old);
  ppd_free (&now);
  ppd_free (&m);
  ppd_free (&b);
  ppd_free (&a);
}

/* Many functions (the names are hashed): a profile of N, then one with
   the same names backwards and N new ones; each count where it belongs.  */
static void
test_merge_many (void)
{
  enum { N = 3000 };
  ppd_profile a, b, m = { 0 };
  char name[32];
  init_profile (&a, 1, "a.c", N);
  init_profile (&b, 1, "a.c", 2 * N);
  for (int i = 0; i < N; i++)
    {
      snprintf (name, sizeof name, "f%d", i);
      set_fn_in (&a.fns[i], name, "a.c", 1, 0, (uint64_t) i + 1);
      snprintf (name, sizeof name, "f%d", N - 1 - i);
      set_fn_in (&b.fns[i], name, "a.c", 1, 0, 1);
      snprintf (name, sizeof name, "g%d", i);
      set_fn_in (&b.fns[N + i], name, "a.c", 1, 0, 7);
    }
  CU_ASSERT_EQUAL_FATAL (ppd_merge_objects (&m, &a), 0);
  CU_ASSERT_EQUAL_FATAL (ppd_merge_objects (&m, &b), 0);
  CU_ASSERT_EQUAL_FATAL (m.nfns, 2 * N);
  int right = 0;
  for (int i = 0; i < N; i++)
    {
      right += !strcmp (m.fns[i].name, a.fns[i].name)
               && m.fns[i].pairs[0].count == (uint64_t) i + 2;
      right += !strcmp (m.fns[N + i].name, b.fns[N + i].name)
               && m.fns[N + i].pairs[0].count == 7;
    }
  CU_ASSERT_EQUAL (right, 2 * N);
  /* The same through ppd_merge (by name).  */
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&a, &b, NULL, NULL), 0);
  CU_ASSERT_EQUAL_FATAL (a.nfns, 2 * N);
  CU_ASSERT_EQUAL (a.fns[N - 1].pairs[0].count, N + 1);
  ppd_free (&m);
  ppd_free (&b);
  ppd_free (&a);
}

/* Encodes a one-function profile with trained list T and decodes it.  */
static int
decode_trained (const uint64_t *t, uint64_t n, const char **why)
{
  const ppd_pair pf[] = { { 0, 1 } };
  ppd_profile p, q;
  one_fn_profile (&p, PP_FN_TRAINED, pf, 1, t, n);
  unsigned char *buf;
  size_t len;
  int rc = -2;
  if (ppd_encode (&p, &buf, &len) == 0)
    {
      rc = ppd_decode (buf, len, &q, why);
      if (rc == 0)
        ppd_free (&q);
      free (buf);
    }
  ppd_free (&p);
  return rc;
}

static void
test_trained_order (void)
{
  const uint64_t ascending[] = { 3, 5 }, descending[] = { 5, 3 };
  const uint64_t repeated[] = { 3, 5, 5 };
  const char *why = NULL;
  CU_ASSERT_EQUAL (decode_trained (ascending, 2, &why), 0);
  why = NULL;
  CU_ASSERT_EQUAL (decode_trained (descending, 2, &why), -1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (why);
  CU_ASSERT_STRING_EQUAL (why, "malformed contents");
  why = NULL;
  CU_ASSERT_EQUAL (decode_trained (repeated, 3, &why), -1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (why);
  CU_ASSERT_STRING_EQUAL (why, "malformed contents");
}

/* One flipped payload bit is caught by the checksum; pairs must ascend
   as trained ids do.  */
static void
test_corrupted (void)
{
  const ppd_pair ascending[] = { { 1, 1 }, { 2, 1 } };
  const ppd_pair descending[] = { { 2, 1 }, { 1, 1 } };
  ppd_profile p;
  unsigned char *buf;
  size_t len;
  one_fn_profile (&p, 0, ascending, 2, NULL, 0);
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&p, &buf, &len), 0);
  ppd_free (&p);
  buf[len - 9] ^= 4; /* in the last count */
  expect_reject (buf, len, "checksum mismatch (corrupted)");
  free (buf);

  one_fn_profile (&p, 0, descending, 2, NULL, 0);
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&p, &buf, &len), 0);
  ppd_free (&p);
  expect_reject (buf, len, "malformed contents");
  free (buf);
}

static void
test_truncated (void)
{
  const ppd_pair pf[] = { { 0, 1 }, { 4, 2 } };
  const uint64_t tf[] = { 1, 2 };
  ppd_profile p;
  one_fn_profile (&p, PP_FN_TRAINED, pf, 2, tf, 2);
  unsigned char *buf;
  size_t len;
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&p, &buf, &len), 0);
  ppd_free (&p);

  /* Every prefix of the image is refused.  */
  int accepted = 0;
  for (size_t n = 0; n < len; n++)
    {
      ppd_profile q;
      const char *why = NULL;
      if (ppd_decode (buf, n, &q, &why) == 0)
        {
          accepted++;
          ppd_free (&q);
        }
    }
  CU_ASSERT_EQUAL (accepted, 0);
  expect_reject (buf, 10, "truncated header");
  expect_reject (buf, len - 1, "truncated");
  expect_reject (buf, len - 8, "truncated");

  /* Cut inside the payload with a header that agrees: the trained list
     claims one id more than there is.  */
  unsigned char *copy = malloc (len);
  CU_ASSERT_PTR_NOT_NULL_FATAL (copy);
  memcpy (copy, buf, len);
  /* ntrained, before the two ids, the values' count and the programs'
     count.  */
  store_le (copy + len - 4 * 8 - 4, 3, 8);
  seal (copy, len, 6);
  expect_reject (copy, len, "malformed contents");
  /* Control: with the true count the resealed image decodes.  */
  store_le (copy + len - 4 * 8 - 4, 2, 8);
  seal (copy, len, 6);
  ppd_profile q;
  const char *why = NULL;
  CU_ASSERT_EQUAL (ppd_decode (copy, len, &q, &why), 0);
  ppd_free (&q);
  free (copy);

  /* The other way round: bytes after the image, or after the last
     function with a header that counts them.  */
  unsigned char *longer = calloc (len + 1, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (longer);
  memcpy (longer, buf, len);
  expect_reject (longer, len + 1, "trailing bytes after the profile");
  seal (longer, len + 1, 3);
  expect_reject (longer, len + 1, "malformed contents");
  free (longer);
  free (buf);
}


/* Packs TEXT and checks the round trip exactly; returns the packed size. */
static size_t
pack_round_trip (const char *text, size_t len)
{
  char *packed;
  size_t plen;
  CU_ASSERT_EQUAL_FATAL (pp_meta_pack (text, len, &packed, &plen), 0);
  CU_ASSERT (pp_meta_is_packed (packed, plen));
  size_t n = 0;
  char *back = pp_meta_unpack (packed, plen, &n);
  CU_ASSERT_PTR_NOT_NULL_FATAL (back);
  CU_ASSERT_EQUAL (n, len);
  CU_ASSERT (memcmp (back, text, len) == 0);
  CU_ASSERT_EQUAL (back[len], '\0');
  free (back);
  /* Every cut and every changed byte is refused or unpacks to something
     else: never a read or write outside the buffers (ASan would say). */
  for (size_t cut = 0; cut < plen; cut += 1 + plen / 64)
    {
      char *t = pp_meta_unpack (packed, cut, &n);
      CU_ASSERT (t == NULL || n != len || memcmp (t, text, len) != 0
                 || cut == plen);
      free (t);
    }
  for (size_t i = 7; i < plen; i += 1 + plen / 64)
    {
      packed[i] ^= 0x5a;
      free (pp_meta_unpack (packed, plen, &n));
      packed[i] ^= 0x5a;
    }
  free (packed);
  return plen;
}

static void
test_meta_pack (void)
{
  /* The graph language's shape: long repeats, numbers that change.  */
  size_t cap = 200000, len = 0;
  char *text = malloc (cap);
  CU_ASSERT_PTR_NOT_NULL_FATAL (text);
  len += (size_t) snprintf (text, cap, "function f\nfile \"f.c\"\nentry bb0\n");
  for (int i = 0; len + 64 < cap && i < 3000; i++)
    len += (size_t) snprintf (text + len, cap - len,
                              "node bb%d line %d %d\nedge bb%d bb%d\n", i,
                              100 + i / 3, 101 + i / 3, i, i + 1);
  size_t plen = pack_round_trip (text, len);
  CU_ASSERT (plen * 2 < len); /* at least half saved (numbers change on every line here) */
  /* Incompressible bytes, long runs, the empty text, short ones.  */
  unsigned x = 12345;
  for (size_t i = 0; i < 5000; i++)
    text[i] = (char) ((x = x * 1103515245u + 12345u) >> 16);
  pack_round_trip (text, 5000);
  memset (text, 'a', 1000);
  CU_ASSERT (pack_round_trip (text, 1000) < 40);
  pack_round_trip ("", 0);
  pack_round_trip ("abc", 3);
  pack_round_trip ("abcdabcdabcd", 12);
  /* Plain text is not packed, and is not unpacked.  */
  size_t n;
  CU_ASSERT (!pp_meta_is_packed ("node bb0\n", 9));
  CU_ASSERT_PTR_NULL (pp_meta_unpack ("node bb0\n", 9, &n));
  free (text);
}

/* A profile whose metadata is packed (as the runtime writes it) decodes
   to the text; a damaged packed field makes the profile malformed.  */
static void
test_meta_in_profile (void)
{
  const char *text = "function f\nnode bb0\nnode bb1\nnode bb2\nnode bb3\n";
  char *packed;
  size_t plen;
  CU_ASSERT_EQUAL_FATAL (pp_meta_pack (text, strlen (text), &packed, &plen),
                         0);
  ppd_profile p;
  one_fn_profile (&p, 0, NULL, 0, NULL, 0);
  free (p.fns[0].meta);
  p.fns[0].meta = packed;
  p.fns[0].meta_len = (uint32_t) plen;
  unsigned char *buf;
  size_t len;
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&p, &buf, &len), 0);
  ppd_profile q;
  const char *why = NULL;
  CU_ASSERT_EQUAL_FATAL (ppd_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL (q.fns[0].meta_len, strlen (text));
  CU_ASSERT_STRING_EQUAL (q.fns[0].meta, text);
  ppd_free (&q);
  /* The packed length field says one byte more than the stream gives.  */
  unsigned char *at = memmem (buf, len, PP_META_PACK_MAGIC, 3);
  CU_ASSERT_PTR_NOT_NULL_FATAL (at);
  at[3]++;
  seal (buf, len, 3);
  expect_reject (buf, len, "malformed contents");
  free (buf);
  ppd_free (&p);
}

/* ------------------------------------------- merging an encoded profile */

/* A small deterministic generator (xorshift64), so that failures repeat.  */
static uint64_t rng_state = 88172645463325252ull;
static uint64_t
rng (uint64_t n)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return n ? rng_state % n : rng_state;
}

/* Random ascending ids below 64 into IDS (at most 16), their number.  */
static uint64_t
random_ids (uint64_t *ids)
{
  uint64_t n = 0;
  for (uint64_t id = rng (4); id < 64 && n < 16; id += 1 + rng (8))
    ids[n++] = id;
  return n;
}

/* FN with NAME, CHECKSUM and random counts, trained list, flags, dropped
   count and metadata (sometimes none).  */
static void
random_fn (ppd_fn *fn, const char *name, uint32_t checksum)
{
  uint64_t ids[16], t[16];
  ppd_pair pairs[16];
  uint64_t np = random_ids (ids);
  for (uint64_t k = 0; k < np; k++)
    pairs[k] = (ppd_pair){ ids[k], rng (3) ? 1 + rng (1000)
                                           : UINT64_MAX - rng (3) };
  uint64_t nt = rng (2) ? random_ids (t) : 0;
  set_fn (fn, name, checksum, nt || rng (2) ? PP_FN_TRAINED : 0, pairs, np,
          t, nt);
  fn->dropped = rng (4) ? 0 : rng (10);
  if (!rng (4))
    {
      fn->meta[0] = '\0';
      fn->meta_len = 0;
    }
  /* Value profiles (string operations' sizes and calls), as many words
     for one checksum (its sites), some near saturation.  */
  if (rng (2))
    {
      fn->nvalues = PPD_VALUE_WORDS * (1 + checksum % 3);
      fn->values = calloc (fn->nvalues, sizeof *fn->values);
      for (uint64_t v = 0; v < fn->nvalues; v++)
        fn->values[v] = rng (5) ? rng (1000) : UINT64_MAX - rng (3);
    }
}

/* FN made a function this run did not reach: no counts or dropped path
   ends, OLD's flags (or fewer) and OLD's trained list (or none), so that
   the merge leaves OLD's record as it is (copied whole).  */
static void
quiet_fn (ppd_fn *fn, const ppd_fn *old)
{
  fn->npairs = 0;
  fn->dropped = 0;
  fn->flags = rng (2) ? old->flags : 0;
  free (fn->trained);
  fn->trained = NULL;
  fn->ntrained = 0;
  if ((fn->flags & PP_FN_TRAINED) && old->ntrained && rng (4))
    {
      fn->trained = calloc (old->ntrained, sizeof *fn->trained);
      memcpy (fn->trained, old->trained, old->ntrained * sizeof *fn->trained);
      fn->ntrained = old->ntrained;
      /* Sometimes one id more than OLD's: then it is not left as it is.  */
      if (!rng (4))
        fn->trained[fn->ntrained - 1]++;
    }
}

/* FN made a run again over paths OLD has seen: its pairs a random subset
   of OLD's ids with counts of its own (some near saturation), its
   trained list OLD's own or a subset of it: the merge's one-copy cases,
   counts added in place.  */
static void
seen_fn (ppd_fn *fn, const ppd_fn *old)
{
  free (fn->pairs);
  fn->pairs = calloc (old->npairs + 1, sizeof *fn->pairs);
  fn->npairs = 0;
  for (uint64_t k = 0; k < old->npairs; k++)
    if (rng (3))
      fn->pairs[fn->npairs++]
          = (ppd_pair){ old->pairs[k].id,
                        rng (4) ? 1 + rng (100) : UINT64_MAX - rng (3) };
  free (fn->trained);
  fn->trained = NULL;
  fn->ntrained = 0;
  fn->flags = old->flags;
  if (old->ntrained)
    {
      fn->trained = calloc (old->ntrained, sizeof *fn->trained);
      int all = rng (2);
      for (uint64_t k = 0; k < old->ntrained; k++)
        if (all || rng (2))
          fn->trained[fn->ntrained++] = old->trained[k];
    }
}

/* Up to MAX programs in P, of names p0..p39 ascending, random runs.  */
static void
random_progs (ppd_profile *p, uint32_t max)
{
  uint32_t want = (uint32_t) rng (max + 1);
  for (uint32_t i = 0; i < want; i++)
    {
      char name[8];
      snprintf (name, sizeof name, "p%02u", (unsigned) rng (40));
      ppd_prog one = { name, 1 + rng (3) };
      CU_ASSERT_EQUAL (ppd_merge_progs (&p->progs, &p->nprogs, &one, 1), 0);
    }
}

/* The programs section: runs add by program, names ascending; past
   PPD_MAX_PROGS named ones the runs go to "" (the others).  */
static void
test_progs (void)
{
  ppd_profile a, b;
  init_profile (&a, 2, "a.c", 0);
  init_profile (&b, 3, "a.c", 0);
  ppd_prog pa[] = { { "/bin/t1", 2 } };
  ppd_prog pb[] = { { "/bin/t0", 1 }, { "/bin/t1", 2 } };
  CU_ASSERT_EQUAL (ppd_merge_progs (&a.progs, &a.nprogs, pa, 1), 0);
  CU_ASSERT_EQUAL (ppd_merge_progs (&b.progs, &b.nprogs, pb, 2), 0);
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&a, &b, NULL, NULL), 0);
  CU_ASSERT_EQUAL (a.runs, 5);
  CU_ASSERT_EQUAL_FATAL (a.nprogs, 2);
  CU_ASSERT_STRING_EQUAL (a.progs[0].name, "/bin/t0");
  CU_ASSERT_EQUAL (a.progs[0].runs, 1);
  CU_ASSERT_STRING_EQUAL (a.progs[1].name, "/bin/t1");
  CU_ASSERT_EQUAL (a.progs[1].runs, 4);
  unsigned char *buf;
  size_t len;
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&a, &buf, &len), 0);
  ppd_profile q;
  const char *why;
  CU_ASSERT_EQUAL_FATAL (ppd_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL_FATAL (q.nprogs, 2);
  CU_ASSERT_STRING_EQUAL (q.progs[1].name, "/bin/t1");
  CU_ASSERT_EQUAL (q.progs[1].runs, 4);
  ppd_free (&q);
  /* Names out of order are refused.  */
  unsigned char *at = memmem (buf, len, "/bin/t0", 7);
  CU_ASSERT_PTR_NOT_NULL_FATAL (at);
  at[6] = '2';
  seal (buf, len, 5);
  expect_reject (buf, len, "malformed contents");
  free (buf);
  /* 40 programs: 32 named, the runs of the other 8 under "".  */
  for (int i = 0; i < 40; i++)
    {
      char name[8];
      snprintf (name, sizeof name, "p%02d", i);
      ppd_prog one = { name, 1 };
      CU_ASSERT_EQUAL (ppd_merge_progs (&b.progs, &b.nprogs, &one, 1), 0);
    }
  CU_ASSERT_EQUAL_FATAL (b.nprogs, PPD_MAX_PROGS + 1);
  CU_ASSERT_STRING_EQUAL (b.progs[0].name, "");
  CU_ASSERT_EQUAL (b.progs[0].runs, 40 + 2 - PPD_MAX_PROGS);
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&b, &buf, &len), 0);
  CU_ASSERT_EQUAL (ppd_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL (q.nprogs, PPD_MAX_PROGS + 1);
  ppd_free (&q);
  free (buf);
  ppd_free (&a);
  ppd_free (&b);
}

/* Value profiles (per string-operation site: the sum of its sizes, its
   calls, the OR of its addresses, its majority size and votes): kept by
   a round trip, merged site by site by both merges (sums saturate,
   addresses OR, votes of one size add and of two sizes cancel), and a
   record without them takes the other's.  */
static void
set_values (ppd_fn *fn, const uint64_t *v, uint64_t n)
{
  fn->values = calloc (n, sizeof *v);
  memcpy (fn->values, v, n * sizeof *v);
  fn->nvalues = n;
}

static void
test_values (void)
{
  const ppd_pair pa[] = { { 0, 3 } }, pb[] = { { 0, 1 } };
  const uint64_t va[] = { 72, 3, 0x10, 24, 3, 0, 0, 0, 0, 0,
                         10, 10, 0x8, 24, 3 },
                 vb[] = { 24, 1, 0x28, 24, 1, UINT64_MAX, 1, 0x20, 96, 1,
                          20, 10, 0x8, 32, 5 };
  ppd_profile a, b, none;
  one_fn_profile (&a, 0, pa, 1, NULL, 0);
  one_fn_profile (&b, 0, pb, 1, NULL, 0);
  one_fn_profile (&none, 0, pb, 1, NULL, 0);
  set_values (&a.fns[0], va, 15);
  set_values (&b.fns[0], vb, 15);

  unsigned char *img, *fast, *img2, *fast2;
  size_t len, fast_len, len2, fast2_len;
  const char *why;
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&a, &img, &len), 0);
  ppd_profile q;
  CU_ASSERT_EQUAL_FATAL (ppd_decode (img, len, &q, &why), 0);
  CU_ASSERT_EQUAL_FATAL (q.fns[0].nvalues, 15);
  CU_ASSERT_EQUAL (memcmp (q.fns[0].values, va, sizeof va), 0);
  ppd_free (&q);

  const uint64_t sum[] = { 96, 4, 0x38, 24, 4, UINT64_MAX, 1, 0x20, 96, 1,
                           30, 20, 0x8, 32, 2 };
  CU_ASSERT_EQUAL_FATAL (ppd_merge_encoded (img, len, &b, &fast, &fast_len),
                         0);
  CU_ASSERT_EQUAL_FATAL (ppd_decode (fast, fast_len, &q, &why), 0);
  CU_ASSERT_EQUAL_FATAL (q.fns[0].nvalues, 15);
  CU_ASSERT_EQUAL (memcmp (q.fns[0].values, sum, sizeof sum), 0);
  ppd_free (&q);
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&a, &b, NULL, NULL), 0);
  CU_ASSERT_EQUAL_FATAL (a.fns[0].nvalues, 15);
  CU_ASSERT_EQUAL (memcmp (a.fns[0].values, sum, sizeof sum), 0);

  /* A record without values, either way round, keeps the other's.  */
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&none, &img2, &len2), 0);
  CU_ASSERT_EQUAL_FATAL (
      ppd_merge_encoded (img2, len2, &b, &fast2, &fast2_len), 0);
  CU_ASSERT_EQUAL_FATAL (ppd_decode (fast2, fast2_len, &q, &why), 0);
  CU_ASSERT_EQUAL_FATAL (q.fns[0].nvalues, 15);
  CU_ASSERT_EQUAL (memcmp (q.fns[0].values, vb, sizeof vb), 0);
  ppd_free (&q);
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&none, &b, NULL, NULL), 0);
  CU_ASSERT_EQUAL_FATAL (none.fns[0].nvalues, 15);
  CU_ASSERT_EQUAL (memcmp (none.fns[0].values, vb, sizeof vb), 0);

  /* Words not in whole sites are no value profile of ours.  */
  a.fns[0].nvalues = 4;
  free (img);
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&a, &img, &len), 0);
  expect_reject (img, len, "malformed contents");

  free (img);
  free (fast);
  free (img2);
  free (fast2);
  ppd_free (&a);
  ppd_free (&b);
  ppd_free (&none);
}

/* Whether ppd_merge_encoded of NOW into OLD's image gives the bytes of
   ppd_merge's result, encoded; *MERGED (when not NULL) gets that result
   (free it with ppd_free).  */
static int
fast_merge_as_slow (const ppd_profile *old, const ppd_profile *now,
                    ppd_profile *merged)
{
  unsigned char *image, *fast, *slow;
  size_t len, fast_len, slow_len;
  ppd_profile m;
  const char *why;
  CU_ASSERT_EQUAL_FATAL (ppd_encode (old, &image, &len), 0);
  CU_ASSERT_EQUAL_FATAL (
      ppd_merge_encoded (image, len, now, &fast, &fast_len), 0);
  CU_ASSERT_EQUAL_FATAL (ppd_decode (image, len, &m, &why), 0);
  CU_ASSERT_EQUAL_FATAL (ppd_merge (&m, now, NULL, NULL), 0);
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&m, &slow, &slow_len), 0);
  int same = fast_len == slow_len && !memcmp (fast, slow, slow_len);
  free (image);
  free (fast);
  free (slow);
  if (merged)
    *merged = m;
  else
    ppd_free (&m);
  return same;
}

/* ppd_merge_encoded's image against ppd_merge's, encoded: the same bytes,
   over random profiles of one object that share their functions (some
   of which this run did not reach).  */
static void
test_merge_encoded (void)
{
  int same = 0, trials = 400;
  for (int trial = 0; trial < trials; trial++)
    {
      uint32_t nfns = (uint32_t) rng (6);
      ppd_profile old, now;
      init_profile (&old, rng (5), rng (3) ? "a.c" : "", nfns);
      init_profile (&now, rng (2), rng (3) ? "a.c" : "", nfns);
      old.sum_max = rng (100);
      now.sum_max = rng (3) ? rng (100) : UINT64_MAX;
      random_progs (&old, PPD_MAX_PROGS + 1);
      random_progs (&now, 2);
      for (uint32_t f = 0; f < nfns; f++)
        {
          char name[16];
          snprintf (name, sizeof name, "f%u", f);
          random_fn (&old.fns[f], name, f + 1);
          random_fn (&now.fns[f], name, f + 1);
          if (!rng (2))
            quiet_fn (&now.fns[f], &old.fns[f]);
          else if (!rng (2))
            seen_fn (&now.fns[f], &old.fns[f]);
        }
      same += fast_merge_as_slow (&old, &now, NULL);
      ppd_free (&old);
      ppd_free (&now);
    }
  CU_ASSERT_EQUAL (same, trials);
}

/* Records this run adds nothing to are copied as they are, unless the
   copy would differ from the merge: the file's record without metadata
   takes this run's, and its flags take this run's (HASHED here).  Each
   against ppd_merge's image.  */
static void
test_merge_encoded_untouched (void)
{
  const ppd_pair pa[] = { { 1, 2 } };
  for (int variant = 0; variant < 3; variant++)
    {
      ppd_profile old, now;
      init_profile (&old, 1, "t.c", 3);
      init_profile (&now, 1, "t.c", 3);
      const char *names[] = { "f", "g", "h" };
      for (int f = 0; f < 3; f++)
        {
          set_fn (&old.fns[f], names[f], f + 1, 0, pa, 1, NULL, 0);
          /* g and h did not run this time; f did.  */
          set_fn (&now.fns[f], names[f], f + 1, 0, pa, f == 0, NULL, 0);
        }
      if (variant == 1)
        {
          old.fns[1].meta[0] = '\0';
          old.fns[1].meta_len = 0;
        }
      if (variant == 2)
        now.fns[2].flags = PP_FN_HASHED;
      ppd_profile merged;
      CU_ASSERT (fast_merge_as_slow (&old, &now, &merged));
      CU_ASSERT_EQUAL (merged.fns[1].meta_len, now.fns[1].meta_len);
      CU_ASSERT_EQUAL (merged.fns[2].flags, now.fns[2].flags);
      ppd_free (&merged);
      ppd_free (&old);
      ppd_free (&now);
    }
}

/* Images ppd_merge_encoded leaves to the long way (1): other functions,
   another order or CFG, an older version, a repeated name, an older
   format, damage.  */
static void
test_merge_encoded_declines (void)
{
  const ppd_pair pa[] = { { 1, 2 } };
  ppd_profile two, now;
  init_profile (&two, 1, "t.c", 2);
  set_fn (&two.fns[0], "f", 1, 0, pa, 1, NULL, 0);
  set_fn (&two.fns[1], "g", 2, 0, pa, 1, NULL, 0);
  unsigned char *img, *out = NULL;
  size_t len, out_len;
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&two, &img, &len), 0);

  init_profile (&now, 1, "t.c", 2);
  set_fn (&now.fns[0], "f", 1, 0, pa, 1, NULL, 0);
  set_fn (&now.fns[1], "g", 2, 0, pa, 1, NULL, 0);
  CU_ASSERT_EQUAL (ppd_merge_encoded (img, len, &now, &out, &out_len), 0);
  free (out);

  now.fns[1].checksum = 3; /* another CFG of g */
  CU_ASSERT_EQUAL (ppd_merge_encoded (img, len, &now, &out, &out_len), 1);
  now.fns[1].checksum = 2;
  free (now.fns[1].name);
  now.fns[1].name = strdup ("f"); /* a repeated name */
  CU_ASSERT_EQUAL (ppd_merge_encoded (img, len, &now, &out, &out_len), 1);
  free (now.fns[0].name);
  now.fns[0].name = strdup ("g"); /* another order */
  CU_ASSERT_EQUAL (ppd_merge_encoded (img, len, &now, &out, &out_len), 1);
  now.nfns = 1; /* fewer functions */
  CU_ASSERT_EQUAL (ppd_merge_encoded (img, len, &now, &out, &out_len), 1);
  now.nfns = 2;
  free (now.fns[0].name);
  now.fns[0].name = strdup ("f");
  free (now.fns[1].name);
  now.fns[1].name = strdup ("g");

  img[len - 1] ^= 1; /* damaged */
  CU_ASSERT_EQUAL (ppd_merge_encoded (img, len, &now, &out, &out_len), 1);
  free (img);

  two.fns[1].flags |= PP_FN_OLDER; /* an older version kept */
  CU_ASSERT_EQUAL_FATAL (ppd_encode (&two, &img, &len), 0);
  CU_ASSERT_EQUAL (ppd_merge_encoded (img, len, &now, &out, &out_len), 1);
  free (img);

  image v2 = { .len = 0 };
  old_image (&v2, 2, 1); /* format version 2 */
  CU_ASSERT_EQUAL (ppd_merge_encoded (v2.buf, v2.len, &now, &out, &out_len), 1);
  ppd_free (&now);
  ppd_free (&two);
}

void
pp_add_ppd_tests (void)
{
  CU_pSuite s = CU_add_suite ("ppd codec", NULL, NULL);
  CU_add_test (s, "version 2 round trip with trained lists", test_round_trip);
  CU_add_test (s, "files", test_files);
  CU_add_test (s, "checksum of every length", test_sum64_lengths);
  CU_add_test (s, "version 4 checksum: definition, what it notices",
               test_sum64_lanes);
  CU_add_test (s, "version 1 image", test_version1);
  CU_add_test (s, "programs whose runs wrote a profile", test_progs);
  CU_add_test (s, "merge: counts add, trained sets unite", test_merge);
  CU_add_test (s, "merge of objects: same-named static functions kept",
               test_merge_objects);
  CU_add_test (s, "merge of many functions", test_merge_many);
  CU_add_test (s, "value profiles: kept, added word by word", test_values);
  CU_add_test (s, "trained list must ascend", test_trained_order);
  CU_add_test (s, "corrupted images", test_corrupted);
  CU_add_test (s, "truncated images", test_truncated);
  CU_add_test (s, "packed metadata", test_meta_pack);
  CU_add_test (s, "packed metadata in a profile", test_meta_in_profile);
  CU_add_test (s, "merge into an image: ppd_merge's bytes",
               test_merge_encoded);
  CU_add_test (s, "merge into an image: the long way when laid out otherwise",
               test_merge_encoded_declines);
  CU_add_test (s, "merge into an image: untouched records as they are",
               test_merge_encoded_untouched);
}
