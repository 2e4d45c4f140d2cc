function uploadAbort(win, args, lib, env) {
  // Deletes a staging; runs even after the page's window is gone (win may be null).
  const holder = env.realm === "isolated" ? globalThis : win;
  if (!holder || typeof args.key !== "string") return {removed: false};
  const prop = "fxmcp" + args.key;
  const had = Object.prototype.hasOwnProperty.call(holder, prop);
  if (had) {
    const st = holder[prop];
    if (st && st.sink) env.Services.cpmm.removeMessageListener(st.sink.name, st.sink.listener);
    delete holder[prop];
  }
  return {removed: had};
}
