// ppg++ (driver.exp): C++ with templates, the standard library and
// exceptions; 14 of the 100 calls of risky throw.
#include <cstdio>
#include <stdexcept>
#include <vector>
#include <map>
#include <string>
template <typename T> T clamp3 (T x) { if (x < 0) return 0; if (x > 3) return 3; return x; }
struct Acc { std::map<std::string, int> m; void add (const std::string &k) { m[k]++; } };
static int risky (int i) { if (i % 7 == 6) throw std::runtime_error ("six"); return i * 2; }
int main () {
  Acc a; std::vector<int> v; int caught = 0;
  for (int i = 0; i < 100; i++) {
    try { v.push_back (risky (i)); } catch (const std::exception &e) { caught++; }
    a.add (i % 3 ? "x" : "y");
  }
  long s = 0; for (int x : v) s += clamp3 (x - 100);
  std::printf ("%zu %d %ld %d %d\n", v.size (), caught, s, a.m["x"], a.m["y"]);
}
