/* The CUnit runner for `make check`: every suite of the unit tests.  */
#include "test_core.h"
#include "test_ipp.h"
#ifdef HAVE_SPEC_TESTS
#include "test_spec.h"
#endif
#ifdef HAVE_PPD_TESTS
#include "test_ppd.h"
#include "test_derive.h"
#endif
#ifdef HAVE_PPC_TESTS
#include "test_ppc.h"
#endif

#include <CUnit/Basic.h>
#include <stdio.h>

int
main (void)
{
  if (CU_initialize_registry () != CUE_SUCCESS)
    return 2;
  pp_add_core_tests ();
  pp_add_ipp_tests ();
#ifdef HAVE_SPEC_TESTS
  pp_add_spec_tests ();
#endif
#ifdef HAVE_PPD_TESTS
  pp_add_ppd_tests ();
  pp_add_derive_tests ();
#endif
#ifdef HAVE_PPC_TESTS
  pp_add_ppc_tests ();
#endif
  CU_basic_set_mode (CU_BRM_VERBOSE);
  CU_basic_run_tests ();
  unsigned failed = CU_get_number_of_failures ()
                    + CU_get_number_of_tests_failed ();
  CU_pRunSummary sum = CU_get_run_summary ();
  int bad = failed != 0 || sum->nTestsRun == 0;
  CU_cleanup_registry ();
  return bad ? 1 : 0;
}
