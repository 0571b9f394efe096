// ppprof html names C++ functions demangled (htmlcct.exp): overloads,
// a static function, a template's const member.
#include <cstdio>

namespace ns
{
template <typename T> struct Box
{
  T v;
  T get () const { return v > 0 ? v : -v; }
};
}

static int
twice (int x)
{
  return 2 * x;
}

int
twice (double x)
{
  return (int) (x * 2);
}

int
main (int argc, char **)
{
  ns::Box<int> b{ argc - 3 };
  int s = 0;
  for (int i = 0; i < 5; i++)
    s += b.get () + twice (i) + twice (1.5);
  std::printf ("%d\n", s);
  return 0;
}
