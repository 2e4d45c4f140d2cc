function openTab(url) {
  // Parent-process console: a background tab on url; returns its browserId.
  const tab = gBrowser.addTab(url, {triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal()});
  return JSON.stringify(tab.linkedBrowser.browserId);
}
