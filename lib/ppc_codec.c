/* The .ppc codec: context profiles (include/pp/ppc.h) as line-based text
   (doc/ppc-format.md).  Compiled into the core library as is, and into the
   runtime with PPC_API defined as static: then nothing here is global, so
   every helper is static and named ppc_* (the runtime may include the .ppd
   codec into the same translation unit).  Plain C11 and POSIX, no
   libiberty.  */
#include "pp/ppc.h"
#include "pp/sat.h"
#include "file_io.c"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PPC_MAGIC "ppgcc-context-profile"
#define PPC_NONE "-"
#define PPC_UNAVAILABLE "unavailable"

/* Reasons with a line number or a name live here until the next call
   (the interface promises a reason the caller does not free).  */
static char ppc_why_buf[160];

static const char *
ppc_whyf (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (ppc_why_buf, sizeof ppc_why_buf, fmt, ap);
  va_end (ap);
  return ppc_why_buf;
}

/* ------------------------------------------------------------- writing */

typedef struct
{
  pp_buf b;
  unsigned long lines;
} ppc_out;

static void
ppc_put (ppc_out *o, const char *data, size_t n)
{
  pp_buf_put (&o->b, data, n);
}

static void
ppc_puts (ppc_out *o, const char *s)
{
  ppc_put (o, s, strlen (s));
}

static void
ppc_put_eol (ppc_out *o)
{
  ppc_put (o, "\n", 1);
  o->lines++;
}

/* " N": every field after the keyword is preceded by one space.  */
static void
ppc_put_u64 (ppc_out *o, uint64_t v)
{
  char tmp[24];
  int i = sizeof tmp;
  do
    tmp[--i] = (char) ('0' + v % 10);
  while ((v /= 10) != 0);
  tmp[--i] = ' ';
  ppc_put (o, tmp + i, sizeof tmp - i);
}

/* A string field: quoted, the file stays printable ASCII with one record
   per line, so quotes, backslashes, and every byte outside 0x20-0x7e
   (newlines of the metadata, UTF-8 file names) are escaped.  */
static void
ppc_put_str (ppc_out *o, const char *s, size_t n)
{
  static const char hex[] = "0123456789abcdef";
  ppc_put (o, " \"", 2);
  size_t run = 0; /* bytes that need no escape, written in one go */
  for (size_t i = 0; i < n; i++)
    {
      unsigned char c = (unsigned char) s[i];
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
        {
          run++;
          continue;
        }
      ppc_put (o, s + i - run, run);
      run = 0;
      char esc[4] = { '\\', 0, 0, 0 };
      size_t len = 2;
      switch (c)
        {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\t': esc[1] = 't'; break;
        case '\r': esc[1] = 'r'; break;
        default:
          esc[1] = 'x';
          esc[2] = hex[c >> 4];
          esc[3] = hex[c & 15];
          len = 4;
        }
      ppc_put (o, esc, len);
    }
  ppc_put (o, s + n - run, run);
  ppc_put (o, "\"", 1);
}

static void
ppc_put_cstr (ppc_out *o, const char *s)
{
  ppc_put_str (o, s ? s : "", s ? strlen (s) : 0);
}

static int ppc_parse_double (const char *s, size_t n, double *out);

/* A cost: the shortest of %.15g..%.17g that reads back as the same
   double, with '.' as the radix whatever the program's locale (the
   runtime writes under the instrumented program's setlocale).  Negative
   and non-finite values (a failed measurement) are written as 0.  */
static void
ppc_put_double (ppc_out *o, double v)
{
  if (!(v > 0 && v <= 1.7976931348623157e308))
    v = 0; /* also -0.0 */
  char tmp[48], fixed[48];
  size_t n = 0;
  for (int prec = 15; prec <= 17; prec++)
    {
      snprintf (tmp, sizeof tmp, "%.*g", prec, v);
      /* %g writes only digits, 'e', signs and the radix, which may be
         several bytes in some locales: each run of other bytes is it.  */
      n = 0;
      for (const char *p = tmp; *p; p++)
        {
          char c = *p;
          if ((c >= '0' && c <= '9') || c == 'e' || c == '+' || c == '-')
            fixed[n++] = c;
          else if (n == 0 || fixed[n - 1] != '.')
            fixed[n++] = '.';
        }
      double back;
      if (ppc_parse_double (fixed, n, &back) == 0 && back == v)
        break;
    }
  ppc_put (o, " ", 1);
  ppc_put (o, fixed, n);
}

