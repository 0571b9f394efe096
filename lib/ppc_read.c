/* The .ppc codec, reading: a context profile's text (doc/ppc-format.md)
   checked line by line (every count bounded by the lines left, the end
   line's count and checksum) and decoded into include/pp/ppc.h's structs;
   a bad file gets one reason with its line.  */
#include "ppc_internal.h"
#include "pp/sat.h"
#include "file_io.h"
#ifndef PP_KEEP_PACKED_META
#include "pp/meta_pack.h"
#endif

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reasons with a line number or a name live here until the next call
   (the interface promises a reason the caller does not free).  */
static char ppc_why_buf[160];

PPC_API const char *
ppc_whyf (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (ppc_why_buf, sizeof ppc_why_buf, fmt, ap);
  va_end (ap);
  return ppc_why_buf;
}

typedef struct
{
  const char *p, *end;  /* what is left of the current line */
  const char *next;     /* the start of the next line */
  const char *stop;     /* the start of the end line */
  unsigned long line;   /* the current line's number, from 1 */
  unsigned long nbody;  /* the lines before the end line */
  const char *err;      /* the first error: a static message */
  unsigned version;     /* the file's format version */
} ppc_in;

static int
ppc_bad (ppc_in *in, const char *what)
{
  if (!in->err)
    in->err = what;
  return -1;
}

/* Moves to the next line, which must begin with KEYWORD.  */
static int
ppc_line (ppc_in *in, const char *keyword)
{
  if (in->err)
    return -1;
  if (in->next >= in->stop)
    {
      in->line++;
      return ppc_bad (in, "missing records (fewer lines than counted)");
    }
  in->p = in->next;
  in->end = memchr (in->p, '\n', (size_t) (in->stop - in->p));
  in->next = in->end + 1;
  in->line++;
  size_t k = strlen (keyword);
  if ((size_t) (in->end - in->p) < k || memcmp (in->p, keyword, k) != 0
      || (in->p + k < in->end && in->p[k] != ' '))
    return ppc_bad (in, "unexpected record");
  in->p += k;
  return 0;
}

/* The space before a field.  */
static int
ppc_field (ppc_in *in)
{
  if (in->err)
    return -1;
  if (in->p >= in->end || *in->p != ' ')
    return ppc_bad (in, "missing field");
  in->p++;
  return 0;
}

static int
ppc_line_done (ppc_in *in)
{
  if (!in->err && in->p != in->end)
    return ppc_bad (in, "extra fields");
  return in->err ? -1 : 0;
}

static uint64_t
ppc_get_u64 (ppc_in *in)
{
  if (ppc_field (in) < 0)
    return 0;
  /* In locals: through IN, every digit stored the cursor back.  */
  const char *p = in->p, *end = in->end;
  if (p >= end || (unsigned) (*p - '0') > 9)
    {
      ppc_bad (in, "expected a number");
      return 0;
    }
  uint64_t v = 0;
  /* Up to 19 digits cannot pass 2^64: no overflow test for them (most
     fields are a few digits, and a profile holds millions).  */
  const char *fast_end = end - p > 19 ? p + 19 : end;
  while (p < fast_end && (unsigned) (*p - '0') <= 9)
    v = v * 10 + (unsigned) (*p++ - '0');
  while (p < end && (unsigned) (*p - '0') <= 9)
    {
      unsigned d = (unsigned) (*p++ - '0');
      if (v > (UINT64_MAX - d) / 10)
        {
          in->p = p;
          ppc_bad (in, "number out of range");
          return 0;
        }
      v = v * 10 + d;
    }
  in->p = p;
  if (p < end && *p != ' ')
    ppc_bad (in, "expected a number");
  return v;
}

static uint32_t
ppc_get_u32 (ppc_in *in)
{
  uint64_t v = ppc_get_u64 (in);
  if (v > UINT32_MAX)
    {
      ppc_bad (in, "number out of range");
      return 0;
    }
  return (uint32_t) v;
}

