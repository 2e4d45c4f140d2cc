function tabNavigate(args, env) {
  // Parent process: starts loading an http(s) URL in the tab whose browserId is
  // args.browserId, without the page's help: for a tab whose document the debugger
  // cannot reach (say, after a redirect to file: left it on about:blank).
  let url;
  try {
    url = new URL(args.url);
  } catch (e) {
    throw {code: "invalid_arguments", message: "invalid URL"};
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw {code: "invalid_arguments", message: "only http and https URLs"};
  for (const w of env.Services.wm.getEnumerator("navigator:browser")) {
    const gb = w.gBrowser;
    if (!gb) continue;
    for (const b of gb.browsers) {
      if (b.browserId !== args.browserId) continue;
      b.loadURI(env.Services.io.newURI(url.href), {
        triggeringPrincipal: env.Services.scriptSecurityManager.createNullPrincipal({}),
      });
      return {browserId: b.browserId};
    }
  }
  throw {code: "tab_not_found", message: "no tab has that browserId"};
}
