/* CUnit tests of the .ppc codec (include/pp/ppc.h, lib/ppc_*.c):
   round trips (escaped strings, costs under another locale), files,
   merging (matching and new contexts, recursion counts, saturation,
   checksum changes, metric lists that differ), and the rejection of
   truncated and corrupted files with a reason naming the line.  */
#define _GNU_SOURCE /* memmem */
#include "test_ppc.h"

#include "pp/ppc.h"
#include "pp/rt_abi.h"
#include "file_io.h"

#include <CUnit/CUnit.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ helpers */

static const char *const metric_names[] = { "cycles", "instructions" };

/* A profile with NMETRICS metrics (cycles, instructions) and a root.  */
static void
init_profile (ppc_profile *p, uint64_t runs, uint32_t nmetrics)
{
  memset (p, 0, sizeof *p);
  p->runs = runs;
  p->cct = 1;
  p->nmetrics = nmetrics;
  for (uint32_t m = 0; m < nmetrics; m++)
    {
      p->metrics[m].name = strdup (metric_names[m]);
      p->metrics[m].source = strdup (m ? "rdpmc" : "tsc");
      p->metrics[m].unit = strdup (m ? "events" : "ticks");
      p->metrics[m].enter_exit_cost = m ? 40 : 12.5;
      p->metrics[m].path_cost = m ? 9 : 0.1;
      p->metrics[m].runs = runs;
    }
  p->nodes = calloc (1, sizeof *p->nodes);
  p->nodes[0].fn = PPC_NO_FN;
  p->nodes[0].parent = UINT32_MAX;
  p->nodes[0].site = strdup ("");
  p->nnodes = 1;
}

static uint32_t
add_fn (ppc_profile *p, const char *name, uint32_t checksum,
        const char *meta)
{
  p->fns = realloc (p->fns, (p->nfns + 1) * sizeof *p->fns);
  ppc_fn *f = &p->fns[p->nfns];
  memset (f, 0, sizeof *f);
  f->name = strdup (name);
  f->checksum = checksum;
  f->num_paths = 8;
  f->meta = strdup (meta);
  f->meta_len = (uint32_t) strlen (meta);
  f->source = strdup ("t.c");
  return p->nfns++;
}

static uint32_t
add_node (ppc_profile *p, uint32_t parent, uint32_t fn, const char *site,
          uint64_t calls, uint64_t recursive, uint64_t excl0)
{
  p->nodes = realloc (p->nodes, (p->nnodes + 1) * sizeof *p->nodes);
  ppc_node *n = &p->nodes[p->nnodes];
  memset (n, 0, sizeof *n);
  n->parent = parent;
  n->fn = fn;
  n->site = strdup (site);
  n->calls = calls;
  n->recursive = recursive;
  n->excl[0] = excl0;
  return p->nnodes++;
}

/* Paths must be added in ascending id order.  */
static void
add_path (ppc_profile *p, uint32_t node, uint64_t id, uint64_t count,
          uint64_t m0, uint64_t m1)
{
  ppc_node *n = &p->nodes[node];
  n->paths = realloc (n->paths, (n->npaths + 1) * sizeof *n->paths);
  ppc_path *pa = &n->paths[n->npaths++];
  memset (pa, 0, sizeof *pa);
  pa->id = id;
  pa->count = count;
  pa->metric[0] = m0;
  pa->metric[1] = m1;
}

/* The node under PARENT for function NAME called from SITE, or -1.  */
static int
find_node (const ppc_profile *p, uint32_t parent, const char *name,
           const char *site)
{
  for (uint32_t i = 1; i < p->nnodes; i++)
    if (p->nodes[i].parent == parent
        && !strcmp (p->fns[p->nodes[i].fn].name, name)
        && !strcmp (p->nodes[i].site, site))
      return (int) i;
  return -1;
}

/* main -> a (site m+0x10) -> a (recursion folded) and main -> b: the
   strings hold what needs escaping.  */
static void
sample_profile (ppc_profile *p)
{
  init_profile (p, 3, 2);
  uint32_t fmain = add_fn (p, "main", 0xdeadbeef,
                           "function main\nfile \"t.c\"\n\tentry s\\x\n");
  uint32_t fa = add_fn (p, "a", 7, "");
  uint32_t fb = add_fn (p, "b\xc3\xa9 \"q\"", 9, "node x line 3\r\n");
  free (p->fns[fb].source);
  p->fns[fb].source = strdup ("dir with space/\x01.c");
  uint32_t nm = add_node (p, 0, fmain, "", 1, 0, 100);
  uint32_t na = add_node (p, nm, fa, "prog+0x10", 5, 2, 40);
  uint32_t nb = add_node (p, nm, fb, "prog+0x2a", 1, 0, 0);
  add_path (p, nm, 0, 1, 100, 1000);
  add_path (p, na, 1, 3, 10, 70);
  add_path (p, na, 6, UINT64_MAX, UINT64_MAX, 5);
  (void) nb;
}

static char *
encode (const ppc_profile *p, size_t *len)
{
  static char *out;
  out = NULL;
  CU_ASSERT_EQUAL (ppc_encode (p, &out, len), 0);
  return out;
}

/* Our own seal: the body (lines, each ending in '\n') and an end line
   with its line count and FNV-1a 64, so that hand-written files do not
   trust the codec.  */
static char *
seal (const char *body, size_t *len)
{
  uint64_t h = 14695981039346656037ull;
  unsigned long lines = 0;
  for (const char *s = body; *s; s++)
    {
      h = (h ^ (unsigned char) *s) * 1099511628211ull;
      lines += *s == '\n';
    }
  char *out = malloc (strlen (body) + 64);
  sprintf (out, "%send %lu %016llx\n", body, lines, (unsigned long long) h);
  *len = strlen (out);
  return out;
}