/* An index, or "-" for none (UINT32_MAX).  */
static uint32_t
ppc_get_index (ppc_in *in)
{
  if (!in->err && in->end - in->p >= 2 && in->p[0] == ' ' && in->p[1] == '-'
      && (in->p + 2 == in->end || in->p[2] == ' '))
    {
      in->p += 2;
      return UINT32_MAX;
    }
  uint32_t v = ppc_get_u32 (in);
  if (v == UINT32_MAX)
    ppc_bad (in, "number out of range");
  return v;
}

static int
ppc_hex (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

/* A quoted string, unescaped into a new NUL-terminated buffer.  */
static char *
ppc_get_str (ppc_in *in, uint32_t *len_out)
{
  if (ppc_field (in) < 0)
    return NULL;
  if (in->p >= in->end || *in->p != '"')
    {
      ppc_bad (in, "expected a string");
      return NULL;
    }
  const char *q = ++in->p;
  /* The unescaped string is never longer than the quoted one.  */
  while (q < in->end && *q != '"')
    q += (*q == '\\' && q + 1 < in->end) ? 2 : 1;
  if (q >= in->end)
    {
      ppc_bad (in, "unterminated string");
      return NULL;
    }
  char *s = malloc ((size_t) (q - in->p) + 1);
  if (!s)
    {
      ppc_bad (in, "out of memory");
      return NULL;
    }
  size_t n = 0;
  while (in->p < q)
    {
      unsigned char c = (unsigned char) *in->p++;
      if (c < 0x20 || c >= 0x7f)
        {
          free (s);
          ppc_bad (in, "unescaped byte in a string");
          return NULL;
        }
      if (c != '\\')
        {
          s[n++] = (char) c;
          continue;
        }
      char e = *in->p++;
      int hi, lo;
      switch (e)
        {
        case '"': s[n++] = '"'; break;
        case '\\': s[n++] = '\\'; break;
        case 'n': s[n++] = '\n'; break;
        case 't': s[n++] = '\t'; break;
        case 'r': s[n++] = '\r'; break;
        case 'x':
          if (q - in->p >= 2 && (hi = ppc_hex (in->p[0])) >= 0
              && (lo = ppc_hex (in->p[1])) >= 0)
            {
              s[n++] = (char) (hi * 16 + lo);
              in->p += 2;
              break;
            }
          /* fall through */
        default:
          free (s);
          ppc_bad (in, "bad escape in a string");
          return NULL;
        }
    }
  in->p = q + 1;
  if (n > UINT32_MAX)
    {
      free (s);
      ppc_bad (in, "string too long");
      return NULL;
    }
  s[n] = '\0';
  if (len_out)
    *len_out = (uint32_t) n;
  return s;
}

#ifdef PPC_ESCAPED_META
/* Whether the N bytes at S are all printable ASCII (0x20-0x7e), eight at
   a time: the escaped metadata is most of a large profile (sqlite3: 2 MB
   of 2.9), and a test per byte cost 9 instructions a byte.  A word has a
   byte below 0x20 when (w - 0x20..) & ~w & 0x80.. is not zero, and one
   above 0x7e when (w + 0x01..) | w has a high bit set.  */
static int
ppc_printable (const char *s, size_t n)
{
  const uint64_t ones = 0x0101010101010101ull, highs = ones * 0x80;
  uint64_t bad = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    {
      uint64_t w;
      memcpy (&w, s + i, 8);
      bad |= ((w - ones * 0x20) & ~w) | ((w + ones) | w);
    }
  if (bad & highs)
    return 0;
  for (; i < n; i++)
    if ((unsigned char) s[i] - 0x20u >= 0x5fu)
      return 0;
  return 1;
}

/* A quoted string as the file has it (escapes kept), in a new
   NUL-terminated buffer: its bytes are checked, not unescaped.  */
static char *
ppc_get_escaped_str (ppc_in *in, uint32_t *len_out)
{
  if (ppc_field (in) < 0)
    return NULL;
  if (in->p >= in->end || *in->p != '"')
    {
      ppc_bad (in, "expected a string");
      return NULL;
    }
  /* The closing quote is the first one after an even run of
     backslashes: found with memchr, as the metadata is most of a large
     profile's bytes.  */
  const char *q = ++in->p;
  for (;;)
    {
      q = memchr (q, '"', (size_t) (in->end - q));
      if (!q)
        {
          q = in->end;
          break;
        }
      size_t bs = 0;
      while (q - bs > in->p && q[-1 - (ptrdiff_t) bs] == '\\')
        bs++;
      if (bs % 2 == 0)
        break;
      q++;
    }
  if (!ppc_printable (in->p, (size_t) (q - in->p)))
    {
      ppc_bad (in, "unescaped byte in a string");
      return NULL;
    }
  if (q >= in->end || q - in->p > UINT32_MAX)
    {
      ppc_bad (in, q >= in->end ? "unterminated string" : "string too long");
      return NULL;
    }
  size_t n = (size_t) (q - in->p);
  char *s = malloc (n + 1);
  if (!s)
    {
      ppc_bad (in, "out of memory");
      return NULL;
    }
  memcpy (s, in->p, n);
  s[n] = '\0';
  in->p = q + 1;
  *len_out = (uint32_t) n;
  return s;
}
#endif

/* [-]DIGITS[.DIGITS][e[+-]DIGITS] and nothing else, read with strtod after
   turning '.' into the locale's radix: the same value under any
   LC_NUMERIC.  */
PPC_API int
ppc_parse_double (const char *s, size_t n, double *out)
{
  size_t i = 0, digits = 0;
  if (i < n && s[i] == '-')
    i++;
  while (i < n && s[i] >= '0' && s[i] <= '9')
    i++, digits++;
  size_t dot = n;
  if (i < n && s[i] == '.')
    {
      dot = i++;
      while (i < n && s[i] >= '0' && s[i] <= '9')
        i++, digits++;
    }
  if (!digits)
    return -1;
  if (i < n && s[i] == 'e')
    {
      i++;
      if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
      size_t e = i;
      while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
      if (i == e)
        return -1;
    }
  if (i != n)
    return -1;
  const char *radix = localeconv ()->decimal_point;
  size_t rlen = radix && *radix ? strlen (radix) : 1;
  char tmp[128];
  if (n + rlen >= sizeof tmp)
    return -1;
  size_t k = 0;
  for (size_t j = 0; j < n; j++)
    if (j == dot)
      {
        memcpy (tmp + k, radix && *radix ? radix : ".", rlen);
        k += rlen;
      }
    else
      tmp[k++] = s[j];
  tmp[k] = '\0';
  char *end;
  double v = strtod (tmp, &end);
  if (*end || !(v >= -1.7976931348623157e308 && v <= 1.7976931348623157e308))
    return -1;
  *out = v;
  return 0;
}

static double
ppc_get_double (ppc_in *in)
{
  if (ppc_field (in) < 0)
    return 0;
  const char *sp = memchr (in->p, ' ', (size_t) (in->end - in->p));
  const char *e = sp ? sp : in->end;
  double v;
  if (ppc_parse_double (in->p, (size_t) (e - in->p), &v) < 0)
    {
      ppc_bad (in, "expected a decimal number");
      return 0;
    }
  in->p = e;
  return v;
}

PPC_API void
ppc_free (ppc_profile *p)
{
  for (uint32_t m = 0; m < p->nmetrics && m < PPC_MAX_METRICS; m++)
    {
      free (p->metrics[m].name);
      free (p->metrics[m].source);
      free (p->metrics[m].unit);
    }
  for (uint32_t f = 0; f < p->nfns; f++)
    {
      free (p->fns[f].name);
      free (p->fns[f].meta);
      free (p->fns[f].source);
    }
  free (p->fns);
  for (uint32_t i = 0; i < p->nnodes; i++)
    {
      free (p->nodes[i].site);
      free (p->nodes[i].paths);
      free (p->nodes[i].leaves);
    }
  free (p->nodes);
  for (uint32_t i = 0; i < p->nobjects; i++)
    {
      free (p->objects[i].name);
      free (p->objects[i].path);
      free (p->objects[i].build_id);
    }
  free (p->objects);
  memset (p, 0, sizeof *p);
}

/* Allocates COUNT records of SIZE for a count read from the file: no more
   than there are lines left (each record takes one), so a corrupted
   count cannot ask for gigabytes.  */
static void *
ppc_alloc_records (ppc_in *in, uint64_t count, size_t size)
{
  if (in->err)
    return NULL;
  if (count > in->nbody - in->line)
    {
      ppc_bad (in, "count larger than the file");
      return NULL;
    }
  void *a = calloc (count ? count : 1, size);
  if (!a)
    ppc_bad (in, "out of memory");
  return a;
}

static void
ppc_decode_metrics (ppc_in *in, ppc_profile *out)
{
  if (ppc_line (in, "metrics") < 0)
    return;
  uint64_t nm = ppc_get_u64 (in);
  if (ppc_line_done (in) < 0)
    return;
  if (nm > PPC_MAX_METRICS)
    {
      ppc_bad (in, "too many metrics");
      return;
    }
  for (uint32_t m = 0; m < nm; m++)
    {
      ppc_metric *mt = &out->metrics[m];
      if (ppc_line (in, "metric") < 0)
        return;
      out->nmetrics = m + 1;
      mt->name = ppc_get_str (in, NULL);
      mt->source = ppc_get_str (in, NULL);
      mt->unit = ppc_get_str (in, NULL);
      mt->enter_exit_cost = ppc_get_double (in);
      mt->path_cost = ppc_get_double (in);
      /* Version 1 merged only runs of one metric list: all measured.  */
      mt->runs = in->version >= 2 ? ppc_get_u64 (in) : out->runs;
      if (ppc_line_done (in) < 0)
        return;
      if (!*mt->name)
        ppc_bad (in, "empty metric name");
      else if (mt->runs > out->runs)
        ppc_bad (in, "a metric counts more runs than the file");
      for (uint32_t k = 0; k < m; k++)
        if (!strcmp (out->metrics[k].name, mt->name))
          ppc_bad (in, "metric named twice");
    }
}

static void
ppc_decode_fns (ppc_in *in, ppc_profile *out)
{
  if (ppc_line (in, "functions") < 0)
    return;
  uint32_t nfns = ppc_get_u32 (in);
  if (ppc_line_done (in) < 0)
    return;
  out->fns = ppc_alloc_records (in, nfns, sizeof *out->fns);
  for (uint32_t f = 0; f < nfns && !in->err; f++)
    {
      ppc_fn *fn = &out->fns[f];
      if (ppc_line (in, "fn") < 0)
        return;
      out->nfns = f + 1;
      if (ppc_get_u32 (in) != f && !in->err)
        ppc_bad (in, "functions out of order");
      fn->name = ppc_get_str (in, NULL);
      fn->checksum = ppc_get_u32 (in);
      fn->flags = ppc_get_u32 (in);
      fn->num_paths = ppc_get_u64 (in);
      fn->source = ppc_get_str (in, NULL);
#ifdef PPC_ESCAPED_META
      fn->meta = ppc_get_escaped_str (in, &fn->meta_len);
      fn->meta_escaped = 1;
#else
      fn->meta = ppc_get_str (in, &fn->meta_len);
#endif
#ifndef PP_KEEP_PACKED_META
      if (fn->meta && pp_meta_unpack_field (&fn->meta, &fn->meta_len) < 0)
        ppc_bad (in, "damaged packed metadata");
#endif
      ppc_line_done (in);
    }
}

static void
ppc_decode_paths (ppc_in *in, const ppc_profile *out, ppc_node *nd)
{
  /* 0 paths: a function whose numbering was cut (PP_FN_TRUNCATED) may
     count 2^64; then any id goes.  */
  uint64_t limit = nd->fn == PPC_NO_FN ? 1 : out->fns[nd->fn].num_paths;
  for (uint64_t k = 0; k < nd->npaths && !in->err; k++)
    {
      ppc_path *pa = &nd->paths[k];
      if (ppc_line (in, "path") < 0)
        return;
      pa->id = ppc_get_u64 (in);
      pa->count = ppc_get_u64 (in);
      for (uint32_t m = 0; m < out->nmetrics; m++)
        pa->metric[m] = ppc_get_u64 (in);
      if (ppc_line_done (in) < 0)
        return;
      if (k && pa->id <= nd->paths[k - 1].id)
        ppc_bad (in, "path ids not ascending");
      else if (limit && pa->id >= limit)
        ppc_bad (in, "path id out of range");
    }
}

/* Version 4: the node's "leaf OFFSET SAMPLES" records, if any, offsets
   ascending.  */
static void
ppc_decode_leaves (ppc_in *in, ppc_node *nd)
{
  uint64_t cap = 0;
  while (!in->err && in->version >= 4 && in->next < in->stop
         && (size_t) (in->stop - in->next) > 5
         && memcmp (in->next, "leaf ", 5) == 0)
    {
      if (ppc_line (in, "leaf") < 0)
        return;
      if (nd->nleaves == cap)
        {
          cap = cap ? 2 * cap : 8;
          ppc_leaf *l = realloc (nd->leaves, cap * sizeof *l);
          if (!l)
            {
              ppc_bad (in, "out of memory");
              return;
            }
          nd->leaves = l;
        }
      ppc_leaf *l = &nd->leaves[nd->nleaves];
      l->offset = ppc_get_u64 (in);
      l->samples = ppc_get_u64 (in);
      if (ppc_line_done (in) < 0)
        return;
      if (nd->nleaves && l->offset <= nd->leaves[nd->nleaves - 1].offset)
        ppc_bad (in, "leaf offsets not ascending");
      else if (!l->samples)
        ppc_bad (in, "a leaf without samples");
      nd->nleaves++;
    }
}

/* Node 0 is the root, every other node has a function and a parent
   before it: the tree the tools walk.  */
static void
ppc_decode_nodes (ppc_in *in, ppc_profile *out)
{
  if (ppc_line (in, "nodes") < 0)
    return;
  uint32_t nnodes = ppc_get_u32 (in);
  if (ppc_line_done (in) < 0)
    return;
  out->nodes = ppc_alloc_records (in, nnodes, sizeof *out->nodes);
  for (uint32_t i = 0; i < nnodes && !in->err; i++)
    {
      ppc_node *nd = &out->nodes[i];
      if (ppc_line (in, "node") < 0)
        return;
      out->nnodes = i + 1;
      if (ppc_get_u32 (in) != i && !in->err)
        ppc_bad (in, "nodes out of order");
      nd->parent = ppc_get_index (in);
      nd->fn = ppc_get_index (in);
      nd->site = ppc_get_str (in, NULL);
      nd->calls = ppc_get_u64 (in);
      nd->recursive = ppc_get_u64 (in);
      nd->npaths = ppc_get_u64 (in);
      for (uint32_t m = 0; m < out->nmetrics; m++)
        nd->excl[m] = ppc_get_u64 (in);
      if (ppc_line_done (in) < 0)
        return;
      if (i == 0 ? nd->parent != UINT32_MAX || nd->fn != PPC_NO_FN
                 : nd->parent >= i || nd->fn >= out->nfns)
        {
          ppc_bad (in, i == 0 ? "node 0 is not the root"
                              : "node's parent or function out of range");
          return;
        }
      if (nd->npaths)
        {
          nd->paths = ppc_alloc_records (in, nd->npaths, sizeof *nd->paths);
          ppc_decode_paths (in, out, nd);
        }
      ppc_decode_leaves (in, nd);
    }
}

/* The optional objects section ("objects K", K "object" records).  */
static void
ppc_decode_objects (ppc_in *in, ppc_profile *out)
{
  if (in->err || in->next >= in->stop
      || (size_t) (in->stop - in->next) < 8
      || memcmp (in->next, "objects ", 8) != 0)
    return;
  ppc_line (in, "objects");
  uint32_t n = ppc_get_u32 (in);
  if (ppc_line_done (in) < 0)
    return;
  out->objects = ppc_alloc_records (in, n, sizeof *out->objects);
  for (uint32_t i = 0; i < n && !in->err; i++)
    {
      ppc_object *ob = &out->objects[i];
      if (ppc_line (in, "object") < 0)
        return;
      out->nobjects = i + 1;
      ob->name = ppc_get_str (in, NULL);
      ob->path = ppc_get_str (in, NULL);
      ob->build_id = ppc_get_str (in, NULL);
      if (ppc_line_done (in) < 0)
        return;
      for (uint32_t k = 0; k < i; k++)
        if (!strcmp (out->objects[k].name, ob->name))
          ppc_bad (in, "object named twice");
    }
}

/* The body between the first line and the end line.  */
static void
ppc_decode_body (ppc_in *in, ppc_profile *out)
{
  if (ppc_line (in, "runs") == 0)
    out->runs = ppc_get_u64 (in);
  ppc_line_done (in);
  if (ppc_line (in, "kind") == 0 && ppc_field (in) == 0)
    {
      size_t n = (size_t) (in->end - in->p);
      if (n == 3 && !memcmp (in->p, "cct", 3))
        out->cct = 1;
      else if (!(n == 4 && !memcmp (in->p, "flat", 4)))
        ppc_bad (in, "kind is neither cct nor flat");
      in->p = in->end;
    }
  ppc_decode_metrics (in, out);
  ppc_decode_fns (in, out);
  ppc_decode_nodes (in, out);
  ppc_decode_objects (in, out);
  if (!in->err && in->next != in->stop)
    {
      in->line++;
      ppc_bad (in, "more records than counted");
    }
}

/* The end line "end LINES CHECKSUM": 0; -1 with *WHY; -2 when only the
   checksum is wrong.  LAST is its start, NLINES the number of lines
   before it; VERSION picks the checksum (FNV-1a before version 3).  */
PPC_INTERNAL int
ppc_check_seal (const char *buf, size_t len, size_t last,
                unsigned long nlines, unsigned version, const char **why)
{
  const char *p = buf + last, *e = buf + len - 1;
  if (e - p < 4 || memcmp (p, "end ", 4) != 0)
    {
      *why = ppc_whyf ("truncated after line %lu (no end line)", nlines + 1);
      return -1;
    }
  p += 4;
  uint64_t count = 0;
  const char *d = p;
  while (p < e && *p >= '0' && *p <= '9' && p - d < 19)
    count = count * 10 + (uint64_t) (*p++ - '0');
  uint64_t sum = 0;
  int nhex = 0;
  if (p > d && p < e && *p == ' ')
    for (p++; p < e && ppc_hex (*p) >= 0 && nhex < 16; p++, nhex++)
      sum = sum * 16 + (uint64_t) ppc_hex (*p);
  if (p == d || nhex != 16 || p != e)
    {
      *why = ppc_whyf ("line %lu: malformed end line", nlines + 1);
      return -1;
    }
  if (count != nlines)
    {
      *why = ppc_whyf ("line %lu: the end line counts %llu lines before it, "
                       "the file has %lu (lines lost or added)",
                       nlines + 1, (unsigned long long) count, nlines);
      return -1;
    }
  if ((version >= 3 ? pp_sum64_lanes (buf, last) : pp_fnv64 (buf, last))
      != sum)
    {
      *why = "checksum mismatch (corrupted)";
      return -2;
    }
  return 0;
}

PPC_API int
ppc_decode (const char *buf, size_t len, ppc_profile *out, const char **why)
{
  memset (out, 0, sizeof *out);
  size_t mlen = strlen (PPC_MAGIC);
  if (len == 0)
    {
      *why = "empty file";
      return -1;
    }
  if (memcmp (buf, PPC_MAGIC " ", len < mlen + 1 ? len : mlen + 1) != 0)
    {
      *why = "not a ppgcc context profile";
      return -1;
    }
  /* Every line ends in '\n': a file that does not was cut short.  */
  unsigned long nlines = 0;
  size_t last = 0; /* the start of the last line */
  for (const char *nl = buf, *e = buf + len;
       (nl = memchr (nl, '\n', (size_t) (e - nl))) != NULL; nl++)
    {
      nlines++;
      if (nl + 1 < e)
        last = (size_t) (nl + 1 - buf);
    }
  if (buf[len - 1] != '\n')
    {
      *why = ppc_whyf ("truncated at line %lu", nlines + 1);
      return -1;
    }
  /* The version before anything else: a later format may end otherwise. */
  const char *v = buf + mlen + 1;
  uint64_t version = 0;
  while (*v >= '0' && *v <= '9' && version < 1000000)
    version = version * 10 + (uint64_t) (*v++ - '0');
  if (v == buf + mlen + 1 || *v != '\n')
    {
      *why = "line 1: malformed version";
      return -1;
    }
  if (version < 1 || version > PPC_VERSION)
    {
      *why = ppc_whyf ("context profile format version %llu not supported "
                       "by this ppgcc (it reads versions 1 to %u)",
                       (unsigned long long) version, PPC_VERSION);
      return -1;
    }
  if (nlines < 2)
    {
      *why = "truncated after line 1 (no end line)";
      return -1;
    }
  const char *seal_why = NULL;
  int sealed = ppc_check_seal (buf, len, last, nlines - 1,
                               (unsigned) version, &seal_why);
  if (sealed == -1)
    {
      *why = seal_why;
      return -1;
    }
  ppc_in in = { NULL, NULL, (const char *) memchr (buf, '\n', len) + 1,
                buf + last, 1, nlines - 1, NULL, (unsigned) version };
  ppc_decode_body (&in, out);
  if (in.err || sealed < 0)
    {
      ppc_free (out);
      /* A damaged file names the first line that does not parse; one that
         parses but fails the checksum was altered in a number or a
         string.  */
      if (in.err && seal_why)
        *why = ppc_whyf ("corrupted (checksum mismatch): line %lu: %s",
                         in.line, in.err);
      else if (in.err)
        *why = ppc_whyf ("line %lu: %s", in.line, in.err);
      else
        *why = seal_why;
      return -1;
    }
  return 0;
}

/* ------------------------------------------------------------- merging */

PPC_API int
ppc_whole (const char *buf, size_t len)
{
  ppc_profile p;
  const char *why;
  if (ppc_decode (buf, len, &p, &why) < 0)
    return 0;
  ppc_free (&p);
  return 1;
}

PPC_API int
ppc_read_file (const char *path, ppc_profile *out, const char **why)
{
  memset (out, 0, sizeof *out);
  /* As ppd_read_file: a torn file (a writer overwriting it in place, or
     killed doing so) is read from the whole journal beside it, else read
     once more.  */
  for (int attempt = 0;; attempt++)
    {
      char *buf;
      size_t len;
      int rc = pp_read_whole_file (path, &buf, &len, why);
      if (rc != 0)
        return rc < 0 ? -1 : rc; /* out of memory too: *WHY says so */
      rc = ppc_decode (buf, len, out, why);
      free (buf);
      if (rc == 0 || (*why && strcmp (*why, "out of memory") == 0))
        return rc;
      if (pp_read_journal (path, 0, NULL, ppc_whole, &buf, &len) == 0)
        {
          rc = ppc_decode (buf, len, out, why);
          free (buf);
          return rc;
        }
      if (attempt == 1)
        return rc;
    }
}
