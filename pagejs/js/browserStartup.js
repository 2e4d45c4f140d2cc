function browserStartup(args, env) {
  // Parent process: whether Firefox has finished starting its most recent browser
  // window. The debugger server answers before the first window exists, and a new
  // window's first tab shows the initial about:blank until the window's start-up
  // has decided what it loads (a home page, the session, or about:sessionrestore
  // after a crash): a tab must not be chosen before then.
  const w = env.Services.wm.getMostRecentWindow("navigator:browser");
  if (!w) {
    return {window: false, ready: false};
  }
  const init = w.gBrowserInit;
  return {window: true, ready: !!(init && init.delayedStartupFinished)};
}