/* Decodes BUF and expects failure with reason WHY.  */
static void
expect_reject (const char *buf, size_t len, const char *why)
{
  ppc_profile p;
  const char *got = NULL;
  CU_ASSERT_EQUAL (ppc_decode (buf, len, &p, &got), -1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (got);
  CU_ASSERT_STRING_EQUAL (got, why);
  if (strcmp (got, why) != 0)
    fprintf (stderr, "\n  reason: %s\n  wanted: %s\n", got, why);
  /* A failed decode leaves nothing to free.  */
  CU_ASSERT_EQUAL (p.nnodes, 0);
  CU_ASSERT_PTR_NULL (p.nodes);
  CU_ASSERT_PTR_NULL (p.fns);
}

static void
expect_sealed_reject (const char *body, const char *why)
{
  size_t len;
  char *buf = seal (body, &len);
  expect_reject (buf, len, why);
  free (buf);
}

#define HEAD "ppgcc-context-profile 1\nruns 1\nkind cct\nmetrics 0\n"

/* -------------------------------------------------------------- tests */

static void
test_round_trip (void)
{
  ppc_profile p;
  sample_profile (&p);
  size_t len;
  char *buf = encode (&p, &len);
  CU_ASSERT_FATAL (buf != NULL);
  CU_ASSERT_EQUAL (strncmp (buf, "ppgcc-context-profile 4\n", 24), 0);
  CU_ASSERT_EQUAL (buf[len - 1], '\n');
  /* Printable ASCII, one record per line.  */
  int clean = 1;
  for (size_t i = 0; i < len; i++)
    clean &= (buf[i] >= 0x20 && buf[i] < 0x7f) || buf[i] == '\n';
  CU_ASSERT (clean);
  CU_ASSERT_PTR_NOT_NULL (strstr (buf, "\nmetric \"cycles\" \"tsc\" \"ticks\" "
                                       "12.5 0.1 3\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (buf, "\"b\\xc3\\xa9 \\\"q\\\"\""));
  CU_ASSERT_PTR_NOT_NULL (strstr (buf, "\nnode 0 - - \"\" 0 0 0 0 0\n"));

  ppc_profile q;
  const char *why = NULL;
  CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL (q.runs, 3);
  CU_ASSERT_EQUAL (q.cct, 1);
  CU_ASSERT_EQUAL_FATAL (q.nmetrics, 2);
  CU_ASSERT_STRING_EQUAL (q.metrics[1].name, "instructions");
  CU_ASSERT_STRING_EQUAL (q.metrics[1].source, "rdpmc");
  CU_ASSERT_STRING_EQUAL (q.metrics[1].unit, "events");
  CU_ASSERT_EQUAL (q.metrics[0].enter_exit_cost, 12.5);
  CU_ASSERT_EQUAL (q.metrics[0].path_cost, 0.1);
  CU_ASSERT_EQUAL (q.metrics[1].enter_exit_cost, 40);
  CU_ASSERT_EQUAL_FATAL (q.nfns, 3);
  for (uint32_t f = 0; f < 3; f++)
    {
      CU_ASSERT_STRING_EQUAL (q.fns[f].name, p.fns[f].name);
      CU_ASSERT_STRING_EQUAL (q.fns[f].source, p.fns[f].source);
      CU_ASSERT_EQUAL (q.fns[f].meta_len, p.fns[f].meta_len);
      CU_ASSERT_STRING_EQUAL (q.fns[f].meta, p.fns[f].meta);
      CU_ASSERT_EQUAL (q.fns[f].checksum, p.fns[f].checksum);
      CU_ASSERT_EQUAL (q.fns[f].num_paths, 8);
    }
  CU_ASSERT_EQUAL_FATAL (q.nnodes, 4);
  CU_ASSERT_EQUAL (q.nodes[0].fn, PPC_NO_FN);
  CU_ASSERT_EQUAL (q.nodes[0].parent, UINT32_MAX);
  const ppc_node *a = &q.nodes[2];
  CU_ASSERT_EQUAL (a->parent, 1);
  CU_ASSERT_EQUAL (a->fn, 1);
  CU_ASSERT_STRING_EQUAL (a->site, "prog+0x10");
  CU_ASSERT_EQUAL (a->calls, 5);
  CU_ASSERT_EQUAL (a->recursive, 2);
  CU_ASSERT_EQUAL (a->excl[0], 40);
  CU_ASSERT_EQUAL_FATAL (a->npaths, 2);
  CU_ASSERT_EQUAL (a->paths[1].id, 6);
  CU_ASSERT_EQUAL (a->paths[1].count, UINT64_MAX);
  CU_ASSERT_EQUAL (a->paths[1].metric[0], UINT64_MAX);
  CU_ASSERT_EQUAL (a->paths[1].metric[1], 5);
  CU_ASSERT_EQUAL (q.nodes[3].npaths, 0);

  /* Encoding what was decoded gives the same bytes.  */
  size_t len2;
  char *again = encode (&q, &len2);
  CU_ASSERT_EQUAL_FATAL (len2, len);
  CU_ASSERT_EQUAL (memcmp (again, buf, len), 0);
  free (again);
  free (buf);
  ppc_free (&q);
  ppc_free (&p);
}

/* The runtime writes under the program's locale, the tools read under
   theirs: a ',' radix must not leak into the file.  */
static void
test_locale (void)
{
  const char *names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
                          "fr_FR.utf8", "C.UTF-8" };
  ppc_profile p;
  sample_profile (&p);
  p.metrics[0].enter_exit_cost = 0.30000000000000004;
  p.metrics[0].path_cost = 1e-9;
  size_t len, len_c;
  char *in_c = encode (&p, &len_c);
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (setlocale (LC_NUMERIC, names[i]))
      {
        char *buf = encode (&p, &len);
        CU_ASSERT_EQUAL (len, len_c);
        CU_ASSERT_EQUAL (memcmp (buf, in_c, len), 0);
        ppc_profile q;
        const char *why;
        CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, len, &q, &why), 0);
        CU_ASSERT_EQUAL (q.metrics[0].enter_exit_cost, 0.30000000000000004);
        CU_ASSERT_EQUAL (q.metrics[0].path_cost, 1e-9);
        ppc_free (&q);
        free (buf);
      }
  setlocale (LC_NUMERIC, "C");
  free (in_c);
  ppc_free (&p);
}

