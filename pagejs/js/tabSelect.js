function tabSelect(args, env) {
  // Parent process: makes the tab with args.browserId the selected tab of its window.
  for (const w of env.Services.wm.getEnumerator("navigator:browser")) {
    const gb = w.gBrowser;
    if (!gb) continue;
    for (const b of gb.browsers) {
      if (b.browserId !== args.browserId) continue;
      gb.selectedTab = gb.getTabForBrowser(b);
      return {browserId: args.browserId};
    }
  }
  throw {code: "tab_not_found", message: "no tab has that browserId"};
}
