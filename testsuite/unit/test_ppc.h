/* CUnit tests of the .ppc codec (lib/ppc_read.c, ppc_write.c, ppc_merge.c).  */
#ifndef PP_TEST_PPC_H
#define PP_TEST_PPC_H

/* Adds the suite "ppc codec" to the current CUnit registry.  */
void pp_add_ppc_tests (void);

#endif