static void
test_files (void)
{
  ppc_profile p, q;
  sample_profile (&p);
  char dir[] = "/tmp/test_ppc.XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL (mkdtemp (dir));
  char path[64];
  snprintf (path, sizeof path, "%s/x.ppc", dir);
  const char *why = NULL;
  CU_ASSERT_EQUAL (ppc_read_file (path, &q, &why), 1); /* no file yet */
  CU_ASSERT_EQUAL_FATAL (ppc_write_file (path, &p), 0);
  CU_ASSERT_EQUAL_FATAL (ppc_read_file (path, &q, &why), 0);
  CU_ASSERT_EQUAL (q.nnodes, 4);
  ppc_free (&q);
  /* Cut short by one byte: the end line loses its line end.  */
  CU_ASSERT_EQUAL_FATAL (truncate (path, 100), 0);
  why = NULL;
  CU_ASSERT_EQUAL (ppc_read_file (path, &q, &why), -1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (why);
  CU_ASSERT_EQUAL (strncmp (why, "truncated at line ", 18), 0);
  /* A directory is not a profile.  */
  CU_ASSERT_EQUAL (ppc_read_file (dir, &q, &why), -1);
  unlink (path);
  CU_ASSERT_EQUAL (rmdir (dir), 0); /* no temporary file left behind */
  ppc_free (&p);
}

static int warned;

static void
count_warning (void *ctx, const char *fn)
{
  CU_ASSERT_STRING_EQUAL (fn, (const char *) ctx);
  warned++;
}

static void
test_merge (void)
{
  ppc_profile a, b;
  sample_profile (&a);
  init_profile (&b, 2, 2);
  /* FROM lists its functions in another order.  */
  uint32_t fa = add_fn (&b, "a", 7, "");
  uint32_t fmain = add_fn (&b, "main", 0xdeadbeef, "m");
  uint32_t fc = add_fn (&b, "c", 11, "");
  uint32_t nm = add_node (&b, 0, fmain, "", 1, 0, 5);
  uint32_t na = add_node (&b, nm, fa, "prog+0x10", 4, 3, 2);   /* same */
  uint32_t na2 = add_node (&b, nm, fa, "prog+0x99", 1, 0, 1);  /* new site */
  uint32_t nc = add_node (&b, na, fc, "prog+0x40", 6, 0, 60);  /* new */
  add_path (&b, nm, 0, 2, 3, 4);
  add_path (&b, na, 0, 1, 1, 1);
  add_path (&b, na, 1, 1, 5, 5);
  add_path (&b, na, 6, 1, 1, 1);
  add_path (&b, nc, 2, 6, 60, 600);
  (void) na2;
  free (b.metrics[0].source);
  b.metrics[0].source = strdup ("clock_gettime");
  b.metrics[0].enter_exit_cost = 25;
  free (b.metrics[1].unit);
  b.metrics[1].unit = strdup ("events");

  const char *why = NULL;
  CU_ASSERT_EQUAL_FATAL (ppc_merge (&a, &b, &why), 0);
  CU_ASSERT_EQUAL (a.runs, 5);
  CU_ASSERT_EQUAL (a.nfns, 4);
  CU_ASSERT_EQUAL_FATAL (a.nnodes, 6);
  /* Sources listed, costs averaged over the runs: (12.5*3 + 25*2) / 5.  */
  CU_ASSERT_STRING_EQUAL (a.metrics[0].source, "tsc,clock_gettime");
  CU_ASSERT_DOUBLE_EQUAL (a.metrics[0].enter_exit_cost, 17.5, 1e-12);
  CU_ASSERT_STRING_EQUAL (a.metrics[1].source, "rdpmc");

  int m = find_node (&a, 0, "main", ""), x = find_node (&a, m, "a",
                                                        "prog+0x10");
  CU_ASSERT_EQUAL_FATAL (m, 1);
  CU_ASSERT_EQUAL_FATAL (x, 2);
  const ppc_node *n = &a.nodes[x];
  CU_ASSERT_EQUAL (n->calls, 9);
  CU_ASSERT_EQUAL (n->recursive, 5);
  CU_ASSERT_EQUAL (n->excl[0], 42);
  CU_ASSERT_EQUAL_FATAL (n->npaths, 3);
  CU_ASSERT_EQUAL (n->paths[0].id, 0);
  CU_ASSERT_EQUAL (n->paths[0].count, 1);
  CU_ASSERT_EQUAL (n->paths[1].id, 1);
  CU_ASSERT_EQUAL (n->paths[1].count, 4);
  CU_ASSERT_EQUAL (n->paths[1].metric[0], 15);
  CU_ASSERT_EQUAL (n->paths[1].metric[1], 75);
  /* Saturated, not wrapped.  */
  CU_ASSERT_EQUAL (n->paths[2].count, UINT64_MAX);
  CU_ASSERT_EQUAL (n->paths[2].metric[0], UINT64_MAX);
  CU_ASSERT_EQUAL (n->paths[2].metric[1], 6);
  CU_ASSERT_EQUAL (a.nodes[m].calls, 2);
  CU_ASSERT_EQUAL (a.nodes[m].paths[0].count, 3);

  /* New contexts: another call site of a, and c below a.  */
  int y = find_node (&a, m, "a", "prog+0x99");
  int c = find_node (&a, x, "c", "prog+0x40");
  CU_ASSERT_FATAL (y > 0 && c > 0);
  CU_ASSERT_EQUAL (a.nodes[y].calls, 1);
  CU_ASSERT_EQUAL (a.nodes[y].npaths, 0);
  CU_ASSERT_EQUAL (a.nodes[c].calls, 6);
  CU_ASSERT_EQUAL_FATAL (a.nodes[c].npaths, 1);
  CU_ASSERT_EQUAL (a.nodes[c].paths[0].metric[1], 600);
  for (uint32_t i = 1; i < a.nnodes; i++)
    CU_ASSERT (a.nodes[i].parent < i);

  /* The merged profile encodes and decodes.  */
  size_t len;
  char *buf = encode (&a, &len);
  ppc_profile q;
  CU_ASSERT_EQUAL (ppc_decode (buf, len, &q, &why), 0);
  ppc_free (&q);
  free (buf);

  /* Merged into an empty profile: a copy, the same file.  */
  ppc_profile e = { 0 };
  CU_ASSERT_EQUAL_FATAL (ppc_merge (&e, &b, &why), 0);
  size_t lb, le;
  char *eb = encode (&b, &lb), *ee = encode (&e, &le);
  CU_ASSERT_EQUAL (lb, le);
  CU_ASSERT (lb == le && memcmp (eb, ee, lb) == 0);
  free (eb);
  free (ee);
  ppc_free (&e);
  ppc_free (&b);
  ppc_free (&a);
}

/* ------------------------------------------- merging as text */

static uint64_t text_rng_state = 88172645463325252ull;

static uint64_t
text_rng (uint64_t n)
{
  text_rng_state ^= text_rng_state << 13;
  text_rng_state ^= text_rng_state >> 7;
  text_rng_state ^= text_rng_state << 17;
  return n ? text_rng_state % n : 0;
}

/* A random profile over a few functions (one name that needs escapes,
   two static ones of one name in other files), call sites and objects:
   contexts unique by parent, function and site, paths ascending.  */
static void
random_ppc (ppc_profile *p, uint32_t nmetrics, int leaves)
{
  static const char *const names[] = { "main", "a", "b\xc3\xa9", "c", "s",
                                       "s" };
  static const char *const sites[] = { "", "prog+0x10", "prog+0x2a",
                                       "lib.so+0x30", "inlined",
                                       "libvery-long-name.so.1+0x1234abcd" };
  init_profile (p, 1 + text_rng (3), nmetrics);
  for (uint32_t f = 0; f < 6; f++)
    if (text_rng (4))
      {
        uint32_t g = add_fn (p, names[f], 7 + f, text_rng (2) ? "" : "x\n\"y\"");
        if (f == 5)
          {
            free (p->fns[g].source);
            p->fns[g].source = strdup ("other.c");
          }
        p->fns[g].flags = (uint32_t) text_rng (2) * PP_FN_CCT;
      }
  uint32_t want = p->nfns ? (uint32_t) text_rng (12) : 0;
  for (uint32_t k = 0; k < want; k++)
    {
      uint32_t parent = (uint32_t) text_rng (p->nnodes);
      uint32_t fn = (uint32_t) text_rng (p->nfns);
      const char *site = sites[text_rng (6)];
      int dup = 0;
      for (uint32_t i = 1; i < p->nnodes; i++)
        dup |= p->nodes[i].parent == parent && p->nodes[i].fn == fn
               && !strcmp (p->nodes[i].site, site);
      if (dup)
        continue;
      uint32_t n = add_node (p, parent, fn, site, text_rng (5),
                             text_rng (3), text_rng (100));
      if (nmetrics > 1)
        p->nodes[n].excl[1] = text_rng (2) ? UINT64_MAX - text_rng (2) : 9;
      for (uint64_t id = text_rng (3); id < 8; id += 1 + text_rng (3))
        add_path (p, n, id, text_rng (4) ? 1 + text_rng (50) : UINT64_MAX,
                  text_rng (1000), text_rng (2) ? UINT64_MAX : 3);
      if (leaves && text_rng (3) == 0)
        {
          p->nodes[n].leaves = calloc (2, sizeof *p->nodes[n].leaves);
          p->nodes[n].leaves[0] = (ppc_leaf){ 4, 1 + text_rng (9) };
          p->nodes[n].leaves[1] = (ppc_leaf){ 9, 1 };
          p->nodes[n].nleaves = 2;
        }
    }
  static const char *const objs[] = { "prog", "lib.so", "x\"y" };
  for (uint32_t o = 0; o < 3; o++)
    if (text_rng (2))
      {
        p->objects = realloc (p->objects,
                              (p->nobjects + 1) * sizeof *p->objects);
        char path[32];
        snprintf (path, sizeof path, "/run%u/%s", (unsigned) text_rng (3),
                  objs[o]);
        p->objects[p->nobjects++] = (ppc_object){ strdup (objs[o]),
                                                  strdup (path),
                                                  strdup (text_rng (2) ? "ab12" : "") };
      }
}

/* ppc_merge_text's image against decode, ppc_merge and encode's: the same
   bytes whenever it does not decline, and it declines only what it says
   it does (checked: most random pairs merge as text).  */
static void
test_merge_text (void)
{
  int trials = 600, declined = 0, same = 0;
  for (int trial = 0; trial < trials; trial++)
    {
      uint32_t nm = (uint32_t) text_rng (3);
      ppc_profile old, now;
      random_ppc (&old, nm, 1);
      random_ppc (&now, nm, 0);
      if (text_rng (8) == 0 && now.nfns)
        now.fns[0].checksum++; /* another CFG version: declined */
      char *image, *fast = NULL, *slow;
      size_t len, fast_len = 0, slow_len;
      CU_ASSERT_EQUAL_FATAL (ppc_encode (&old, &image, &len), 0);
      if (text_rng (4) == 0)
        {
          /* A run of the same tree (its contexts in the file's order),
             with maybe a context or two the file lacks among them.  */
          const char *why;
          ppc_free (&now);
          CU_ASSERT_EQUAL_FATAL (ppc_decode (image, len, &now, &why), 0);
          for (uint32_t i = 0; i < now.nnodes; i++)
            {
              free (now.nodes[i].leaves);
              now.nodes[i].leaves = NULL;
              now.nodes[i].nleaves = 0;
              now.nodes[i].calls += i;
            }
          now.runs = 1;
          for (uint64_t k = text_rng (3); k > 0 && now.nfns; k--)
            {
              uint32_t parent = (uint32_t) text_rng (now.nnodes);
              uint32_t fn = (uint32_t) text_rng (now.nfns);
              int dup = 0;
              for (uint32_t i = 1; i < now.nnodes; i++)
                dup |= now.nodes[i].parent == parent && now.nodes[i].fn == fn
                       && !strcmp (now.nodes[i].site, "new+0x99");
              if (!dup)
                add_node (&now, parent, fn, "new+0x99", 1, 0, 2);
            }
        }
      int rc = ppc_merge_text (image, len, &now, &fast, &fast_len);
      CU_ASSERT (rc == 0 || rc == 1);
      ppc_profile merged;
      const char *why;
      CU_ASSERT_EQUAL_FATAL (ppc_decode (image, len, &merged, &why), 0);
      CU_ASSERT_EQUAL_FATAL (ppc_merge (&merged, &now, &why), 0);
      CU_ASSERT_EQUAL_FATAL (ppc_encode (&merged, &slow, &slow_len), 0);
      if (rc == 1)
        declined++;
      else if (fast_len == slow_len && !memcmp (fast, slow, slow_len))
        same++;
      else
        fprintf (stderr, "\n--- long way:\n%.*s--- as text:\n%.*s",
                 (int) slow_len, slow, (int) fast_len, fast);
      free (image);
      free (fast);
      free (slow);
      ppc_free (&merged);
      ppc_free (&old);
      ppc_free (&now);
    }
  CU_ASSERT_EQUAL (same + declined, trials);
  CU_ASSERT (declined < trials / 4);
}

/* What ppc_merge_text leaves to the long way.  */
static void
test_merge_text_declines (void)
{
  ppc_profile a, b;
  sample_profile (&a);
  sample_profile (&b);
  char *img, *out = NULL;
  size_t len, out_len;
  CU_ASSERT_EQUAL_FATAL (ppc_encode (&a, &img, &len), 0);
  CU_ASSERT_EQUAL (ppc_merge_text (img, len, &b, &out, &out_len), 0);
  free (out);
  free (b.metrics[1].name); /* another metric list */
  b.metrics[1].name = strdup ("branches");
  CU_ASSERT_EQUAL (ppc_merge_text (img, len, &b, &out, &out_len), 1);
  free (b.metrics[1].name);
  b.metrics[1].name = strdup ("instructions");
  b.cct = 0; /* the other kind */
  CU_ASSERT_EQUAL (ppc_merge_text (img, len, &b, &out, &out_len), 1);
  b.cct = 1;
  b.fns[1].flags |= PP_FN_OLDER; /* an older version */
  CU_ASSERT_EQUAL (ppc_merge_text (img, len, &b, &out, &out_len), 1);
  b.fns[1].flags &= ~PP_FN_OLDER;
  img[len - 2] ^= 1; /* damaged: the long way says why */
  CU_ASSERT_EQUAL (ppc_merge_text (img, len, &b, &out, &out_len), 1);
  img[len - 2] ^= 1;
  CU_ASSERT_EQUAL (ppc_merge_text (img, len, &b, &out, &out_len), 0);
  free (out);
  /* The end line counting a line more than there are (lines are counted
     on the way, not before).  */
  char *end = img + len - 2;
  while (end[-1] != '\n')
    end--;
  CU_ASSERT_EQUAL_FATAL (end[4], '1');
  end[4] = '2';
  CU_ASSERT_EQUAL (ppc_merge_text (img, len, &b, &out, &out_len), 1);
  end[4] = '1';
  /* A site of NOW's that would be escaped, past its first eight bytes
     (scanned a word at a time) and in the rest after them.  */
  static const char *const escaped[] = { "longer-name\x01.so+0x10",
                                         "longer-name.so+0x1\"",
                                         "longer-name.so\x7f",
                                         "longer-name.so+\xc3\xa9",
                                         "in\\ned", "inline\n", "a\"c" };
  for (int k = 0; k < 7; k++)
    {
      char *was = b.nodes[2].site;
      b.nodes[2].site = (char *) escaped[k];
      CU_ASSERT_EQUAL (ppc_merge_text (img, len, &b, &out, &out_len), 1);
      b.nodes[2].site = was;
    }
  free (img);
  /* One of OLD's sites escaped, past its first eight bytes.  */
  free (a.nodes[2].site);
  a.nodes[2].site = strdup ("longer-name.so\"x+0x2a");
  CU_ASSERT_EQUAL_FATAL (ppc_encode (&a, &img, &len), 0);
  CU_ASSERT_EQUAL (ppc_merge_text (img, len, &b, &out, &out_len), 1);
  free (img);
  ppc_free (&a);
  ppc_free (&b);
}

/* A function rebuilt with another CFG (another -O level): each CFG
   version is kept with its own contexts, INTO's older ones flagged; no
   warning until a fifth version drops the oldest with its subtree.  */
static void
test_merge_versions (void)
{
  ppc_profile a, b;
  sample_profile (&a);
  init_profile (&b, 1, 2);
  uint32_t fmain = add_fn (&b, "main", 0xdeadbeef, "m");
  uint32_t fa = add_fn (&b, "a", 8, "new cfg");
  uint32_t nm = add_node (&b, 0, fmain, "", 1, 0, 0);
  uint32_t na = add_node (&b, nm, fa, "prog+0x10", 1, 0, 1);
  add_path (&b, na, 3, 1, 1, 1);
  warned = 0;
  const char *why;
  CU_ASSERT_EQUAL_FATAL (ppc_merge_warn (&a, &b, count_warning, "a", &why),
                         0);
  CU_ASSERT_EQUAL (warned, 0);
  CU_ASSERT_EQUAL_FATAL (a.nfns, 4);
  /* The old version stays where it was, flagged older, paths and all.  */
  CU_ASSERT_EQUAL (a.fns[1].checksum, 7);
  CU_ASSERT (a.fns[1].flags & PP_FN_OLDER);
  CU_ASSERT_EQUAL (a.fns[3].checksum, 8);
  CU_ASSERT (!(a.fns[3].flags & PP_FN_OLDER));
  CU_ASSERT (!(a.fns[0].flags & PP_FN_OLDER)); /* main: one version */
  CU_ASSERT_STRING_EQUAL (a.fns[3].meta, "new cfg");
  const ppc_node *old = &a.nodes[2];
  CU_ASSERT_EQUAL (old->fn, 1);
  CU_ASSERT_EQUAL (old->calls, 5);
  CU_ASSERT_EQUAL (old->excl[0], 40);
  CU_ASSERT_EQUAL_FATAL (old->npaths, 2);
  CU_ASSERT_EQUAL (old->paths[0].count, 3);
  /* The new one: its own context under the same main.  */
  CU_ASSERT_EQUAL_FATAL (a.nnodes, 5);
  const ppc_node *n = &a.nodes[4];
  CU_ASSERT_EQUAL (n->fn, 3);
  CU_ASSERT_EQUAL (n->parent, 1);
  CU_ASSERT_EQUAL (n->calls, 1);
  CU_ASSERT_EQUAL_FATAL (n->npaths, 1);
  CU_ASSERT_EQUAL (n->paths[0].id, 3);

  /* Round trip: versions and flags survive the file.  */
  size_t len;
  char *buf = encode (&a, &len);
  ppc_profile q;
  CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL (q.nfns, 4);
  CU_ASSERT (q.fns[1].flags & PP_FN_OLDER);
  ppc_free (&q);
  free (buf);

  /* The old CFG again: its version takes the counts, becomes current.  */
  b.fns[fa].checksum = 7;
  CU_ASSERT_EQUAL_FATAL (ppc_merge_warn (&a, &b, count_warning, "a", &why),
                         0);
  CU_ASSERT_EQUAL (a.nfns, 4);
  CU_ASSERT (!(a.fns[1].flags & PP_FN_OLDER));
  CU_ASSERT (a.fns[3].flags & PP_FN_OLDER);
  CU_ASSERT_EQUAL (a.nodes[2].calls, 6);

  /* Versions 9, 10, 11: the fifth (11) drops the first older one in
     the list (7, added first), and its context.  */
  for (uint32_t v = 9; v <= 11; v++)
    {
      b.fns[fa].checksum = v;
      CU_ASSERT_EQUAL_FATAL (
          ppc_merge_warn (&a, &b, count_warning, "a", &why), 0);
    }
  CU_ASSERT_EQUAL (warned, 1);
  uint32_t versions = 0;
  for (uint32_t f = 0; f < a.nfns; f++)
    if (!strcmp (a.fns[f].name, "a"))
      {
        versions++;
        CU_ASSERT (a.fns[f].checksum != 7);
        CU_ASSERT_EQUAL (!!(a.fns[f].flags & PP_FN_OLDER),
                         a.fns[f].checksum != 11);
      }
  CU_ASSERT_EQUAL (versions, PPC_MAX_VERSIONS);
  for (uint32_t i = 1; i < a.nnodes; i++)
    {
      CU_ASSERT (a.nodes[i].parent < i);
      CU_ASSERT (a.nodes[i].fn < a.nfns);
    }
  ppc_free (&b);
  ppc_free (&a);
}

/* A dropped version's whole subtree goes: c under the oldest a.  */
static void
test_merge_versions_subtree (void)
{
  ppc_profile a, b;
  init_profile (&a, 1, 0);
  uint32_t fm = add_fn (&a, "main", 1, "");
  uint32_t fa = add_fn (&a, "a", 100, "");
  uint32_t fc = add_fn (&a, "c", 5, "");
  uint32_t nm = add_node (&a, 0, fm, "", 1, 0, 0);
  uint32_t na = add_node (&a, nm, fa, "p+0x1", 1, 0, 0);
  add_node (&a, na, fc, "p+0x2", 7, 0, 0);
  const char *why;
  for (uint32_t v = 101; v <= 104; v++)
    {
      init_profile (&b, 1, 0);
      uint32_t gm = add_fn (&b, "main", 1, "");
      uint32_t ga = add_fn (&b, "a", v, "");
      uint32_t bm = add_node (&b, 0, gm, "", 1, 0, 0);
      add_node (&b, bm, ga, "p+0x1", 1, 0, 0);
      CU_ASSERT_EQUAL_FATAL (ppc_merge (&a, &b, &why), 0);
      ppc_free (&b);
    }
  CU_ASSERT_EQUAL (a.nfns, 2 + PPC_MAX_VERSIONS);
  for (uint32_t f = 0; f < a.nfns; f++)
    CU_ASSERT (a.fns[f].checksum != 100);
  CU_ASSERT_EQUAL (a.nnodes, 2 + PPC_MAX_VERSIONS);
  CU_ASSERT_EQUAL (find_node (&a, 1, "c", "p+0x2"), -1);
  CU_ASSERT_EQUAL (a.nodes[1].calls, 5);
  ppc_free (&a);
}

/* Other metric lists merge by name: INTO's first, FROM's new ones after
   it, each metric's runs those that measured it, a metric's values of
   the runs that did not measure it 0.  */
static void
test_merge_metric_lists (void)
{
  ppc_profile a, b;
  sample_profile (&a);
  sample_profile (&b);
  free (b.metrics[0].name);
  b.metrics[0].name = strdup ("r01c2");
  const char *why = NULL;
  CU_ASSERT_EQUAL_FATAL (ppc_merge (&a, &b, &why), 0);
  CU_ASSERT_EQUAL (a.runs, 6);
  CU_ASSERT_EQUAL_FATAL (a.nmetrics, 3);
  CU_ASSERT_STRING_EQUAL (a.metrics[0].name, "cycles");
  CU_ASSERT_STRING_EQUAL (a.metrics[1].name, "instructions");
  CU_ASSERT_STRING_EQUAL (a.metrics[2].name, "r01c2");
  CU_ASSERT_EQUAL (a.metrics[0].runs, 3);
  CU_ASSERT_EQUAL (a.metrics[1].runs, 6);
  CU_ASSERT_EQUAL (a.metrics[2].runs, 3);
  /* a at prog+0x10, path 1: 3+3 executions; cycles 10 (INTO's alone),
     instructions 70+70, r01c2 10 (FROM's cycles slot).  */
  int m = find_node (&a, 0, "main", ""), x = find_node (&a, m, "a",
                                                        "prog+0x10");
  CU_ASSERT_FATAL (x > 0);
  const ppc_path *p = &a.nodes[x].paths[0];
  CU_ASSERT_EQUAL (p->count, 6);
  CU_ASSERT_EQUAL (p->metric[0], 10);
  CU_ASSERT_EQUAL (p->metric[1], 140);
  CU_ASSERT_EQUAL (p->metric[2], 10);
  CU_ASSERT_EQUAL (a.nodes[x].excl[0], 40);
  CU_ASSERT_EQUAL (a.nodes[x].excl[2], 40);

  /* Each metric's runs survive the file (format version 2 on).  */
  size_t len;
  char *buf = encode (&a, &len);
  CU_ASSERT (!strncmp (buf, "ppgcc-context-profile 4\n", 24));
  ppc_profile q;
  CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL (q.metrics[0].runs, 3);
  CU_ASSERT_EQUAL (q.metrics[1].runs, 6);
  ppc_free (&q);
  free (buf);
  ppc_free (&b);

  /* One metric fewer: merges, the missing one counts INTO's runs.  */
  sample_profile (&b);
  b.nmetrics = 1;
  free (b.metrics[1].name);
  free (b.metrics[1].source);
  free (b.metrics[1].unit);
  CU_ASSERT_EQUAL (ppc_merge (&a, &b, &why), 0);
  CU_ASSERT_EQUAL (a.nmetrics, 3);
  CU_ASSERT_EQUAL (a.metrics[0].runs, 6);
  CU_ASSERT_EQUAL (a.metrics[1].runs, 6);
  CU_ASSERT_EQUAL (a.runs, 9);
  ppc_free (&b);
  ppc_free (&a);
}

/* A version 1 file (no runs per metric): each metric counts the file's
   runs.  */
static void
test_version_1 (void)
{
  size_t len;
  char *buf = seal ("ppgcc-context-profile 1\nruns 4\nkind cct\nmetrics 1\n"
                    "metric \"cycles\" \"tsc\" \"ticks\" 1 2\nfunctions 0\n"
                    "nodes 1\nnode 0 - - \"\" 0 0 0 0\n", &len);
  ppc_profile p;
  const char *why = NULL;
  CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, len, &p, &why), 0);
  CU_ASSERT_EQUAL (p.metrics[0].runs, 4);
  ppc_free (&p);
  free (buf);
  /* Version 2 has the field; more runs than the file's is refused.  */
  buf = seal ("ppgcc-context-profile 2\nruns 4\nkind cct\nmetrics 1\n"
              "metric \"cycles\" \"tsc\" \"ticks\" 1 2 5\nfunctions 0\n"
              "nodes 1\nnode 0 - - \"\" 0 0 0 0\n", &len);
  expect_reject (buf, len, "line 5: a metric counts more runs than the file");
  free (buf);
}

