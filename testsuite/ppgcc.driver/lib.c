/* A small library for the driver tests (shared, or a second source).  */
int
lib_answer (int x)
{
  if (x > 10)
    return x - 8;
  return x + 32;
}
