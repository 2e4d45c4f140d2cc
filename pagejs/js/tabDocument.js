function tabDocument(args, env) {
  // Parent process: what the tab with args.browserId shows, as the parent knows it.
  // loading: a load is under way in it. initial: its document is its browsing context's
  // initial about:blank, which Firefox's watcher never reports as a target (measured with
  // Firefox 153: a tab left by a redirect to file: shows one, with a null principal, for
  // good).
  for (const w of env.Services.wm.getEnumerator("navigator:browser")) {
    const gb = w.gBrowser;
    if (!gb) continue;
    for (const b of gb.browsers) {
      if (b.browserId !== args.browserId) continue;
      const wg = b.browsingContext ? b.browsingContext.currentWindowGlobal : null;
      return {found: true, loading: Boolean(b.webProgress && b.webProgress.isLoadingDocument), initial: Boolean(wg && wg.isInitialDocument)};
    }
  }
  return {found: false, loading: false, initial: false};
}
