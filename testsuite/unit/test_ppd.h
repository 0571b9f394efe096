/* CUnit tests of the .ppd codec (lib/ppd_*.c).  */
#ifndef PP_TEST_PPD_H
#define PP_TEST_PPD_H

/* Adds the suite "ppd codec" to the current CUnit registry.  */
void pp_add_ppd_tests (void);

#endif
