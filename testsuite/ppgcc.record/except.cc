// C++ exceptions and pthread_exit through frames the trampoline may
// mark (csprof §2.4.1): the unwinder cannot walk through the
// trampoline, so the sampler takes its mark out at _Unwind_RaiseException
// and _Unwind_Resume and puts none until __cxa_begin_catch; a sample
// in a destructor run by the unwinding must not leave a mark that the
// next _Unwind_Resume meets (it aborted).  Short destructors and bottoms:
// much of the time is in the unwinder itself, where a mark put would be
// met (without the guard, 5 runs in 6 aborted).  backtrace sees the
// frames it would without the sampler.  The output must be the plain
// run's.
#include <cstdio>
#include <cstdlib>
#include <execinfo.h>
#include <pthread.h>
#include <stdexcept>

volatile unsigned long sink;
static long frames;

__attribute__ ((noipa)) unsigned long
spin (long n)
{
  unsigned long x = sink;
  for (long i = 0; i < n; i++)
    x = x * 6364136223846793005ul + 1442695040888963407ul;
  sink = x;
  return x;
}

struct D
{
  ~D () { spin (2000); }
};

__attribute__ ((noipa)) int
deep (int d, long n)
{
  D guard;
  if (d == 0)
    {
      spin (n);
      throw std::runtime_error ("bottom");
    }
  int r = deep (d - 1, n);
  spin (n / 100);
  return r + 1;
}

__attribute__ ((noipa)) void
bt (void)
{
  void *b[64];
  frames += backtrace (b, 64);
}

__attribute__ ((noipa)) void
texit (int d, long n)
{
  D guard;
  if (d == 0)
    {
      spin (n);
      pthread_exit (nullptr);
    }
  texit (d - 1, n);
  sink++;
}

static void *
thread (void *)
{
  texit (20, 200000);
  return nullptr;
}

int
main (int argc, char **argv)
{
  long iters = argc > 1 ? atol (argv[1]) : 3000;
  long caught = 0;
  for (long i = 0; i < iters; i++)
    {
      try
        {
          deep (40, 20000);
        }
      catch (const std::exception &e)
        {
          caught += e.what ()[0] == 'b';
        }
      bt ();
    }
  for (int k = 0; k < 20; k++)
    {
      pthread_t t;
      pthread_create (&t, nullptr, thread, nullptr);
      pthread_join (t, nullptr);
    }
  std::printf ("caught %ld frames %ld\n", caught, frames);
  return 0;
}