static void
set_leaves (ppc_node *n, const uint64_t (*l)[2], uint64_t count)
{
  n->leaves = calloc (count, sizeof *n->leaves);
  for (uint64_t k = 0; k < count; k++)
    n->leaves[k] = (ppc_leaf){ l[k][0], l[k][1] };
  n->nleaves = count;
}

/* A sampled profile's leaf PCs (version 4): they survive the file, add
   by offset in a merge, and must ascend; a version 3 file (sampled
   before leaves were kept) still reads, without any, and a "leaf"
   record in it is not one.  */
static void
test_leaves (void)
{
  ppc_profile a, b;
  init_profile (&a, 1, 1);
  uint32_t f = add_fn (&a, "prog+0x1130", 0, "");
  uint32_t n = add_node (&a, 0, f, "", 0, 0, 9);
  static const uint64_t la[][2] = { { 4, 3 }, { 17, 5 } };
  set_leaves (&a.nodes[n], la, 2);
  char *buf;
  size_t len;
  const char *why = NULL;
  CU_ASSERT_EQUAL_FATAL (ppc_encode (&a, &buf, &len), 0);
  CU_ASSERT_PTR_NOT_NULL (strstr (buf, "\nleaf 4 3\nleaf 17 5\n"));
  CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, len, &b, &why), 0);
  free (buf);
  CU_ASSERT_EQUAL_FATAL (b.nodes[1].nleaves, 2);
  CU_ASSERT_EQUAL (b.nodes[1].leaves[1].offset, 17);
  CU_ASSERT_EQUAL (b.nodes[1].leaves[1].samples, 5);
  /* merged: offsets of both, samples added where they meet */
  ppc_profile c;
  init_profile (&c, 1, 1);
  f = add_fn (&c, "prog+0x1130", 0, "");
  n = add_node (&c, 0, f, "", 0, 0, 4);
  static const uint64_t lc[][2] = { { 0, 1 }, { 17, 2 }, { 30, 1 } };
  set_leaves (&c.nodes[n], lc, 3);
  CU_ASSERT_EQUAL_FATAL (ppc_merge (&b, &c, &why), 0);
  CU_ASSERT_EQUAL_FATAL (b.nodes[1].nleaves, 4);
  CU_ASSERT_EQUAL (b.nodes[1].leaves[0].offset, 0);
  CU_ASSERT_EQUAL (b.nodes[1].leaves[2].offset, 17);
  CU_ASSERT_EQUAL (b.nodes[1].leaves[2].samples, 7);
  CU_ASSERT_EQUAL (b.nodes[1].leaves[3].offset, 30);
  CU_ASSERT_EQUAL (b.nodes[1].excl[0], 13);
  /* not ascending: refused */
  a.nodes[n].leaves[1].offset = 4;
  CU_ASSERT_EQUAL_FATAL (ppc_encode (&a, &buf, &len), 0);
  expect_reject (buf, len, "line 12: leaf offsets not ascending");
  free (buf);
  ppc_free (&a);
  ppc_free (&b);
  ppc_free (&c);
  /* version 3, as the sampler wrote it before: read, no leaves */
  const char *v3 = "ppgcc-context-profile 3\nruns 1\nkind cct\nmetrics 1\n"
                   "metric \"samples\" \"timer\" \"samples\" 0 0 1\n"
                   "functions 1\nfn 0 \"prog+0x1130\" 0 64 0 \"\" \"\"\n"
                   "nodes 2\nnode 0 - - \"\" 0 0 0 0\n"
                   "node 1 0 0 \"\" 0 0 0 9\n";
  size_t n3 = strlen (v3);
  buf = malloc (n3 + 64);
  memcpy (buf, v3, n3);
  snprintf (buf + n3, 64, "end 10 %016llx\n",
            (unsigned long long) pp_sum64_lanes (v3, n3));
  CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, strlen (buf), &b, &why), 0);
  CU_ASSERT_EQUAL (b.nnodes, 2);
  CU_ASSERT_EQUAL (b.nodes[1].excl[0], 9);
  CU_ASSERT_EQUAL (b.nodes[1].nleaves, 0);
  ppc_free (&b);
  free (buf);
  /* a leaf record in a version 3 file is not one of its records */
  const char *v3leaf = "ppgcc-context-profile 3\nruns 1\nkind cct\n"
                       "metrics 1\n"
                       "metric \"samples\" \"timer\" \"samples\" 0 0 1\n"
                       "functions 1\n"
                       "fn 0 \"prog+0x1130\" 0 64 0 \"\" \"\"\n"
                       "nodes 2\nnode 0 - - \"\" 0 0 0 0\n"
                       "node 1 0 0 \"\" 0 0 0 9\nleaf 4 9\n";
  n3 = strlen (v3leaf);
  buf = malloc (n3 + 64);
  memcpy (buf, v3leaf, n3);
  snprintf (buf + n3, 64, "end 11 %016llx\n",
            (unsigned long long) pp_sum64_lanes (v3leaf, n3));
  expect_reject (buf, strlen (buf), "line 11: more records than counted");
  free (buf);
}

