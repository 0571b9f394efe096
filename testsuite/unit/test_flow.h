/* CUnit tests of profile inference (lib/flow_infer.c).  */
#ifndef PP_TEST_FLOW_H
#define PP_TEST_FLOW_H

/* Adds the suite "profile inference" to the current CUnit registry.  */
void pp_add_flow_tests (void);

#endif
