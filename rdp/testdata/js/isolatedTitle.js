function isolatedTitle(innerWindowID) {
  // Content-process console: the title as the Xray view of the page sees it.
  const w = Services.wm.getCurrentInnerWindowWithId(innerWindowID);
  return JSON.stringify(w.document.title);
}
