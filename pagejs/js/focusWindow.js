async function focusWindow(args, env) {
  // Parent process: makes the window that holds tab args.browserId the window Firefox
  // treats as active, the way it is for a person working in it, so that focus, blur,
  // focusin and focusout fire in its page, without asking the operating system to raise
  // the window or to take the keyboard focus from the user's current application.
  // How: Firefox's focus manager "test mode" (the focusmanager.testmode preference),
  // under which raising a window is emulated inside Firefox (nsFocusManager::RaiseWindow
  // calls WindowRaised itself instead of asking the window manager). The preference is
  // changed on the default branch only, which Firefox never writes to prefs.js, and only
  // when it has no user value and is off. The change is claimed by this client's DevTools
  // connection (found by an actor only it owns, args.console); when the last claiming
  // connection closes, for whatever reason (the server exits, is killed, or disconnects),
  // Firefox's own DevTools server runs the listener installed here and turns it off again.
  // Focus held by the window's own interface (the address bar) moves into the page, as a
  // person's click in it would move it. A background tab (not the selected tab of its
  // window) is left alone: selecting it would change what the user sees.
  const PREF = "focusmanager.testmode";
  const Services = env.Services;
  if (typeof args.console !== "string" || args.console === "") throw {code: "invalid_argument", message: "no console actor"};
  let win = null, browser = null;
  for (const w of Services.wm.getEnumerator("navigator:browser")) {
    const gb = w.gBrowser;
    if (!gb) continue;
    for (const b of gb.browsers) {
      if (b.browserId === args.browserId) {
        win = w;
        browser = b;
      }
    }
  }
  if (!win) throw {code: "tab_not_found", message: "no tab has that browserId"};
  if (win.gBrowser.selectedBrowser !== browser) return {active: false, mode: "background"};
  let mode = "already";
  if (Services.focus.activeWindow !== win) {
    mode = claim();
    if (mode === "unavailable") return {active: false, mode};
    win.focus(); // emulated under test mode: nothing reaches the window manager
    await until(() => Services.focus.activeWindow === win);
  }
  // Focus in the window's own interface (the address bar, say) keeps the page from
  // getting any: move it into the page, as a person's click in it would.
  if (Services.focus.activeWindow === win && Services.focus.focusedElement !== browser) {
    browser.focus();
    await until(() => Services.focus.focusedElement === browser);
  }
  return {active: Services.focus.activeWindow === win && Services.focus.focusedElement === browser, mode};

  async function until(ok) {
    const deadline = Date.now() + 1000;
    while (!ok() && Date.now() < deadline) await new Promise(r => win.setTimeout(r, 10));
  }

  // claim turns test mode on for this connection; "user" when the user's own profile
  // already has it on (nothing is changed or undone then).
  function claim() {
    const d = Services.prefs.getDefaultBranch("");
    if (Services.prefs.prefHasUserValue(PREF)) {
      return Services.prefs.getBoolPref(PREF, false) ? "user" : "unavailable";
    }
    const {useDistinctSystemPrincipalLoader, releaseDistinctSystemPrincipalLoader} = env.ChromeUtils.importESModule(
      "resource://devtools/shared/loader/DistinctSystemPrincipalLoader.sys.mjs", {global: "shared"});
    const requester = {};
    const loader = useDistinctSystemPrincipalLoader(requester);
    let server = null, prefix = "";
    try {
      ({DevToolsServer: server} = loader.require("resource://devtools/server/devtools-server.js"));
      for (const [p, c] of Object.entries(server._connections || {})) {
        if (c && typeof c.getActor === "function" && c.getActor(args.console)) prefix = p;
      }
    } finally {
      releaseDistinctSystemPrincipalLoader(requester);
    }
    if (!prefix || typeof server.on !== "function") return "unavailable";
    let state = server.fxmcpFocus;
    if (!state) {
      if (d.getBoolPref(PREF, false)) return "user"; // someone else turned it on: leave it
      state = {claims: new Set(), listener: null};
      state.listener = (type, conn) => {
        if (type !== "closed" || !conn) return;
        state.claims.delete(conn.prefix);
        if (state.claims.size > 0) return;
        server.off("connectionchange", state.listener);
        delete server.fxmcpFocus;
        if (!Services.prefs.prefHasUserValue(PREF)) d.setBoolPref(PREF, false);
      };
      server.on("connectionchange", state.listener);
      Object.defineProperty(server, "fxmcpFocus", {value: state, configurable: true, enumerable: false, writable: false});
    }
    state.claims.add(prefix);
    if (!d.getBoolPref(PREF, false)) d.setBoolPref(PREF, true);
    return "emulated";
  }
}
