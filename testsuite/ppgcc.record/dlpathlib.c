/* The library dlpath.c's programs load from their dlsub/ folder, only
   through their own search path: path_spin is where the time goes.  */
long
path_spin (long n)
{
  unsigned long s = 1;
  for (long i = 0; i < n; i++)
    s = s * 31 + (unsigned long) i;
  return (long) (s >> 1);
}
