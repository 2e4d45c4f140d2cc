function tabHistory(args, env) {
  // Parent process: moves the tab with args.browserId through its session history
  // (args.action "back" or "forward") or reloads it ("reload"). Refuses with
  // history_unavailable when there is no entry in that direction. Returns the URL of the
  // entry being loaded, and whether it shares the current document (pushState and
  // fragment entries: no new document is loaded).
  const action = args.action;
  if (action !== "back" && action !== "forward" && action !== "reload") {
    throw {code: "invalid_argument", message: "unknown history action"};
  }
  let browser = null;
  for (const w of env.Services.wm.getEnumerator("navigator:browser")) {
    const gb = w.gBrowser;
    if (!gb) continue;
    for (const b of gb.browsers) {
      if (b.browserId === args.browserId) browser = b;
    }
  }
  if (!browser || !browser.browsingContext) throw {code: "tab_not_found", message: "no tab has that browserId"};
  const bc = browser.browsingContext;
  const sh = bc.sessionHistory;
  if (!sh) throw {code: "history_unavailable", message: "the tab has no session history"};
  const index = sh.index;
  const to = action === "back" ? index - 1 : action === "forward" ? index + 1 : index;
  if (to < 0 || to >= sh.count) {
    throw {code: "history_unavailable", message: "there is no page to go " + action + " to in this tab's history"};
  }
  const cur = sh.getEntryAtIndex(index);
  const entry = sh.getEntryAtIndex(to);
  const sameDocument = to !== index && !!cur && !!entry && typeof cur.sharesDocumentWith === "function" && cur.sharesDocumentWith(entry);
  if (action === "back") bc.goBack();
  else if (action === "forward") bc.goForward();
  else bc.reload(0);
  return {url: entry && entry.URI ? entry.URI.spec : "", index: to, count: sh.count, sameDocument};
}
