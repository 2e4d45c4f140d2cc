async function settle(win, args, lib, env) {
  // Waits until the page is quiet: no DOM mutation (document and its open shadow roots)
  // and none of the document's own requests in flight for args.quietMs in a row, or
  // args.capMs at most. Requests: in the isolated realm the document's load group
  // (fetch, XHR, images, scripts of this document: its requests still pending, counted
  // one by one, since fetch and XHR are background requests that activeCount leaves
  // out), which the page cannot see or fake; in the page realm only completions are
  // visible (resource timing entries), so a request still in flight counts as quiet
  // there. With args.change it waits instead for the first sign of change (a mutation,
  // a request ending), at most capMs: wait_for's pause between two checks.
  const doc = win.document;
  // The server always sends both (browser/observe.go has the figures).
  if (!(Number.isInteger(args.quietMs) && args.quietMs > 0 && Number.isInteger(args.capMs) && args.capMs >= 0)) {
    throw new Error("settle needs quietMs > 0 and capMs >= 0");
  }
  const quiet = args.quietMs;
  const capMs = args.capMs;
  const perf = win.performance;
  const now = () => perf.now();
  const start = now();
  let last = start;
  let mutations = 0;
  const mo = new win.MutationObserver((recs) => {
    mutations += recs.length;
    last = now();
  });
  const opts = {subtree: true, childList: true, attributes: true, characterData: true};
  mo.observe(doc, opts);
  const all = doc.querySelectorAll("*");
  for (let i = 0; i < all.length; i++) {
    const r = all[i].shadowRoot;
    if (r) mo.observe(r, opts);
  }
  let group = null;
  if (env.realm === "isolated") {
    try {
      group = doc.documentLoadGroup || null;
    } catch (e) {
      group = null;
    }
  }
  let entries = typeof perf.getEntriesByType === "function" ? perf.getEntriesByType("resource").length : 0;
  const requests = () => {
    if (group) {
      try {
        let n = 0;
        for (const r of group.requests) {
          if (r.isPending()) n++;
        }
        return n;
      } catch (e) {
        group = null;
      }
    }
    if (typeof perf.getEntriesByType === "function") {
      const n = perf.getEntriesByType("resource").length;
      if (n !== entries) {
        entries = n;
        last = now();
      }
    }
    return 0;
  };
  let timer = null;
  if (env.realm === "isolated") timer = env.Cc["@mozilla.org/timer;1"].createInstance(env.Ci.nsITimer);
  const sleep = (ms) => new Promise((resolve) => {
    if (timer) timer.initWithCallback({notify: () => resolve()}, ms, env.Ci.nsITimer.TYPE_ONE_SHOT);
    else win.setTimeout(resolve, ms);
  });
  const tick = Math.max(5, Math.min(15, Math.floor(quiet / 3)));
  let pending = 0;
  let met = false;
  let before = -1;
  try {
    for (;;) {
      const seen = last;
      pending = requests();
      if (args.change === true) {
        if (mutations > 0 || seen !== last || (before >= 0 && pending < before)) {
          met = true;
          break;
        }
        before = pending;
      }
      if (pending > 0) last = now();
      const t = now();
      if (args.change !== true && t - last >= quiet) {
        met = true;
        break;
      }
      if (t - start >= capMs) break;
      await sleep(Math.max(1, Math.min(tick, quiet - (t - last), capMs - (t - start))));
      if (mo.takeRecords().length > 0) {
        mutations++;
        last = now();
      }
    }
  } finally {
    mo.disconnect();
    if (timer) timer.cancel();
  }
  // The address when the wait ended: the action's caller reads it anyway.
  return {quiet: met, waitedMs: Math.round(now() - start), mutations, pending, requests: group !== null, url: String(win.location.href)};
}
