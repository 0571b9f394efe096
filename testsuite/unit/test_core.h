#ifndef PP_TEST_CORE_H
#define PP_TEST_CORE_H
void pp_add_core_tests (void);
#endif
