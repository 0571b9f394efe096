/* CUnit tests of supergraphs and their composed interesting paths
   (ipp/supergraph.c, ipp/compose.c).  */
#ifndef PP_TEST_IPP_H
#define PP_TEST_IPP_H

/* Adds the suite "ipp" to the current CUnit registry.  */
void pp_add_ipp_tests (void);

#endif
