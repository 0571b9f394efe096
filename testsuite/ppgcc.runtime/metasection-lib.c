/* metasection.exp's shared library: 34 multiples of 3 in 0..99, 33 odd
   and 33 even numbers among the rest.  */
int
classify (int x)
{
  if (x % 3 == 0)
    return 0;
  if (x % 2)
    return 1;
  return 2;
}
