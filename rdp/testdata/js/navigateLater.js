function navigateLater(url) {
  // Page console: navigate on the next tick, so this evaluation still answers.
  setTimeout(() => { location.href = url; }, 0);
  return JSON.stringify(1);
}
