function closeTab(id) {
  // Parent-process console: closes the tab whose browser has browserId id.
  const b = [...gBrowser.browsers].find(b => b.browserId == id);
  if (!b) return JSON.stringify("missing");
  gBrowser.removeTab(gBrowser.getTabForBrowser(b), {animate: false});
  return JSON.stringify("closed");
}