PPC_API int
ppc_encode (const ppc_profile *p, char **buf, size_t *len)
{
  ppc_out o = { { NULL, 0, 0, 0 }, 0 };
  uint32_t nm = p->nmetrics;
  ppc_puts (&o, PPC_MAGIC);
  ppc_put_u64 (&o, PPC_VERSION);
  ppc_put_eol (&o);
  ppc_puts (&o, "runs");
  ppc_put_u64 (&o, p->runs);
  ppc_put_eol (&o);
  ppc_puts (&o, p->cct ? "kind cct" : "kind flat");
  ppc_put_eol (&o);
  ppc_puts (&o, "metrics");
  ppc_put_u64 (&o, nm);
  ppc_put_eol (&o);
  for (uint32_t m = 0; m < nm; m++)
    {
      const ppc_metric *mt = &p->metrics[m];
      ppc_puts (&o, "metric");
      ppc_put_cstr (&o, mt->name);
      ppc_put_cstr (&o, mt->source);
      ppc_put_cstr (&o, mt->unit);
      ppc_put_double (&o, mt->enter_exit_cost);
      ppc_put_double (&o, mt->path_cost);
      ppc_put_eol (&o);
    }
  ppc_puts (&o, "functions");
  ppc_put_u64 (&o, p->nfns);
  ppc_put_eol (&o);
  for (uint32_t f = 0; f < p->nfns; f++)
    {
      const ppc_fn *fn = &p->fns[f];
      ppc_puts (&o, "fn");
      ppc_put_u64 (&o, f);
      ppc_put_cstr (&o, fn->name);
      ppc_put_u64 (&o, fn->checksum);
      ppc_put_u64 (&o, fn->flags);
      ppc_put_u64 (&o, fn->num_paths);
      ppc_put_cstr (&o, fn->source);
      ppc_put_str (&o, fn->meta ? fn->meta : "", fn->meta ? fn->meta_len : 0);
      ppc_put_eol (&o);
    }
  ppc_puts (&o, "nodes");
  ppc_put_u64 (&o, p->nnodes);
  ppc_put_eol (&o);
  for (uint32_t i = 0; i < p->nnodes; i++)
    {
      const ppc_node *nd = &p->nodes[i];
      ppc_puts (&o, "node");
      ppc_put_u64 (&o, i);
      if (nd->parent == UINT32_MAX)
        ppc_puts (&o, " " PPC_NONE);
      else
        ppc_put_u64 (&o, nd->parent);
      if (nd->fn == PPC_NO_FN)
        ppc_puts (&o, " " PPC_NONE);
      else
        ppc_put_u64 (&o, nd->fn);
      ppc_put_cstr (&o, nd->site);
      ppc_put_u64 (&o, nd->calls);
      ppc_put_u64 (&o, nd->recursive);
      ppc_put_u64 (&o, nd->npaths);
      for (uint32_t m = 0; m < nm; m++)
        ppc_put_u64 (&o, nd->excl[m]);
      ppc_put_eol (&o);
      for (uint64_t k = 0; k < nd->npaths; k++)
        {
          const ppc_path *pa = &nd->paths[k];
          ppc_puts (&o, "path");
          ppc_put_u64 (&o, pa->id);
          ppc_put_u64 (&o, pa->count);
          for (uint32_t m = 0; m < nm; m++)
            ppc_put_u64 (&o, pa->metric[m]);
          ppc_put_eol (&o);
        }
    }
  /* Optional (files before it have none): the objects of the sites.  */
  if (p->nobjects)
    {
      ppc_puts (&o, "objects");
      ppc_put_u64 (&o, p->nobjects);
      ppc_put_eol (&o);
    }
  for (uint32_t i = 0; i < p->nobjects; i++)
    {
      ppc_puts (&o, "object");
      ppc_put_cstr (&o, p->objects[i].name);
      ppc_put_cstr (&o, p->objects[i].path);
      ppc_put_cstr (&o, p->objects[i].build_id);
      ppc_put_eol (&o);
    }
  /* The seal: lines so far and the checksum of every byte before it.  */
  uint64_t sum = pp_fnv64 (o.b.buf, o.b.len);
  char end[64];
  snprintf (end, sizeof end, "end %lu %016llx\n", o.lines,
            (unsigned long long) sum);
  ppc_puts (&o, end);
  if (o.b.oom)
    {
      free (o.b.buf);
      return -1;
    }
  *buf = (char *) o.b.buf;
  *len = o.b.len;
  return 0;
}

