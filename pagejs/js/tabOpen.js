function tabOpen(args, env) {
  // Parent process: opens an http(s) URL in a new tab of the most recent browser window.
  let url;
  try {
    url = new URL(args.url);
  } catch (e) {
    throw {code: "invalid_argument", message: "invalid URL"};
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw {code: "invalid_argument", message: "only http and https URLs"};
  // The most recent non-private window (where the user's signed-in sessions are), else
  // the most recent window.
  let w = null;
  try {
    const {BrowserWindowTracker} = env.ChromeUtils.importESModule("resource:///modules/BrowserWindowTracker.sys.mjs");
    w = BrowserWindowTracker.getTopWindow({private: false});
  } catch (e) {
    w = null;
  }
  if (!w) w = env.Services.wm.getMostRecentWindow("navigator:browser");
  if (!w || !w.gBrowser) throw {code: "tab_not_found", message: "no browser window"};
  const tab = w.gBrowser.addTab(url.href, {
    triggeringPrincipal: env.Services.scriptSecurityManager.createNullPrincipal({}),
    inBackground: !!args.background,
  });
  if (!args.background) w.gBrowser.selectedTab = tab;
  return {browserId: tab.linkedBrowser.browserId};
}
