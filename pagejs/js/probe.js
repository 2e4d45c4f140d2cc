function probe(win, args, lib, env) {
  // Feature-detects the privileged APIs the isolated realm relies on.
  let tip = false;
  try {
    const c = env.Cc["@mozilla.org/text-input-processor;1"];
    tip = !!c && typeof c.createInstance(env.Ci.nsITextInputProcessor).beginInputTransactionForTests === "function";
  } catch (e) {
    tip = false;
  }
  const u = win.windowUtils;
  return {
    trustedClick: !!u && typeof u.dispatchDOMEventViaPresShellForTesting === "function",
    tip,
    mozSetFileArray: typeof win.HTMLInputElement.prototype.mozSetFileArray === "function",
  };
}
