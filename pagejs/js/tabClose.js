function tabClose(args, env) {
  // Parent process: closes the tab with args.browserId.
  for (const w of env.Services.wm.getEnumerator("navigator:browser")) {
    const gb = w.gBrowser;
    if (!gb) continue;
    for (const b of gb.browsers) {
      if (b.browserId !== args.browserId) continue;
      gb.removeTab(gb.getTabForBrowser(b));
      return {browserId: args.browserId};
    }
  }
  throw {code: "tab_not_found", message: "no tab has that browserId"};
}
