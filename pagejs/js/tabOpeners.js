function tabOpeners(args, env) {
  // Parent process: the browserIds of the tabs (in any window) that the tab with
  // args.browserId opened (window.open, target=_blank links: its openerTab or the
  // opener of its browsing context), and the highest browserId of any tab, so a caller
  // can tell tabs opened after an earlier call.
  const opened = [];
  let maxId = 0;
  const topId = bc => (bc && bc.top ? bc.top.browserId : 0);
  for (const w of env.Services.wm.getEnumerator("navigator:browser")) {
    const gb = w.gBrowser;
    if (!gb) continue;
    for (const b of gb.browsers) {
      const id = b.browserId;
      if (id > maxId) maxId = id;
      if (id === args.browserId) continue;
      const tab = gb.getTabForBrowser(b);
      const bc = b.browsingContext;
      const byTab = tab && tab.openerTab && tab.openerTab.linkedBrowser && tab.openerTab.linkedBrowser.browserId === args.browserId;
      const byContext = bc && (topId(bc.opener) === args.browserId || topId(bc.crossGroupOpener) === args.browserId);
      if (byTab || byContext) opened.push(id);
    }
  }
  return {opened, maxId};
}
