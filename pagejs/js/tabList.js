function tabList(args, env) {
  // Parent process: the tabs of every browser window as the root actor's listTabs lists
  // them (window order, then tab-strip order; selected: the selected tab of the most
  // recently used window), with each title and URL cut to args.max characters. listTabs
  // carries every title whole, and a page can make its title megabytes long: a few such
  // tabs made that one reply larger than the client reads.
  const cut = (s) => { s = String(s || ""); return s.length > args.max ? s.slice(0, args.max) : s; };
  const recent = env.Services.wm.getMostRecentWindow("navigator:browser");
  const front = recent && recent.gBrowser ? recent.gBrowser.selectedBrowser : null;
  const tabs = [];
  for (const w of env.Services.wm.getEnumerator("navigator:browser")) {
    const gb = w.gBrowser;
    if (!gb) continue;
    for (const b of gb.browsers) {
      tabs.push({browserId: b.browserId, title: cut(b.contentTitle), url: cut(b.currentURI && b.currentURI.spec),
        selected: b === front});
    }
  }
  return {tabs};
}
