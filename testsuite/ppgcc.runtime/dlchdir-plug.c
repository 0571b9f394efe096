/* dlchdir.exp's shared object: of 0..9, 5 are even, 2 odd multiples of
   3 (3 and 9) and 3 other odd numbers (1, 5, 7).  */
int
plug (int n)
{
  int sum = 0;
  for (int i = 0; i < n; i++)
    {
      if (i % 2 == 0)
        sum += 1;
      else if (i % 3 == 0)
        sum += 10;
      else
        sum += 100;
    }
  return sum;
}