/* Units that differ, a tree and a flat profile, more than
   PPC_MAX_METRICS in all: refused, INTO unchanged.  */
static void
test_merge_refused (void)
{
  ppc_profile a, b;
  sample_profile (&a);
  size_t len0, len1;
  char *before = encode (&a, &len0);
  const char *why = NULL;

  sample_profile (&b);
  free (b.metrics[0].unit);
  b.metrics[0].unit = strdup ("ns");
  CU_ASSERT_EQUAL (ppc_merge (&a, &b, &why), -1);
  CU_ASSERT_STRING_EQUAL (why, "metric 'cycles' in ticks here and in ns "
                               "there");
  ppc_free (&b);

  sample_profile (&b);
  b.cct = 0;
  CU_ASSERT_EQUAL (ppc_merge (&a, &b, &why), -1);
  ppc_free (&b);

  /* 2 + 7 metrics.  */
  init_profile (&b, 1, 0);
  b.nmetrics = 7;
  for (uint32_t m = 0; m < 7; m++)
    {
      char name[8];
      snprintf (name, sizeof name, "m%u", m);
      b.metrics[m].name = strdup (name);
      b.metrics[m].source = strdup ("tsc");
      b.metrics[m].unit = strdup ("ticks");
      b.metrics[m].runs = 1;
    }
  CU_ASSERT_EQUAL (ppc_merge (&a, &b, &why), -1);
  CU_ASSERT_STRING_EQUAL (why, "more than 8 metrics in all (programs built "
                               "with other -fprofile-paths-metric lists)");
  ppc_free (&b);

  char *after = encode (&a, &len1);
  CU_ASSERT (len0 == len1 && memcmp (before, after, len0) == 0);
  free (after);

  /* An unavailable metric takes the unit of the runs that measured.  */
  sample_profile (&b);
  free (a.metrics[0].source);
  a.metrics[0].source = strdup ("unavailable");
  free (b.metrics[0].unit);
  b.metrics[0].unit = strdup ("ns");
  CU_ASSERT_EQUAL (ppc_merge (&a, &b, &why), 0);
  CU_ASSERT_STRING_EQUAL (a.metrics[0].unit, "ns");
  CU_ASSERT_STRING_EQUAL (a.metrics[0].source, "unavailable,tsc");
  ppc_free (&b);
  free (before);
  ppc_free (&a);
}

