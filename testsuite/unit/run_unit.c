/* The CUnit runner for `make check`: every suite of the unit tests, or
   one suite or one test, by the names its output prints:
     run_unit SUITE          run_unit SUITE TEST
     run_unit TEST           run_unit SUITE:TEST
   (a test's name alone when one suite has a test of that name).  */
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
#include <string.h>

/* The test named NAME, its suite in *SUITE: the one of that name in any
   suite, else NAME is SUITE:TEST.  Null after one line on stderr when
   there is none, or when several suites have a test named NAME.  */
static CU_pTest
find_test (const char *name, CU_pSuite *suite)
{
  CU_pTest found = NULL;
  int n = 0;
  for (CU_pSuite s = CU_get_registry ()->pSuite; s; s = s->pNext)
    {
      CU_pTest t = CU_get_test (s, name);
      if (t && n++ == 0)
        {
          found = t;
          *suite = s;
        }
    }
  if (n > 1)
    {
      fprintf (stderr, "run_unit: %d suites have a test '%s': "
               "name one as SUITE:TEST\n", n, name);
      return NULL;
    }
  if (found)
    return found;
  /* No suite name holds a colon; test names may ("merge: ...").  */
  const char *colon = strchr (name, ':');
  if (colon)
    {
      char sname[256];
      size_t len = (size_t) (colon - name);
      if (len < sizeof sname)
        {
          memcpy (sname, name, len);
          sname[len] = '\0';
          CU_pSuite s = CU_get_suite (sname);
          CU_pTest t = s ? CU_get_test (s, colon + 1) : NULL;
          if (t)
            {
              *suite = s;
              return t;
            }
        }
    }
  fprintf (stderr, "run_unit: no suite or test '%s'\n", name);
  return NULL;
}

/* Runs what ARGV names (nothing: every suite).  Returns 2 after one line
   when a name is not there.  */
static int
run_named (int argc, char **argv)
{
  if (argc < 2)
    return CU_basic_run_tests () == CUE_SUCCESS ? 0 : 2;
  if (argc > 3)
    {
      fprintf (stderr, "usage: run_unit [SUITE [TEST] | TEST | SUITE:TEST]\n");
      return 2;
    }
  CU_pSuite suite = CU_get_suite (argv[1]);
  CU_pTest test = NULL;
  if (argc == 3)
    {
      if (!suite)
        {
          fprintf (stderr, "run_unit: no suite '%s'\n", argv[1]);
          return 2;
        }
      test = CU_get_test (suite, argv[2]);
      if (!test)
        {
          fprintf (stderr, "run_unit: no test '%s' in suite '%s'\n",
                   argv[2], argv[1]);
          return 2;
        }
    }
  else if (!suite && !(test = find_test (argv[1], &suite)))
    return 2;
  CU_ErrorCode e = test ? CU_basic_run_test (suite, test)
                        : CU_basic_run_suite (suite);
  return e == CUE_SUCCESS ? 0 : 2;
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
