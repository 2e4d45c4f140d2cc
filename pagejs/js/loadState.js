function loadState(win, args) {
  // What the server reports after a navigation: where the document came from (an error
  // page's documentURI is about:neterror?e=…, its location the URL that failed) and the
  // HTTP status of its response (0 when Firefox did not record one).
  const doc = win.document;
  let status = 0;
  try {
    const nav = win.performance.getEntriesByType("navigation")[0];
    if (nav && typeof nav.responseStatus === "number") status = nav.responseStatus;
  } catch (e) {}
  return {url: String(win.location.href), documentURI: String(doc.documentURI), title: String(doc.title).replace(/\s+/g, " ").trim(), readyState: String(doc.readyState), status};
}
