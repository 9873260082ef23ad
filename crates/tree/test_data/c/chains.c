int f(int a, int b) {
  int x = a + b + a * b - 1, y;
  x = s.p->q[1].r(2)(3);
  if (a) x = 1; else if (b) x = 2; else if (x) x = 3; else x = 4;
  for (a = 0, b = 1, x = 2; a < b; a++) ;
  return x;
}
