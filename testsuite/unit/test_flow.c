/* CUnit tests of profile inference (include/pp/flow_infer.h,
   lib/flow_infer.c): counts that conserve flow, the closest to noisy
   readings.  The oracle for random CFGs: walks from the entry to an
   exit, whose block and edge counts are a flow; read exactly, they must
   come back unchanged; read with noise, the result must still conserve
   flow.  */
#include "test_flow.h"

#include "pp/flow_infer.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#define E(s, d) { s, d }

/* Every block's count is its in-flow (plus the entries, at ENTRY) and
   its out-flow (plus the exits, where it has no successor).  */
static int
conserves (int n, int entry, size_t ne, const pp_fi_edge *e,
           const int64_t *block, const int64_t *edge)
{
  for (int b = 0; b < n; b++)
    {
      int64_t in = 0, out = 0;
      int succ = 0, pred = 0;
      for (size_t k = 0; k < ne; k++)
        {
          if (edge[k] < 0)
            return 0;
          if (e[k].src == b)
            out += edge[k], succ++;
          if (e[k].dst == b)
            in += edge[k], pred++;
        }
      if (succ && out != block[b])
        return 0;
      if (b != entry && pred && in != block[b])
        return 0;
      if (b == entry && in > block[b])
        return 0;
    }
  return 1;
}

/* a -> b|c -> d, read as a consistent profile: kept as read */
static void
test_flow_consistent (void)
{
  const pp_fi_edge e[] = { E (0, 1), E (0, 2), E (1, 3), E (2, 3) };
  const int64_t r[] = { 100, 60, 40, 100 };
  int64_t b[4], f[4];
  CU_ASSERT_EQUAL_FATAL (pp_flow_infer (4, 0, r, NULL, 4, e, b, f), 0);
  CU_ASSERT_EQUAL (b[0], 100);
  CU_ASSERT_EQUAL (b[1], 60);
  CU_ASSERT_EQUAL (b[2], 40);
  CU_ASSERT_EQUAL (b[3], 100);
  CU_ASSERT_EQUAL (f[0], 60);
  CU_ASSERT_EQUAL (f[1], 40);
  CU_ASSERT (conserves (4, 0, 4, e, b, f));
}

/* A straight line read 100, 50, 100: raising the middle (50 units at
   10) costs less than lowering both ends (at 10 and 20).  A block
   without a reading and one read zero between two read 100 take 100.  */
static void
test_flow_chain (void)
{
  const pp_fi_edge e[] = { E (0, 1), E (1, 2), E (2, 3), E (3, 4) };
  const int64_t r[] = { 100, 50, 100, -1, 0 };
  const int64_t r2[] = { 100, -1, 0, 100, 100 };
  int64_t b[5], f[4];
  CU_ASSERT_EQUAL_FATAL (pp_flow_infer (5, 0, r, NULL, 4, e, b, f), 0);
  CU_ASSERT_EQUAL (b[0], 100);
  CU_ASSERT_EQUAL (b[1], 100);
  CU_ASSERT_EQUAL (b[2], 100);
  /* the tail after a block read 100 read unknown and zero: lowering the
     whole function to nothing would cost more than raising the zero */
  CU_ASSERT_EQUAL (b[3], 100);
  CU_ASSERT_EQUAL (b[4], 100);
  CU_ASSERT_EQUAL_FATAL (pp_flow_infer (5, 0, r2, NULL, 4, e, b, f), 0);
  for (int k = 0; k < 5; k++)
    CU_ASSERT_EQUAL (b[k], 100);
}

/* A loop: entry 0 (read 10) -> header 1 (1000) -> body 2 -> 1, 1 -> exit
   3 (10).  The body read 500 is raised to 990 (490 units at 10), not the
   header lowered to 510 (at 20).  */
static void
test_flow_loop (void)
{
  const pp_fi_edge e[] = { E (0, 1), E (1, 2), E (2, 1), E (1, 3) };
  const int64_t r[] = { 10, 1000, 500, 10 };
  int64_t b[4], f[4];
  CU_ASSERT_EQUAL_FATAL (pp_flow_infer (4, 0, r, NULL, 4, e, b, f), 0);
  CU_ASSERT_EQUAL (b[0], 10);
  CU_ASSERT_EQUAL (b[1], 1000);
  CU_ASSERT_EQUAL (b[2], 990);
  CU_ASSERT_EQUAL (b[3], 10);
  CU_ASSERT_EQUAL (f[2], 990);
  CU_ASSERT_EQUAL (f[3], 10);
  CU_ASSERT (conserves (4, 0, 4, e, b, f));
}

