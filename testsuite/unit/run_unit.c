/* The CUnit runner for `make check`: every suite of the unit tests, or
   (`run_unit SUITE [TEST]`, names as its output prints them) one suite
   or one test of it.  */
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

/* Runs what ARGV names (nothing: every suite).  Returns 2 after one line
   when a name is not there.  */
static int
run_named (int argc, char **argv)
{
  if (argc < 2)
    return CU_basic_run_tests () == CUE_SUCCESS ? 0 : 2;
  CU_pSuite suite = CU_get_suite (argv[1]);
  if (!suite)
    {
      fprintf (stderr, "run_unit: no suite '%s'\n", argv[1]);
      return 2;
    }
  if (argc < 3)
    return CU_basic_run_suite (suite) == CUE_SUCCESS ? 0 : 2;
  CU_pTest test = CU_get_test (suite, argv[2]);
  if (!test)
    {
      fprintf (stderr, "run_unit: no test '%s' in suite '%s'\n", argv[2],
               argv[1]);
      return 2;
    }
  return CU_basic_run_test (suite, test) == CUE_SUCCESS ? 0 : 2;
}

int
main (int argc, char **argv)
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
  if (run_named (argc, argv) != 0)
    {
      CU_cleanup_registry ();
      return 2;
    }
  unsigned failed = CU_get_number_of_failures ()
                    + CU_get_number_of_tests_failed ();
  CU_pRunSummary sum = CU_get_run_summary ();
  int bad = failed != 0 || sum->nTestsRun == 0;
  CU_cleanup_registry ();
  return bad ? 1 : 0;
}
