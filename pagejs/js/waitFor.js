function waitFor(win, args, lib) {
  // One poll of a wait condition; the server loops. Every given condition must hold.
  const doc = win.document;
  const want = args.state === "absent" ? "absent" : "present";
  let present = true;
  let el = null;
  if (typeof args.urlContains === "string" && args.urlContains !== "") {
    present = present && String(win.location.href).includes(args.urlContains);
  }
  if (typeof args.selector === "string" && args.selector !== "") {
    try {
      el = doc.querySelector(args.selector);
    } catch (e) {
      lib.fail("invalid_selector", "invalid CSS selector");
    }
    present = present && el !== null;
  }
  if (typeof args.text === "string" && args.text !== "") {
    const needle = lib.collapse(args.text);
    const body = doc.body || doc.documentElement;
    // textContent is cheap and a superset of the visible text: only when it matches is
    // the layout-dependent innerText consulted.
    present = present && !!body && lib.collapse(body.textContent).includes(needle) &&
      lib.collapse(body.innerText).includes(needle);
  }
  let matched;
  if (want === "present" && present && el) {
    // The first few matches, for the answer to list (as snapshot lines when they are
    // actionable elements).
    matched = [];
    const all = doc.querySelectorAll(args.selector);
    for (let i = 0; i < all.length && matched.length < 10; i++) matched.push(lib.selector(all[i]));
  }
  const met = want === "present" ? present : !present;
  return matched ? {met, matched} : {met};
}