/* ------------------------------------------------------------- reading */

typedef struct
{
  const char *p, *end;  /* what is left of the current line */
  const char *next;     /* the start of the next line */
  const char *stop;     /* the start of the end line */
  unsigned long line;   /* the current line's number, from 1 */
  unsigned long nbody;  /* the lines before the end line */
  const char *err;      /* the first error: a static message */
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
  if (in->p >= in->end || *in->p < '0' || *in->p > '9')
    {
      ppc_bad (in, "expected a number");
      return 0;
    }
  uint64_t v = 0;
  while (in->p < in->end && *in->p >= '0' && *in->p <= '9')
    {
      unsigned d = (unsigned) (*in->p++ - '0');
      if (v > (UINT64_MAX - d) / 10)
        {
          ppc_bad (in, "number out of range");
          return 0;
        }
      v = v * 10 + d;
    }
  if (in->p < in->end && *in->p != ' ')
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

/* [-]DIGITS[.DIGITS][e[+-]DIGITS] and nothing else, read with strtod after
   turning '.' into the locale's radix: the same value under any
   LC_NUMERIC.  */
static int
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
      if (ppc_line_done (in) < 0)
        return;
      if (!*mt->name)
        ppc_bad (in, "empty metric name");
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
      fn->meta = ppc_get_str (in, &fn->meta_len);
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
   before it.  */
static int
ppc_check_seal (const char *buf, size_t len, size_t last,
                unsigned long nlines, const char **why)
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
  if (pp_fnv64 (buf, last) != sum)
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
  for (size_t i = 0; i < len; i++)
    if (buf[i] == '\n')
      {
        nlines++;
        if (i + 1 < len)
          last = i + 1;
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
  if (version != PPC_VERSION)
    {
      *why = ppc_whyf ("context profile format version %llu not supported "
                       "by this ppgcc (it reads version %u)",
                       (unsigned long long) version, PPC_VERSION);
      return -1;
    }
  if (nlines < 2)
    {
      *why = "truncated after line 1 (no end line)";
      return -1;
    }
  const char *seal_why = NULL;
  int sealed = ppc_check_seal (buf, len, last, nlines - 1, &seal_why);
  if (sealed == -1)
    {
      *why = seal_why;
      return -1;
    }
  ppc_in in = { NULL, NULL, (const char *) memchr (buf, '\n', len) + 1,
                buf + last, 1, nlines - 1, NULL };
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

/* Open addressing over indices (UINT32_MAX: empty), for the functions of
   INTO by name and source, and its nodes by parent, function and site:
   whole-program trees have many thousands of contexts.  */
typedef struct
{
  uint32_t *slot;
  size_t mask;
} ppc_index;

static int
ppc_index_init (ppc_index *ix, size_t n)
{
  size_t cap = 16;
  while (cap < 2 * n + 2)
    cap *= 2;
  ix->slot = malloc (cap * sizeof *ix->slot);
  ix->mask = cap - 1;
  if (!ix->slot)
    return -1;
  memset (ix->slot, 0xff, cap * sizeof *ix->slot);
  return 0;
}

static uint64_t
ppc_hash_str (uint64_t h, const char *s)
{
  s = s ? s : "";
  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 1099511628211ull;
  return (h ^ 0xff) * 1099511628211ull;
}

static uint64_t
ppc_hash_u32 (uint64_t h, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
  return h;
}

static int
ppc_streq (const char *a, const char *b)
{
  return !strcmp (a ? a : "", b ? b : "");
}

static uint64_t
ppc_fn_key (const ppc_fn *f)
{
  return ppc_hash_str (ppc_hash_str (14695981039346656037ull, f->name),
                       f->source);
}

static uint64_t
ppc_node_key (uint32_t parent, uint32_t fn, const char *site)
{
  uint64_t h = ppc_hash_u32 (14695981039346656037ull, parent);
  return ppc_hash_str (ppc_hash_u32 (h, fn), site);
}

/* The slot where F's function is, or the empty one where it would go.  */
static size_t
ppc_find_fn (const ppc_index *ix, const ppc_fn *fns, const ppc_fn *f)
{
  size_t s = (size_t) ppc_fn_key (f) & ix->mask;
  while (ix->slot[s] != UINT32_MAX
         && !(ppc_streq (fns[ix->slot[s]].name, f->name)
              && ppc_streq (fns[ix->slot[s]].source, f->source)))
    s = (s + 1) & ix->mask;
  return s;
}

static size_t
ppc_find_node (const ppc_index *ix, const ppc_node *nodes, uint32_t parent,
               uint32_t fn, const char *site)
{
  size_t s = (size_t) ppc_node_key (parent, fn, site) & ix->mask;
  while (ix->slot[s] != UINT32_MAX
         && !(nodes[ix->slot[s]].parent == parent
              && nodes[ix->slot[s]].fn == fn
              && ppc_streq (nodes[ix->slot[s]].site, site)))
    s = (s + 1) & ix->mask;
  return s;
}

static char *
ppc_strdup (const char *s, size_t n)
{
  char *d = malloc (n + 1);
  if (d)
    {
      memcpy (d, s ? s : "", n);
      d[n] = '\0';
    }
  return d;
}

static char *
ppc_strdup0 (const char *s)
{
  return ppc_strdup (s, s ? strlen (s) : 0);
}

static int
ppc_copy_fn (ppc_fn *dst, const ppc_fn *src)
{
  *dst = *src;
  dst->name = ppc_strdup0 (src->name);
  dst->source = ppc_strdup0 (src->source);
  dst->meta = ppc_strdup (src->meta, src->meta ? src->meta_len : 0);
  dst->meta_len = src->meta ? src->meta_len : 0;
  if (dst->name && dst->source && dst->meta)
    return 0;
  free (dst->name);
  free (dst->source);
  free (dst->meta);
  return -1;
}

/* A's and B's paths, ascending by id, into a new array.  */
static ppc_path *
ppc_merge_paths (const ppc_node *a, const ppc_node *b, uint64_t *n)
{
  ppc_path *out = malloc ((a->npaths + b->npaths + 1) * sizeof *out);
  if (!out)
    return NULL;
  uint64_t i = 0, j = 0, k = 0;
  while (i < a->npaths || j < b->npaths)
    {
      if (j == b->npaths || (i < a->npaths && a->paths[i].id < b->paths[j].id))
        out[k++] = a->paths[i++];
      else if (i == a->npaths || b->paths[j].id < a->paths[i].id)
        out[k++] = b->paths[j++];
      else
        {
          out[k] = a->paths[i++];
          out[k].count = pp_add_sat (out[k].count, b->paths[j].count);
          for (int m = 0; m < PPC_MAX_METRICS; m++)
            out[k].metric[m] = pp_add_sat (out[k].metric[m],
                                            b->paths[j].metric[m]);
          j++, k++;
        }
    }
  *n = k;
  return out;
}

static int
ppc_add_node (ppc_node *dst, const ppc_node *src)
{
  uint64_t n;
  ppc_path *paths = ppc_merge_paths (dst, src, &n);
  if (!paths)
    return -1;
  free (dst->paths);
  dst->paths = paths;
  dst->npaths = n;
  dst->calls = pp_add_sat (dst->calls, src->calls);
  dst->recursive = pp_add_sat (dst->recursive, src->recursive);
  for (int m = 0; m < PPC_MAX_METRICS; m++)
    dst->excl[m] = pp_add_sat (dst->excl[m], src->excl[m]);
  return 0;
}

static int
ppc_unavailable (const ppc_metric *m)
{
  return ppc_streq (m->source, PPC_UNAVAILABLE);
}

/* Whether the comma-separated LIST holds S.  */
static int
ppc_list_has (const char *list, const char *s)
{
  size_t n = strlen (s);
  if (n == 0)
    return 1;
  for (const char *p = list; p; p = strchr (p, ','), p = p ? p + 1 : NULL)
    if (!strncmp (p, s, n) && (p[n] == ',' || p[n] == '\0'))
      return 1;
  return 0;
}

/* The description of INTO's metric M after adding FROM's (same name):
   the sources listed once each ("tsc,clock_gettime"), the unit of the
   runs that measured, and the probe costs averaged over the runs.  0, or
   -1 with *WHY (units differ, out of memory).  */
static int
ppc_merge_metric (ppc_metric *res, const ppc_profile *into,
                  const ppc_profile *from, uint32_t m, const char **why)
{
  const ppc_metric *a = &into->metrics[m], *b = &from->metrics[m];
  const char *as = a->source ? a->source : "", *bs = b->source ? b->source : "";
  memset (res, 0, sizeof *res);
  int a_off = ppc_unavailable (a), b_off = ppc_unavailable (b);
  if (!a_off && !b_off && !ppc_streq (a->unit, b->unit))
    {
      *why = ppc_whyf ("metric '%s' in %s here and in %s there", a->name,
                       a->unit ? a->unit : "", b->unit ? b->unit : "");
      return -1;
    }
  const ppc_metric *measured = a_off && !b_off ? b : a;
  res->name = ppc_strdup0 (a->name);
  res->unit = ppc_strdup0 (measured->unit);
  if (ppc_list_has (as, bs))
    res->source = ppc_strdup0 (as);
  else if ((res->source = malloc (strlen (as) + strlen (bs) + 2)))
    sprintf (res->source, "%s,%s", as, bs);
  if (!res->name || !res->unit || !res->source)
    {
      free (res->name);
      free (res->unit);
      free (res->source);
      *why = "out of memory";
      return -1;
    }
  double ra = (double) into->runs, rb = (double) from->runs;
  if (a != b && !a_off && !b_off && ra + rb > 0)
    {
      res->enter_exit_cost = (a->enter_exit_cost * ra
                              + b->enter_exit_cost * rb) / (ra + rb);
      res->path_cost = (a->path_cost * ra + b->path_cost * rb) / (ra + rb);
    }
  else
    {
      res->enter_exit_cost = measured->enter_exit_cost;
      res->path_cost = measured->path_cost;
    }
  return 0;
}

static int
ppc_empty (const ppc_profile *p)
{
  return p->runs == 0 && p->nmetrics == 0 && p->nfns == 0 && p->nnodes == 0;
}

/* FROM must be a well-formed tree (as decoded): the merge relies on it.  */
static int
ppc_well_formed (const ppc_profile *p)
{
  if (p->nmetrics > PPC_MAX_METRICS)
    return 0;
  for (uint32_t i = 0; i < p->nnodes; i++)
    if (i == 0 ? p->nodes[0].fn != PPC_NO_FN
               : p->nodes[i].parent >= i || p->nodes[i].fn >= p->nfns)
      return 0;
  return 1;
}

/* Functions: FNMAP[f] is INTO's index of FROM's function f.  */
static int
ppc_merge_fns (ppc_profile *into, const ppc_profile *from, uint32_t *fnmap,
               void (*warn) (void *ctx, const char *fn_name), void *ctx)
{
  ppc_fn *fns = realloc (into->fns, ((size_t) into->nfns + from->nfns + 1)
                                        * sizeof *fns);
  if (!fns)
    return -1;
  into->fns = fns;
  ppc_index ix;
  if (ppc_index_init (&ix, (size_t) into->nfns + from->nfns) < 0)
    return -1;
  for (uint32_t f = 0; f < into->nfns; f++)
    ix.slot[ppc_find_fn (&ix, fns, &fns[f])] = f;
  char *replaced = calloc ((size_t) into->nfns + 1, 1);
  if (!replaced)
    {
      free (ix.slot);
      return -1;
    }
  int rc = 0;
  uint32_t old_nfns = into->nfns;
  for (uint32_t f = 0; f < from->nfns && rc == 0; f++)
    {
      const ppc_fn *src = &from->fns[f];
      size_t s = ppc_find_fn (&ix, fns, src);
      uint32_t g = ix.slot[s];
      if (g != UINT32_MAX && fns[g].checksum == src->checksum)
        {
          fns[g].flags |= src->flags;
          fnmap[f] = g;
          continue;
        }
      ppc_fn copy;
      if (ppc_copy_fn (&copy, src) < 0)
        {
          rc = -1;
          break;
        }
      if (g != UINT32_MAX)
        {
          /* Another CFG (the program was rebuilt): as gcov does, the
             newer profile's function wins; the paths counted against the
             old CFG mean nothing now.  */
          if (warn)
            warn (ctx, src->name);
          free (fns[g].name);
          free (fns[g].source);
          free (fns[g].meta);
          fns[g] = copy;
          if (g < old_nfns)
            replaced[g] = 1;
        }
      else
        {
          g = into->nfns++;
          fns[g] = copy;
          ix.slot[s] = g;
        }
      fnmap[f] = g;
    }
  for (uint32_t i = 0; i < into->nnodes && rc == 0; i++)
    if (into->nodes[i].fn < old_nfns && replaced[into->nodes[i].fn])
      {
        free (into->nodes[i].paths);
        into->nodes[i].paths = NULL;
        into->nodes[i].npaths = 0;
      }
  free (replaced);
  free (ix.slot);
  return rc;
}

/* Nodes: FROM's node i goes to INTO's node map[i], matched by parent (as
   mapped), function and call site; parents come first in both lists, so
   a new node's parent is always placed already.  */
static int
ppc_merge_nodes (ppc_profile *into, const ppc_profile *from,
                 const uint32_t *fnmap)
{
  if (from->nnodes == 0)
    return 0;
  ppc_node *nodes = realloc (into->nodes, ((size_t) into->nnodes
                                           + from->nnodes + 1)
                                              * sizeof *nodes);
  if (!nodes)
    return -1;
  into->nodes = nodes;
  if (into->nnodes == 0)
    {
      memset (&nodes[0], 0, sizeof nodes[0]);
      nodes[0].fn = PPC_NO_FN;
      nodes[0].parent = UINT32_MAX;
      if (!(nodes[0].site = ppc_strdup0 ("")))
        return -1;
      into->nnodes = 1;
    }
  uint32_t *map = malloc ((size_t) from->nnodes * sizeof *map);
  ppc_index ix;
  if (!map || ppc_index_init (&ix, (size_t) into->nnodes + from->nnodes) < 0)
    {
      free (map);
      return -1;
    }
  for (uint32_t i = 1; i < into->nnodes; i++)
    ix.slot[ppc_find_node (&ix, nodes, nodes[i].parent, nodes[i].fn,
                           nodes[i].site)] = i;
  int rc = ppc_add_node (&nodes[0], &from->nodes[0]);
  map[0] = 0;
  for (uint32_t i = 1; i < from->nnodes && rc == 0; i++)
    {
      const ppc_node *src = &from->nodes[i];
      uint32_t parent = map[src->parent], fn = fnmap[src->fn];
      size_t s = ppc_find_node (&ix, nodes, parent, fn, src->site);
      uint32_t j = ix.slot[s];
      if (j == UINT32_MAX)
        {
          j = into->nnodes;
          ppc_node *d = &nodes[j];
          memset (d, 0, sizeof *d);
          d->parent = parent;
          d->fn = fn;
          if (!(d->site = ppc_strdup0 (src->site)))
            {
              rc = -1;
              break;
            }
          into->nnodes++;
          ix.slot[s] = j;
        }
      map[i] = j;
      rc = ppc_add_node (&nodes[j], src);
    }
  free (ix.slot);
  free (map);
  return rc;
}

/* Objects by name; FROM's path and build id (the later run's) win.  */
static int
ppc_merge_objects (ppc_profile *into, const ppc_profile *from)
{
  if (from->nobjects == 0)
    return 0;
  ppc_object *obs = realloc (into->objects, ((size_t) into->nobjects
                                             + from->nobjects)
                                                * sizeof *obs);
  if (!obs)
    return -1;
  into->objects = obs;
  for (uint32_t i = 0; i < from->nobjects; i++)
    {
      const ppc_object *src = &from->objects[i];
      uint32_t j = 0;
      while (j < into->nobjects && !ppc_streq (obs[j].name, src->name))
        j++;
      char *name = ppc_strdup0 (src->name), *path = ppc_strdup0 (src->path);
      char *id = ppc_strdup0 (src->build_id);
      if (!name || !path || !id)
        {
          free (name);
          free (path);
          free (id);
          return -1;
        }
      if (j == into->nobjects)
        into->nobjects++;
      else
        {
          free (obs[j].name);
          free (obs[j].path);
          free (obs[j].build_id);
        }
      obs[j] = (ppc_object) { name, path, id };
    }
  return 0;
}

/* ppc_merge, with WARN (may be NULL) called with the name of each
   function whose CFG checksum differs between the two (INTO's is then
   replaced by FROM's, its paths dropped in every context, as ppd_merge
   does).  Functions are the same when name and source file agree: a
   program may hold several static functions of one name.  */
PPC_API int
ppc_merge_warn (ppc_profile *into, const ppc_profile *from,
                void (*warn) (void *ctx, const char *fn_name), void *ctx,
                const char **why)
{
  if (!ppc_well_formed (from) || !ppc_well_formed (into))
    {
      *why = "malformed profile";
      return -1;
    }
  if (ppc_empty (from))
    return 0;
  int fresh = ppc_empty (into);
  if (!fresh && into->cct != from->cct)
    {
      *why = "a calling context tree and a flat profile cannot merge";
      return -1;
    }
  int same = into->nmetrics == from->nmetrics;
  for (uint32_t m = 0; same && m < from->nmetrics; m++)
    same = ppc_streq (into->metrics[m].name, from->metrics[m].name);
  if (!fresh && !same)
    {
      *why = "the metric lists differ (programs built with another "
             "-fprofile-paths-metric)";
      return -1;
    }
  /* The new metric descriptions first: once they exist, nothing can
     refuse the merge.  A fresh INTO takes FROM's (merged with
     themselves: copies).  */
  ppc_metric metrics[PPC_MAX_METRICS];
  uint32_t nm = from->nmetrics;
  for (uint32_t m = 0; m < nm; m++)
    if (ppc_merge_metric (&metrics[m], fresh ? from : into, from, m, why)
        < 0)
      {
        for (uint32_t k = 0; k < m; k++)
          {
            free (metrics[k].name);
            free (metrics[k].source);
            free (metrics[k].unit);
          }
        return -1;
      }
  for (uint32_t m = 0; m < into->nmetrics; m++)
    {
      free (into->metrics[m].name);
      free (into->metrics[m].source);
      free (into->metrics[m].unit);
    }
  memcpy (into->metrics, metrics, nm * sizeof *metrics);
  into->nmetrics = nm;
  if (fresh)
    into->cct = from->cct;

  /* Out of memory from here on leaves INTO consistent, partly merged.  */
  uint32_t *fnmap = malloc (((size_t) from->nfns + 1) * sizeof *fnmap);
  if (!fnmap || ppc_merge_fns (into, from, fnmap, warn, ctx) < 0
      || ppc_merge_nodes (into, from, fnmap) < 0
      || ppc_merge_objects (into, from) < 0)
    {
      free (fnmap);
      *why = "out of memory";
      return -1;
    }
  free (fnmap);
  /* After the costs' average, which weighs by the runs before.  */
  into->runs = pp_add_sat (into->runs, from->runs);
  return 0;
}

PPC_API int
ppc_merge (ppc_profile *into, const ppc_profile *from, const char **why)
{
  return ppc_merge_warn (into, from, NULL, NULL, why);
}

/* ---------------------------------------------------------------- files */

PPC_API int
ppc_read_file (const char *path, ppc_profile *out, const char **why)
{
  memset (out, 0, sizeof *out);
  char *buf;
  size_t len;
  int rc = pp_read_whole_file (path, &buf, &len, why);
  if (rc != 0)
    return rc;
  rc = ppc_decode (buf, len, out, why);
  free (buf);
  return rc;
}

PPC_API int
ppc_write_file (const char *path, const ppc_profile *p)
{
  char *buf;
  size_t len;
  if (ppc_encode (p, &buf, &len) < 0)
    {
      errno = ENOMEM;
      return -1;
    }
  int rc = pp_write_file_atomic (path, buf, len);
  free (buf);
  return rc;
}
