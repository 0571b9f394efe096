/* sysheader.exp: "banana" has three a's in six letters.  */
#include "sysheader.h"

int
main (void)
{
  return count_a ("banana") != 3;
}