static void
test_truncated (void)
{
  ppc_profile p;
  sample_profile (&p);
  size_t len;
  char *buf = encode (&p, &len);
  ppc_free (&p);
  /* Every prefix is refused, with a reason that names a line.  */
  int accepted = 0, unnamed = 0;
  for (size_t n = 0; n < len; n++)
    {
      ppc_profile q;
      const char *why = NULL;
      if (ppc_decode (buf, n, &q, &why) == 0)
        {
          accepted++;
          ppc_free (&q);
        }
      else if (n > 0 && !strstr (why, "line"))
        unnamed++;
    }
  CU_ASSERT_EQUAL (accepted, 0);
  CU_ASSERT_EQUAL (unnamed, 0);
  expect_reject (buf, 0, "empty file");
  expect_reject (buf, 5, "truncated at line 1");
  expect_reject (buf, len - 1, "truncated at line 19");
  /* Cut at a line end: the last line left is no end line.  */
  size_t cut = (size_t) (strstr (buf, "\npath") - buf) + 1;
  expect_reject (buf, cut, "truncated after line 13 (no end line)");
  /* Bytes after the end line.  */
  char *longer = malloc (len + 4);
  memcpy (longer, buf, len);
  memcpy (longer + len, "x\n", 2);
  expect_reject (longer, len + 2, "truncated after line 20 (no end line)");
  free (longer);
  free (buf);
}

