function navigateNow(url) {
  // Page console: navigate at once.
  location.href = url;
  return JSON.stringify(1);
}
