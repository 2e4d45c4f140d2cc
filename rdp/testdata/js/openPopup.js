function (arg) {
  // Content-process console: window.open from the page's window (a popup in its
  // browsing context group, so in its process), as a click handler would.
  const w = Services.wm.getCurrentInnerWindowWithId(arg.innerWindowID);
  return JSON.stringify(!!w.open(arg.url, "popup"));
}
