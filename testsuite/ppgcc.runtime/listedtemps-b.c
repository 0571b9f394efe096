/* listedtemps.exp's unit whose profile is written first.  */
int
half_or_triple (int x)
{
  if (x & 1)
    return x * 3;
  return x / 2;
}
