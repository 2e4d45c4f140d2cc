async function loadState(win, args) {
  // What the server reports after a navigation: where the document came from (an error
  // page's documentURI is about:neterror?e=…, its location the URL that failed) and the
  // HTTP status of its response (0 when Firefox did not record one). With args.until
  // ("interactive" or "complete") and args.waitMs, it first waits (at most waitMs) for
  // the document to get that far, woken by its readystatechange: a navigation learns
  // the moment its document loaded without polling for it.
  const doc = win.document;
  const rank = {loading: 1, interactive: 2, complete: 3};
  const until = args && rank[args.until];
  const waitMs = args && Number.isInteger(args.waitMs) && args.waitMs > 0 ? Math.min(args.waitMs, 5000) : 0;
  if (until && waitMs > 0 && (rank[String(doc.readyState)] || 0) < until) {
    await new Promise((resolve) => {
      const done = () => {
        doc.removeEventListener("readystatechange", check);
        resolve();
      };
      const check = () => {
        if ((rank[String(doc.readyState)] || 0) >= until) done();
      };
      doc.addEventListener("readystatechange", check);
      win.setTimeout(done, waitMs);
    });
  }
  let status = 0;
  try {
    const nav = win.performance.getEntriesByType("navigation")[0];
    if (nav && typeof nav.responseStatus === "number") status = nav.responseStatus;
  } catch (e) {}
  return {url: String(win.location.href), documentURI: String(doc.documentURI), title: String(doc.title).replace(/\s+/g, " ").trim(), readyState: String(doc.readyState), status};
}