static void
test_corrupted (void)
{
  ppc_profile p;
  sample_profile (&p);
  size_t len;
  char *buf = encode (&p, &len);
  ppc_free (&p);
  char *calls = strstr (buf, "\"prog+0x10\" 5 2");
  CU_ASSERT_PTR_NOT_NULL_FATAL (calls);
  calls[12] = '6'; /* a count changed: only the checksum sees it */
  expect_reject (buf, len, "checksum mismatch (corrupted)");
  calls[12] = 'x'; /* no longer a number: the line is named */
  expect_reject (buf, len,
                 "corrupted (checksum mismatch): line 15: expected a number");
  calls[12] = '5';
  /* A line lost.  */
  char *path = strstr (buf, "\npath 6");
  char *nl = strchr (path + 1, '\n');
  memmove (path, nl, len - (size_t) (nl - buf));
  expect_reject (buf, len - (size_t) (nl - path),
                 "line 18: the end line counts 18 lines before it, the file "
                 "has 17 (lines lost or added)");
  free (buf);

  expect_reject ("PPD\x01", 4, "not a ppgcc context profile");
  const char *v5 = "ppgcc-context-profile 5\nend 1 0\n";
  expect_reject (v5, strlen (v5),
                 "context profile format version 5 not supported by this "
                 "ppgcc (it reads versions 1 to 4)");
}

/* Every number reads back as written, at each digit count: the writer
   puts two digits per division.  */
static void
test_numbers_round_trip (void)
{
  ppc_profile p;
  init_profile (&p, 1, 1);
  uint32_t f = add_fn (&p, "f", 1, "m");
  p.fns[f].num_paths = 0; /* any id */
  uint32_t n = add_node (&p, 0, f, "s", UINT64_MAX, 0, 0);
  uint64_t want[64];
  int k = 0;
  uint64_t pow10 = 1;
  for (int d = 0; d < 20; d++, pow10 *= 10)
    {
      if (d)
        want[k++] = pow10 - 1;
      want[k++] = pow10;
      want[k++] = pow10 + 1;
    }
  want[k++] = UINT64_MAX;
  for (int i = 0; i < k; i++)
    add_path (&p, n, (uint64_t) i, want[i], want[k - 1 - i], 0);
  size_t len;
  char *buf = encode (&p, &len);
  CU_ASSERT_FATAL (buf != NULL);
  static const char last[] = "\npath 59 18446744073709551615 1\n";
  CU_ASSERT_PTR_NOT_NULL (memmem (buf, len, last, sizeof last - 1));
  ppc_profile q;
  const char *why;
  CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL_FATAL (q.nodes[1].npaths, (uint64_t) k);
  for (int i = 0; i < k; i++)
    {
      CU_ASSERT_EQUAL (q.nodes[1].paths[i].count, want[i]);
      CU_ASSERT_EQUAL (q.nodes[1].paths[i].metric[0], want[k - 1 - i]);
    }
  CU_ASSERT_EQUAL (q.nodes[1].calls, UINT64_MAX);
  ppc_free (&q);
  ppc_free (&p);
  free (buf);
}

/* Every byte value in a string field: escaped as the format says
   (doc/ppc-format.md) and read back as it was, a NUL included.  */
static void
test_all_bytes (void)
{
  ppc_profile p;
  init_profile (&p, 1, 1);
  uint32_t f = add_fn (&p, "f", 1, "m");
  char meta[512];
  for (int i = 0; i < 512; i++)
    meta[i] = (char) (i & 255);
  free (p.fns[f].meta);
  p.fns[f].meta = malloc (sizeof meta + 1);
  memcpy (p.fns[f].meta, meta, sizeof meta);
  p.fns[f].meta[sizeof meta] = 0;
  p.fns[f].meta_len = sizeof meta;
  size_t len;
  char *buf = encode (&p, &len);
  CU_ASSERT_FATAL (buf != NULL);
  static const char *const want[] = {
    "\\x00\\x01", "\\x08\\t\\n\\x0b\\x0c\\r\\x0e", " !\\\"#",
    "[\\\\]", "}~\\x7f\\x80", "\\xfe\\xff\\x00"
  };
  for (size_t k = 0; k < sizeof want / sizeof *want; k++)
    CU_ASSERT_PTR_NOT_NULL (memmem (buf, len, want[k], strlen (want[k])));
  ppc_profile q;
  const char *why;
  CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL_FATAL (q.fns[0].meta_len, sizeof meta);
  CU_ASSERT_EQUAL (memcmp (q.fns[0].meta, meta, sizeof meta), 0);
  ppc_free (&q);
  ppc_free (&p);
  free (buf);
}

/* Versions 1 and 2 are sealed with FNV-1a, version 3 with
   pp_sum64_lanes (test_ppd.c checks that one against its definition):
   each file is read with its own version's checksum, never the other.  */
static void
test_checksum_by_version (void)
{
  static const char body[] = "runs 1\nkind cct\nmetrics 0\nfunctions 0\n"
                             "nodes 1\nnode 0 - - \"\" 0 0 0\n";
  for (int version = 2; version <= 3; version++)
    {
      char text[256];
      snprintf (text, sizeof text, "ppgcc-context-profile %d\n%s", version,
                body);
      size_t len;
      char *fnv = seal (text, &len);
      char *lanes = malloc (len + 1);
      CU_ASSERT_FATAL (lanes != NULL);
      unsigned lines = 0;
      for (const char *c = text; *c; c++)
        lines += *c == '\n';
      snprintf (lanes, len + 1, "%send %u %016llx\n", text, lines,
                (unsigned long long) pp_sum64_lanes (text, strlen (text)));
      ppc_profile q;
      const char *why;
      int fnv_ok = ppc_decode (fnv, len, &q, &why) == 0;
      if (fnv_ok)
        ppc_free (&q);
      int lanes_ok = ppc_decode (lanes, strlen (lanes), &q, &why) == 0;
      if (lanes_ok)
        {
          CU_ASSERT_EQUAL (q.nnodes, 1);
          ppc_free (&q);
        }
      else
        CU_ASSERT_STRING_EQUAL (why, "checksum mismatch (corrupted)");
      CU_ASSERT_EQUAL (fnv_ok, version < 3);
      CU_ASSERT_EQUAL (lanes_ok, version >= 3);
      free (fnv);
      free (lanes);
    }
}

