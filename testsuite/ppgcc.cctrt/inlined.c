/* The counts of a leaf's bodies that GCC inlined into other functions
   (rt_abi.h __pp_fn_ext.inlined, plugin/context-lower.cc): the probes
   count flat in the leaf's array (its paths, then its calls), and each
   dump adds to the leaf's context under the root what the array gained
   since the last dump or reset.  Here main "inlines" leaf by hand: 4
   calls before a dump (paths 3 and 1), 5 discarded by __pp_reset, 2
   after (paths 0 and 2), and 1 call of leaf's own out-of-line body, a
   context of its own under main.  Two runs: twice the counts.  */
// runs: 2
// expect: runs 2 kind cct metrics 0
// expect: node main calls=2 rec=0 nctx=1 paths=0:2
// expect: node main/leaf calls=2 rec=0 nctx=1 paths=1:2
// expect: node leaf calls=12 rec=0 nctx=1 paths=0:6,1:6
#include "hand.h"
#include <stdio.h>

static uint64_t leaf_inlined[2 * (2 + 1)];
static const struct __pp_fn_ext leaf_ext = { .inlined = leaf_inlined };
HAND_DESC static struct __pp_fn_desc leaf_desc = {
  .name = "leaf", .cfg_checksum = 7, .flags = PP_FN_CCT, .num_paths = 2,
  .ext = &leaf_ext,
};
DESC_SITES (main, 1, 1);
UNIT (&main_desc, &leaf_desc)

static volatile int sink;

/* One inlined call of leaf taking path ID, as the lowered probes count
   it.  */
static void
inlined_leaf (int id)
{
  leaf_inlined[2]++;
  sink++;
  leaf_inlined[id]++;
}

NOINLINE static void
leaf (void)
{
  ENTER_LEAF (leaf);
  sink++;
  PATH (1);
}

int
main (void)
{
  ENTER_SLOT (main);
  for (int i = 0; i < 4; i++)
    inlined_leaf (i < 3 ? 1 : 0);
  __pp_dump ();
  for (int i = 0; i < 5; i++)
    inlined_leaf (1);
  __pp_reset ();
  inlined_leaf (0);
  inlined_leaf (0);
  SITE (0);
  leaf ();
  PATH (0);
  EXIT_SLOT ();
  printf ("%d\n", sink);
  return 0;
}
