async function downloads(args, env) {
  // Parent process: the downloads of Firefox's download manager (Downloads.sys.mjs, the
  // list the Library window shows) that started at or after args.since (ms since the
  // epoch), newest first, at most args.max of them (total counts them all). With
  // args.browserId, only those a document of that tab started (private ones included,
  // as the tab is the caller's); without it, those of every tab but private windows.
  //
  // With args.waitMs, the caller saw the tab start leaving its document (will-navigate)
  // after an action and no new one yet: this waits, at most waitMs, until that turns
  // out to be a download (one of the tab's appeared), a new document (the tab's top
  // window is no longer args.window), or neither (the tab stopped loading and nothing
  // came within settleMs: a 204 answer, a blocked download). outcome says which, or
  // "loading" when the wait ended first. With args.finishMs, downloads under way are
  // given that long to end.
  const Services = env.Services;
  const {Downloads} = env.ChromeUtils.importESModule("resource://gre/modules/Downloads.sys.mjs");
  const {setTimeout} = env.ChromeUtils.importESModule("resource://gre/modules/Timer.sys.mjs");
  const max = Number.isInteger(args.max) && args.max > 0 ? Math.min(args.max, 200) : 50;
  const since = typeof args.since === "number" ? args.since : 0;
  const tabId = Number.isInteger(args.browserId) && args.browserId > 0 ? args.browserId : 0;
  const list = await Downloads.getList(Downloads.ALL);

  let win = null;
  let browser = null;
  for (const w of Services.wm.getEnumerator("navigator:browser")) {
    if (!win) win = w;
    const gb = w.gBrowser;
    if (!gb || !tabId) continue;
    for (const b of gb.browsers) {
      if (b.browserId === tabId) browser = b;
    }
  }
  // The tab (browserId) a download's document was in, 0 when it is gone.
  const tabOf = (d) => {
    const id = d.source && d.source.browsingContextId;
    if (!id || !win || !win.BrowsingContext) return 0;
    const bc = win.BrowsingContext.get(id);
    return bc && bc.top ? bc.top.browserId : 0;
  };
  const originOf = (d) => {
    const url = String((d.source && d.source.url) || "");
    try {
      if (url.startsWith("blob:")) return new URL(url.slice(5)).origin;
      if (url.startsWith("data:")) return "data:";
      const u = new URL(url);
      return u.origin === "null" ? u.protocol : u.origin;
    } catch (e) {
      return "";
    }
  };
  const stateOf = (d) => {
    if (d.succeeded) return "finished";
    if (d.error) return "failed";
    if (d.canceled) return d.hasPartialData ? "paused" : "cancelled";
    return d.stopped ? "stopped" : "downloading";
  };
  const whyFailed = (e) => {
    if (!e) return "";
    if (e.becauseBlocked) return "blocked";
    if (e.becauseSourceFailed) return "source";
    if (e.becauseTargetFailed) return "target";
    return "other";
  };
  const row = (d, tab) => {
    const path = (d.target && d.target.path) || "";
    const state = stateOf(d);
    let size = -1;
    if (state === "finished") size = d.target && d.target.size > 0 ? d.target.size : d.currentBytes;
    else if (d.hasProgress && d.totalBytes > 0) size = d.totalBytes;
    return {
      // The file name Firefox saves it as (a name the page or server gave, made safe
      // and unique in the folder by Firefox).
      name: path.split(/[\\/]/).pop(),
      path,
      size,
      received: d.currentBytes || 0,
      type: d.contentType || "",
      state,
      failed: whyFailed(d.error),
      origin: originOf(d),
      tab,
      started: d.startTime ? d.startTime.getTime() : 0,
    };
  };
  const mine = async () => {
    const all = await list.getAll();
    const out = [];
    for (const d of all) {
      const started = d.startTime ? d.startTime.getTime() : 0;
      if (started < since) continue;
      const tab = tabOf(d);
      if (tabId ? tab !== tabId : d.source && d.source.isPrivate) continue;
      out.push(row(d, tab));
    }
    out.sort((a, b) => b.started - a.started);
    return out;
  };

  let rows = await mine();
  let outcome = rows.length > 0 ? "download" : "none";
  const waitMs = Number.isInteger(args.waitMs) && args.waitMs > 0 ? Math.min(args.waitMs, 10000) : 0;
  if (waitMs > 0 && rows.length === 0) {
    const settleMs = Number.isInteger(args.settleMs) && args.settleMs > 0 ? args.settleMs : 100;
    const start = Date.now();
    let stoppedAt = 0;
    outcome = "loading";
    while (Date.now() - start < waitMs) {
      await new Promise(r => setTimeout(r, 10));
      rows = await mine();
      if (rows.length > 0) {
        outcome = "download";
        break;
      }
      const wg = browser && browser.browsingContext && browser.browsingContext.currentWindowGlobal;
      if (!wg || wg.innerWindowId !== args.window) {
        outcome = "navigated";
        break;
      }
      const loading = browser.webProgress && browser.webProgress.isLoadingDocument;
      if (loading) {
        stoppedAt = 0;
      } else if (!stoppedAt) {
        stoppedAt = Date.now();
      } else if (Date.now() - stoppedAt >= settleMs) {
        outcome = "stayed";
        break;
      }
    }
  }
  // A download still under way is given args.finishMs to end (a small file's last
  // step, the rename of its .part file, comes a moment after its last byte).
  const finishMs = Number.isInteger(args.finishMs) && args.finishMs > 0 ? Math.min(args.finishMs, 5000) : 0;
  const finishBy = Date.now() + finishMs;
  while (finishMs > 0 && rows.some(r => r.state === "downloading") && Date.now() < finishBy) {
    await new Promise(r => setTimeout(r, 10));
    rows = await mine();
  }
  return {downloads: rows.slice(0, max), total: rows.length, outcome};
}
