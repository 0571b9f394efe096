/* The .ppc codec, writing: a context profile (include/pp/ppc.h) as
   line-based text (doc/ppc-format.md), each line a record, sealed by an
   end line with the line count and a checksum; written atomically.  Plain
   C11 and POSIX, no libiberty: the runtime links it (cct_dump.c) and so
   does the sampler.  */
#include "ppc_internal.h"
#include "pp/sat.h"
#include "file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

PPC_INTERNAL void
ppc_puts (ppc_out *o, const char *s)
{
  ppc_put (o, s, strlen (s));
}

PPC_INTERNAL void
ppc_put_eol (ppc_out *o)
{
  ppc_put (o, "\n", 1);
  o->lines++;
}

/* " N": every field after the keyword is preceded by one space.  */
PPC_INTERNAL void
ppc_put_u64 (ppc_out *o, uint64_t v)
{
  if (o->b.cap - o->b.len < 21 && pp_buf_reserve (&o->b, 21) < 0)
    return;
  o->b.len += ppc_format_u64 (o->b.buf + o->b.len, v);
}

/* A string field: quoted, the file stays printable ASCII with one record
   per line, so quotes, backslashes, and every byte outside 0x20-0x7e
   (newlines of the metadata, UTF-8 file names) are escaped.  Each byte's
   escape letter, 0 for a byte written as it is.  */
static const char escape_of[256] = {
    'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 't', 'n', 'x', 'x', 'r', 'x', 'x',
    'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',
    0, 0, '"', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '\\', 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'x',
    'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',
    'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',
    'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',
    'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',
    'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',
    'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',
    'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',
    'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x',
};

PPC_INTERNAL void
ppc_put_str (ppc_out *o, const char *s, size_t n)
{
  static const char hex[] = "0123456789abcdef";
  /* Room for the worst case first, then bytes stored in place: a
     function's packed metadata escapes about every fourth byte, and a
     call per escape and per run between them made this a third of lua's
     exit write.  */
  if (n > ((size_t) -1 - 3) / 4)
    {
      o->b.oom = 1;
      return;
    }
  if (o->b.cap - o->b.len < 4 * n + 3
      && pp_buf_reserve (&o->b, 4 * n + 3) < 0)
    return;
  unsigned char *d = o->b.buf + o->b.len;
  *d++ = ' ';
  *d++ = '"';
  for (size_t i = 0; i < n; i++)
    {
      unsigned char c = (unsigned char) s[i];
      char e = escape_of[c];
      if (!e)
        {
          *d++ = c;
          continue;
        }
      *d++ = '\\';
      *d++ = (unsigned char) e;
      if (e == 'x')
        {
          *d++ = (unsigned char) hex[c >> 4];
          *d++ = (unsigned char) hex[c & 15];
        }
    }
  *d++ = '"';
  o->b.len = (size_t) (d - o->b.buf);
}

PPC_INTERNAL void
ppc_put_cstr (ppc_out *o, const char *s)
{
  ppc_put_str (o, s ? s : "", s ? strlen (s) : 0);
}

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

/* "metric NAME SOURCE UNIT ENTER_EXIT_COST PATH_COST RUNS".  */
PPC_INTERNAL void
ppc_put_metric (ppc_out *o, const ppc_metric *mt)
{
  ppc_puts (o, "metric");
  ppc_put_cstr (o, mt->name);
  ppc_put_cstr (o, mt->source);
  ppc_put_cstr (o, mt->unit);
  ppc_put_double (o, mt->enter_exit_cost);
  ppc_put_double (o, mt->path_cost);
  ppc_put_u64 (o, mt->runs);
  ppc_put_eol (o);
}

/* Function FN's record, as function INDEX.  */
PPC_INTERNAL void
ppc_put_fn (ppc_out *o, uint32_t index, const ppc_fn *fn)
{
  ppc_puts (o, "fn");
  ppc_put_u64 (o, index);
  ppc_put_cstr (o, fn->name);
  ppc_put_u64 (o, fn->checksum);
  ppc_put_u64 (o, fn->flags);
  ppc_put_u64 (o, fn->num_paths);
  ppc_put_cstr (o, fn->source);
  if (fn->meta_escaped)
    {
      ppc_put (o, " \"", 2);
      ppc_put (o, fn->meta, fn->meta_len);
      ppc_put (o, "\"", 1);
    }
  else
    ppc_put_str (o, fn->meta ? fn->meta : "", fn->meta ? fn->meta_len : 0);
  ppc_put_eol (o);
}

