function repeat(a) {
  // A long string result: a.s repeated a.n times.
  return a.s.repeat(a.n);
}
