/* CUnit tests of supergraphs and their composed interesting paths
   (lib/ipp.c, lib/ipp_compose.c).  */
#ifndef PP_TEST_IPP_H
#define PP_TEST_IPP_H

/* Adds the suite "ipp" to the current CUnit registry.  */
void pp_add_ipp_tests (void);

#endif
