function tabOpen(args, env) {
  // Parent process: opens an http(s) URL in a new tab of the most recent browser window.
  let url;
  try {
    url = new URL(args.url);
  } catch (e) {
    throw {code: "invalid_argument", message: "invalid URL"};
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw {code: "invalid_argument", message: "only http and https URLs"};
  // The window whose selected tab Firefox reports as "selected" in listTabs
  // (getMostRecentBrowserWindow skips popup windows; getMostRecentWindow
  // would not), so a tab opened in the foreground is the active tab.
  const wm = env.Services.wm;
  const w = wm.getMostRecentBrowserWindow ? wm.getMostRecentBrowserWindow() : wm.getMostRecentWindow("navigator:browser");
  if (!w || !w.gBrowser) throw {code: "tab_not_found", message: "no browser window"};
  const tab = w.gBrowser.addTab(url.href, {
    triggeringPrincipal: env.Services.scriptSecurityManager.createNullPrincipal({}),
    inBackground: !!args.background,
  });
  if (!args.background) w.gBrowser.selectedTab = tab;
  return {browserId: tab.linkedBrowser.browserId};
}