static void
test_malformed (void)
{
  ppc_profile q;
  const char *why;
  size_t len;
  char *ok = seal (HEAD "functions 0\nnodes 0\n", &len);
  CU_ASSERT_EQUAL (ppc_decode (ok, len, &q, &why), 0);
  ppc_free (&q);
  free (ok);
#define FN "functions 1\nfn 0 \"f\" 1 0 4 \"t.c\" \"\"\n"
#define ROOT "node 0 - - \"\" 0 0 0\n"
  expect_sealed_reject (HEAD FN "nodes 2\n" ROOT "node 1 1 0 \"\" 1 0 0\n",
                        "line 9: node's parent or function out of range");
  expect_sealed_reject (HEAD FN "nodes 2\n" ROOT "node 1 0 1 \"\" 1 0 0\n",
                        "line 9: node's parent or function out of range");
  expect_sealed_reject (HEAD FN "nodes 1\nnode 0 - 0 \"\" 0 0 0\n",
                        "line 8: node 0 is not the root");
  expect_sealed_reject (HEAD FN "nodes 2\n" ROOT "node 1 0 0 \"\" 1 0 2\n"
                                "path 3 1\npath 2 1\n",
                        "line 11: path ids not ascending");
  expect_sealed_reject (HEAD FN "nodes 2\n" ROOT "node 1 0 0 \"\" 1 0 1\n"
                                "path 4 1\n",
                        "line 10: path id out of range");
  expect_sealed_reject (HEAD FN "nodes 2\n" ROOT "node 1 0 0 \"\" 1 0 9\n"
                                "path 1 1\n",
                        "line 9: count larger than the file");
  expect_sealed_reject (HEAD FN "nodes 3\n" ROOT,
                        "line 7: count larger than the file");
  expect_sealed_reject (HEAD FN "nodes 1\n" ROOT "path 1 1\n",
                        "line 9: more records than counted");
  expect_sealed_reject (HEAD FN "nodes 1\n" ROOT " \n",
                        "line 9: more records than counted");
  expect_sealed_reject (HEAD "functions 1\nfn 0 \"f\\q\" 1 0 4 \"\" \"\"\n",
                        "line 6: bad escape in a string");
  expect_sealed_reject (HEAD "functions 1\nfn 0 \"f\" 1 0 4 \"\" \"\n",
                        "line 6: unterminated string");
  expect_sealed_reject (HEAD "functions 1\nfn 0 \"f\" 4294967296 0 4 \"\" "
                             "\"\"\n",
                        "line 6: number out of range");
  expect_sealed_reject (HEAD "functions 1\nfn 0 \"f\" 1 0 4 \"\" \"\" 5\n",
                        "line 6: extra fields");
  expect_sealed_reject (HEAD "functions 1\nfn 1 \"f\" 1 0 4 \"\" \"\"\n",
                        "line 6: functions out of order");
  expect_sealed_reject (HEAD "nodes 0\n", "line 5: unexpected record");
  expect_sealed_reject ("ppgcc-context-profile 1\nruns 1\nkind tree\n",
                        "line 3: kind is neither cct nor flat");
  expect_sealed_reject ("ppgcc-context-profile 1\nruns 1\nkind cct\n"
                        "metrics 2\nmetric \"c\" \"tsc\" \"ticks\" 1 2\n"
                        "metric \"c\" \"tsc\" \"ticks\" 1 2\n",
                        "line 6: metric named twice");
  expect_sealed_reject ("ppgcc-context-profile 1\nruns 1\nkind cct\n"
                        "metrics 1\nmetric \"c\" \"tsc\" \"ticks\" 1,5 2\n",
                        "line 5: expected a decimal number");
  expect_sealed_reject ("ppgcc-context-profile 1\nruns 1\nkind cct\n"
                        "metrics 9\n",
                        "line 4: too many metrics");
  expect_sealed_reject ("ppgcc-context-profile 1\nruns 1\n",
                        "line 3: missing records (fewer lines than counted)");
#undef FN
#undef ROOT
}

/* Whether the LEN bytes at BUF (no terminating NUL) contain S.  */
static int
contains (const char *buf, size_t len, const char *s)
{
  size_t n = strlen (s);
  for (size_t i = 0; i + n <= len; i++)
    if (!memcmp (buf + i, s, n))
      return 1;
  return 0;
}

static void
add_object (ppc_profile *p, const char *name, const char *path,
            const char *id)
{
  p->objects = realloc (p->objects, (p->nobjects + 1) * sizeof *p->objects);
  p->objects[p->nobjects++]
      = (ppc_object){ strdup (name), strdup (path), strdup (id) };
}

/* The objects of the call sites: optional records after the nodes, read
   back as written; a file without them (before they existed) reads with
   none; a merge keeps one per name, the later one's path and build id.  */
static void
test_objects (void)
{
  ppc_profile p, q;
  const char *why;
  size_t len;
  sample_profile (&p);
  add_object (&p, "prog", "/home/me/dir with space/prog", "0a1b");
  add_object (&p, "libx.so", "/usr/lib/libx.so", "");
  char *buf = encode (&p, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL (buf);
  CU_ASSERT (contains (buf, len, "\nobjects 2\nobject \"prog\" "
                      "\"/home/me/dir with space/prog\" \"0a1b\"\n"
                      "object \"libx.so\" \"/usr/lib/libx.so\" \"\"\nend "));
  CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL_FATAL (q.nobjects, 2);
  CU_ASSERT_STRING_EQUAL (q.objects[0].name, "prog");
  CU_ASSERT_STRING_EQUAL (q.objects[0].path, "/home/me/dir with space/prog");
  CU_ASSERT_STRING_EQUAL (q.objects[0].build_id, "0a1b");
  CU_ASSERT_STRING_EQUAL (q.objects[1].build_id, "");
  CU_ASSERT_EQUAL (q.nnodes, p.nnodes);
  free (buf);

  /* merged with a later run of a rebuilt prog and another object */
  ppc_profile r;
  sample_profile (&r);
  add_object (&r, "prog", "/elsewhere/prog", "ffff");
  add_object (&r, "liby.so", "/usr/lib/liby.so", "01");
  CU_ASSERT_EQUAL_FATAL (ppc_merge (&q, &r, &why), 0);
  CU_ASSERT_EQUAL_FATAL (q.nobjects, 3);
  CU_ASSERT_STRING_EQUAL (q.objects[0].path, "/elsewhere/prog");
  CU_ASSERT_STRING_EQUAL (q.objects[0].build_id, "ffff");
  CU_ASSERT_STRING_EQUAL (q.objects[1].name, "libx.so");
  CU_ASSERT_STRING_EQUAL (q.objects[2].name, "liby.so");
  ppc_free (&q);
  ppc_free (&r);

  /* without objects, nothing is written: the file is as before */
  ppc_free (&p);
  sample_profile (&p);
  buf = encode (&p, &len);
  CU_ASSERT (!contains (buf, len, "objects"));
  CU_ASSERT_EQUAL_FATAL (ppc_decode (buf, len, &q, &why), 0);
  CU_ASSERT_EQUAL (q.nobjects, 0);
  CU_ASSERT_PTR_NULL (q.objects);
  ppc_free (&q);
  ppc_free (&p);
  free (buf);

#define FN "functions 1\nfn 0 \"f\" 1 0 4 \"t.c\" \"\"\n"
#define NODES "nodes 2\nnode 0 - - \"\" 0 0 0\nnode 1 0 0 \"p+0x5\" 1 0 0\n"
  expect_sealed_reject (HEAD FN NODES "objects 2\nobject \"p\" \"/p\" \"\"\n"
                        "object \"p\" \"/q\" \"\"\n",
                        "line 12: object named twice");
  expect_sealed_reject (HEAD FN NODES "objects 1\nobject \"p\" \"/p\"\n",
                        "line 11: missing field");
  expect_sealed_reject (HEAD FN NODES "objects 1\n",
                        "line 10: count larger than the file");
#undef FN
#undef NODES
}

void
pp_add_ppc_tests (void)
{
  CU_pSuite s = CU_add_suite ("ppc codec", NULL, NULL);
  CU_add_test (s, "round trip", test_round_trip);
  CU_add_test (s, "costs under another locale", test_locale);
  CU_add_test (s, "files", test_files);
  CU_add_test (s, "merge: contexts, recursion, saturation", test_merge);
  CU_add_test (s, "merge as text: the long way's bytes", test_merge_text);
  CU_add_test (s, "merge as text: what it declines",
               test_merge_text_declines);
  CU_add_test (s, "merge: a function in several CFG versions",
               test_merge_versions);
  CU_add_test (s, "merge: a dropped version's subtree",
               test_merge_versions_subtree);
  CU_add_test (s, "merge: other metric lists", test_merge_metric_lists);
  CU_add_test (s, "version 1 files", test_version_1);
  CU_add_test (s, "leaf PCs of sampled profiles (version 4)", test_leaves);
  CU_add_test (s, "merge: refused when units or kinds differ",
               test_merge_refused);
  CU_add_test (s, "truncated files", test_truncated);
  CU_add_test (s, "corrupted files", test_corrupted);
  CU_add_test (s, "malformed files", test_malformed);
  CU_add_test (s, "objects of the call sites", test_objects);
  CU_add_test (s, "the checksum by format version", test_checksum_by_version);
  CU_add_test (s, "numbers of every digit count", test_numbers_round_trip);
  CU_add_test (s, "strings: every byte value", test_all_bytes);
}
