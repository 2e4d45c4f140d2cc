async function waitFor(win, args, lib) {
  // A check of a wait condition; every given condition must hold. Without args.waitMs
  // it checks once (the server loops). With it, an unmet condition is checked again as
  // the page changes, until it holds or waitMs passed: a MutationObserver (document and
  // open shadow roots) wakes it, checks are at least args.gapMs apart (a page that
  // mutates all the time is not checked in a busy loop), and it also checks every
  // args.gapMs * 4 (what no mutation announces: the URL, style sheets) and at the end.
  const doc = win.document;
  const want = args.state === "absent" ? "absent" : "present";
  const check = () => {
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
      // textContent is cheap and a superset of the visible text: only when it matches
      // is the layout-dependent innerText consulted.
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
  };
  let r = check();
  const waitMs = Number.isInteger(args.waitMs) && args.waitMs > 0 ? Math.min(args.waitMs, 120000) : 0;
  if (r.met || waitMs === 0) return Object.assign(r, {checks: 1});
  const gap = Number.isInteger(args.gapMs) && args.gapMs > 0 ? Math.min(args.gapMs, 1000) : 25;
  const perf = win.performance;
  const start = perf.now();
  let checks = 1;
  let lastCheck = start;
  return await new Promise((resolve, reject) => {
    let timer = 0;
    let due = Infinity; // when the pending timer is due
    let done = false;
    const mo = new win.MutationObserver(() => {
      if (!done) schedule(gap - (perf.now() - lastCheck));
    });
    const finish = (res) => {
      done = true;
      mo.disconnect();
      win.clearTimeout(timer);
      resolve(Object.assign(res, {checks}));
    };
    // One timer at a time, the earliest asked for; never past the end of the wait.
    const schedule = (ms) => {
      const t = perf.now();
      const at = Math.min(t + Math.max(0, ms), start + waitMs);
      if (timer && at >= due) return;
      win.clearTimeout(timer);
      due = at;
      timer = win.setTimeout(fire, Math.max(0, at - t));
    };
    const fire = () => {
      timer = 0;
      due = Infinity;
      if (done) return;
      const t = perf.now();
      if (t - lastCheck < gap && t - start < waitMs) {
        schedule(gap - (t - lastCheck)); // checks stay gapMs apart
        return;
      }
      try {
        r = check();
      } catch (e) {
        done = true;
        mo.disconnect();
        reject(e);
        return;
      }
      checks++;
      lastCheck = t;
      if (r.met || t - start >= waitMs) finish(r);
      else schedule(gap * 4);
    };
    const opts = {subtree: true, childList: true, attributes: true, characterData: true};
    mo.observe(doc, opts);
    const all = doc.querySelectorAll("*");
    for (let i = 0; i < all.length; i++) {
      const sr = all[i].shadowRoot;
      if (sr) mo.observe(sr, opts);
    }
    // A mutation right after the first check waits out gapMs.
    schedule(gap * 4);
  });
}
