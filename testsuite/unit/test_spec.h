/* CUnit tests of the graph-language parser (lib/spec_*.{l,y,c}).  */
#ifndef PP_TEST_SPEC_H
#define PP_TEST_SPEC_H

/* Adds the suite "graph language" to the current CUnit registry.  */
void pp_add_spec_tests (void);

#endif