/* A block no path from the entry reaches counts nothing, whatever it
   read; edges out of range are left at 0; no blocks, nothing to do.  */
static void
test_flow_unreachable (void)
{
  const pp_fi_edge e[] = { E (0, 1), E (2, 1), E (1, 9) };
  const int64_t r[] = { 100, 100, 70 };
  int64_t b[3], f[3];
  CU_ASSERT_EQUAL_FATAL (pp_flow_infer (3, 0, r, NULL, 3, e, b, f), 0);
  CU_ASSERT_EQUAL (b[0], 100);
  CU_ASSERT_EQUAL (b[1], 100);
  CU_ASSERT_EQUAL (b[2], 0);
  CU_ASSERT_EQUAL (f[1], 0);
  CU_ASSERT_EQUAL (f[2], 0);
  CU_ASSERT_EQUAL (pp_flow_infer (0, 0, r, NULL, 0, e, b, f), 0);
}

/* Random CFGs: each block has one or two successors (a forward one, so
   that every walk can end, and sometimes one back: loops); walks from
   block 0 to the last block.  */
static void
test_flow_random (void)
{
  unsigned seed = 12345;
  for (int trial = 0; trial < 200; trial++)
    {
      seed = seed * 1103515245u + 12345u;
      int n = 3 + (int) (seed >> 16) % 30;
      pp_fi_edge e[64];
      int64_t truth[32] = { 0 }, f_truth[64] = { 0 }, r[32], b[32], f[64];
      size_t ne = 0;
      for (int v = 0; v < n - 1; v++)
        {
          seed = seed * 1103515245u + 12345u;
          e[ne++] = (pp_fi_edge){ v, v + 1 + (int) ((seed >> 16) % (unsigned) (n - 1 - v)) };
          seed = seed * 1103515245u + 12345u;
          if ((seed >> 16) % 3 == 0)
            e[ne++] = (pp_fi_edge){ v, (int) ((seed >> 8) % (unsigned) n) };
        }
      for (int walk = 0; walk < 300; walk++)
        {
          int v = 0;
          truth[0]++;
          for (int steps = 0; v != n - 1 && steps < 10000; steps++)
            {
              size_t opts[2], no = 0;
              for (size_t k = 0; k < ne; k++)
                if (e[k].src == v)
                  opts[no++] = k;
              seed = seed * 1103515245u + 12345u;
              /* the forward edge (listed first) three times in four */
              size_t k = no == 2 && (seed >> 16) % 4 == 0 ? opts[1] : opts[0];
              if (e[k].dst <= v && steps > 5000)
                k = opts[0];
              f_truth[k]++;
              v = e[k].dst;
              truth[v]++;
            }
        }
      CU_ASSERT_EQUAL_FATAL (pp_flow_infer (n, 0, truth, NULL, ne, e, b, f), 0);
      int same = 1;
      for (int v = 0; v < n; v++)
        same &= b[v] == truth[v];
      CU_ASSERT (same);
      CU_ASSERT (conserves (n, 0, ne, e, b, f));
      /* read with noise (each reading off by up to 50%, some missing):
         still a flow */
      for (int v = 0; v < n; v++)
        {
          seed = seed * 1103515245u + 12345u;
          unsigned x = (seed >> 16) % 101;
          r[v] = x < 10 ? -1 : truth[v] * (50 + (int64_t) x) / 100;
        }
      CU_ASSERT_EQUAL_FATAL (pp_flow_infer (n, 0, r, NULL, ne, e, b, f), 0);
      CU_ASSERT (conserves (n, 0, ne, e, b, f));
    }
}

void
pp_add_flow_tests (void)
{
  CU_pSuite s = CU_add_suite ("profile inference", NULL, NULL);
  CU_add_test (s, "consistent readings kept", test_flow_consistent);
  CU_add_test (s, "a line: raised, unknown and zero filled", test_flow_chain);
  CU_add_test (s, "a loop's body raised to its header", test_flow_loop);
  CU_add_test (s, "unreachable blocks, bad edges, no blocks",
               test_flow_unreachable);
  CU_add_test (s, "random CFGs: exact readings back, noisy ones a flow",
               test_flow_random);
}