/* "path ID COUNT METRIC_1 .. METRIC_NM".  */
PPC_INTERNAL void
ppc_put_path (ppc_out *o, const ppc_path *pa, uint32_t nm)
{
  ppc_puts (o, "path");
  ppc_put_u64 (o, pa->id);
  ppc_put_u64 (o, pa->count);
  for (uint32_t m = 0; m < nm; m++)
    ppc_put_u64 (o, pa->metric[m]);
  ppc_put_eol (o);
}

/* Node ND's record as node INDEX under PARENT (UINT32_MAX: none) for
   function FN (PPC_NO_FN: none), then its paths and leaves.  */
PPC_INTERNAL void
ppc_put_node (ppc_out *o, uint32_t index, uint32_t parent, uint32_t fn,
              const ppc_node *nd, uint32_t nm)
{
  ppc_puts (o, "node");
  ppc_put_u64 (o, index);
  if (parent == UINT32_MAX)
    ppc_puts (o, " " PPC_NONE);
  else
    ppc_put_u64 (o, parent);
  if (fn == PPC_NO_FN)
    ppc_puts (o, " " PPC_NONE);
  else
    ppc_put_u64 (o, fn);
  ppc_put_cstr (o, nd->site);
  ppc_put_u64 (o, nd->calls);
  ppc_put_u64 (o, nd->recursive);
  ppc_put_u64 (o, nd->npaths);
  for (uint32_t m = 0; m < nm; m++)
    ppc_put_u64 (o, nd->excl[m]);
  ppc_put_eol (o);
  for (uint64_t k = 0; k < nd->npaths; k++)
    ppc_put_path (o, &nd->paths[k], nm);
  for (uint64_t k = 0; k < nd->nleaves; k++)
    {
      ppc_puts (o, "leaf");
      ppc_put_u64 (o, nd->leaves[k].offset);
      ppc_put_u64 (o, nd->leaves[k].samples);
      ppc_put_eol (o);
    }
}

PPC_INTERNAL void
ppc_put_object (ppc_out *o, const ppc_object *ob)
{
  ppc_puts (o, "object");
  ppc_put_cstr (o, ob->name);
  ppc_put_cstr (o, ob->path);
  ppc_put_cstr (o, ob->build_id);
  ppc_put_eol (o);
}

/* The seal: the end line with the lines so far and the checksum of every
   byte before it; O's image into *BUF, *LEN.  0, or -1 out of memory (O
   freed).  */
PPC_INTERNAL int
ppc_put_seal (ppc_out *o, char **buf, size_t *len)
{
  uint64_t sum = pp_sum64_lanes (o->b.buf, o->b.len);
  char end[64];
  snprintf (end, sizeof end, "end %lu %016llx\n", o->lines,
            (unsigned long long) sum);
  ppc_puts (o, end);
  if (o->b.oom)
    {
      free (o->b.buf);
      return -1;
    }
  *buf = (char *) o->b.buf;
  *len = o->b.len;
  return 0;
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
    ppc_put_metric (&o, &p->metrics[m]);
  ppc_puts (&o, "functions");
  ppc_put_u64 (&o, p->nfns);
  ppc_put_eol (&o);
  for (uint32_t f = 0; f < p->nfns; f++)
    ppc_put_fn (&o, f, &p->fns[f]);
  ppc_puts (&o, "nodes");
  ppc_put_u64 (&o, p->nnodes);
  ppc_put_eol (&o);
  for (uint32_t i = 0; i < p->nnodes; i++)
    ppc_put_node (&o, i, p->nodes[i].parent, p->nodes[i].fn, &p->nodes[i],
                  nm);
  /* Optional (files before it have none): the objects of the sites.  */
  if (p->nobjects)
    {
      ppc_puts (&o, "objects");
      ppc_put_u64 (&o, p->nobjects);
      ppc_put_eol (&o);
    }
  for (uint32_t i = 0; i < p->nobjects; i++)
    ppc_put_object (&o, &p->objects[i]);
  return ppc_put_seal (&o, buf, len);
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

PPC_API int
ppc_rewrite_file (const char *path, const ppc_profile *p)
{
  char *buf;
  size_t len;
  if (ppc_encode (p, &buf, &len) < 0)
    {
      errno = ENOMEM;
      return -1;
    }
  int rc = pp_write_file_in_place (path, buf, len);
  free (buf);
  return rc;
}
