/* CUnit tests of derived counts (lib/derive.c).  */
#ifndef PP_TEST_DERIVE_H
#define PP_TEST_DERIVE_H

/* Adds the suite "derived counts" to the current CUnit registry.  */
void pp_add_derive_tests (void);

#endif
