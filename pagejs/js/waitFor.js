async function waitFor(win, args, lib) {
  // A check of a wait condition; every given condition must hold. Without args.waitMs
  // it checks once (the server loops). With it, an unmet condition is checked again as
  // the page changes, until it holds or waitMs passed: a MutationObserver (document and
  // open shadow roots) wakes it, and it checks once the page has been calm for 4 ms (the
  // rest of that render), or args.gapMs after the first mutation since the last check
  // (a page that mutates all the time is not checked in a busy loop); it also checks
  // every args.gapMs * 4 (what no mutation announces: the URL, style sheets) and at the
  // end.
  const doc = win.document;
  const want = args.state === "absent" ? "absent" : "present";
  // args.url is a glob of the whole URL: "**" any run of characters, "*" any run without
  // "/", everything else itself ("?" too: a URL's query starts with it).
  const urlGlob = typeof args.url === "string" && args.url !== "" ? globRegExp(args.url) : null;
  // The open shadow roots as the last check listed them (null: it did not need them).
  let listed = null;
  const check = () => {
    let present = true;
    let el = null;
    // Listed once per check, when one is needed.
    listed = null;
    const roots = () => listed || (listed = lib.shadowRoots(doc, []));
    if (typeof args.urlContains === "string" && args.urlContains !== "") {
      // The URL as the browser writes it ("q=remote%20jobs") or with its escapes decoded
      // ("q=remote jobs"; decodeURI leaves the escapes of "/", "?", "&", "#" and the like).
      const href = String(win.location.href);
      present = present && (href.includes(args.urlContains) || decoded(href).includes(args.urlContains));
    }
    if (urlGlob) {
      // The whole URL, as written or decoded, against the glob.
      const href = String(win.location.href);
      present = present && (urlGlob.test(href) || urlGlob.test(decoded(href)));
    }
    if (typeof args.selector === "string" && args.selector !== "") {
      // In the document, else in an open shadow root (at any depth; a selector does not
      // cross a shadow root's edge).
      try {
        el = doc.querySelector(args.selector);
      } catch (e) {
        lib.fail("invalid_selector", "invalid CSS selector");
      }
      if (el === null) {
        const rs = roots();
        for (let i = 0; i < rs.length && el === null; i++) el = rs[i].querySelector(args.selector);
      }
      present = present && el !== null;
    }
    if (typeof args.text === "string" && args.text !== "") {
      // Ignoring case, as the answer's matching elements are found (and as a person
      // reads "Application submitted" on a page that shows "Application Submitted").
      present = present && textShown(lib.collapse(args.text).toLowerCase(), roots);
    }
    let matched;
    if (want === "present" && present && el) {
      // The first few matches, for the answer to list (as snapshot lines when they are
      // actionable elements).
      matched = [];
      const trees = [doc].concat(roots());
      for (let t = 0; t < trees.length && matched.length < 10; t++) {
        const all = trees[t].querySelectorAll(args.selector);
        for (let i = 0; i < all.length && matched.length < 10; i++) matched.push(lib.selector(all[i]));
      }
    }
    const met = want === "present" ? present : !present;
    return matched ? {met, matched} : {met};
  };
  let r = check();
  const waitMs = Number.isInteger(args.waitMs) && args.waitMs > 0 ? Math.min(args.waitMs, 120000) : 0;
  if (r.met || waitMs === 0) return Object.assign(r, {checks: 1});
  const gap = Number.isInteger(args.gapMs) && args.gapMs > 0 ? Math.min(args.gapMs, 1000) : 25;
  const calm = Math.min(4, gap);
  const perf = win.performance;
  const start = perf.now();
  let checks = 1;
  return await new Promise((resolve, reject) => {
    // One timer chain: due is when to check next; a timer that fires before it (due
    // moved later, by a mutation) sets the next one.
    let timer = 0;
    let timerAt = Infinity;
    let due = Infinity;
    let first = -1; // the first mutation since the last check
    let done = false;
    const setDue = (at) => {
      due = Math.min(at, start + waitMs);
      if (timer && due >= timerAt - 0.5) return;
      if (timer) win.clearTimeout(timer);
      timerAt = due;
      timer = win.setTimeout(fire, Math.max(0, Math.ceil(due - perf.now())));
    };
    // A mutation: check once the page has been calm for a moment (the rest of that
    // render), at most gapMs after the first mutation since the last check.
    const mo = new win.MutationObserver(() => {
      if (done) return;
      const t = perf.now();
      if (first < 0) first = t;
      due = Math.min(t + calm, first + gap, start + waitMs);
      setDue(due);
    });
    const finish = (res) => {
      done = true;
      mo.disconnect();
      win.clearTimeout(timer);
      resolve(Object.assign(res, {checks}));
    };
    const fire = () => {
      timer = 0;
      timerAt = Infinity;
      if (done) return;
      const t = perf.now();
      if (t < due - 0.5) {
        setDue(due);
        return;
      }
      first = -1;
      try {
        r = check();
      } catch (e) {
        done = true;
        mo.disconnect();
        reject(e);
        return;
      }
      checks++;
      if (r.met || t - start >= waitMs) finish(r);
      else setDue(t + gap * 4);
    };
    const opts = {subtree: true, childList: true, attributes: true, characterData: true};
    mo.observe(doc, opts);
    // (The first check's list, when it made one: nothing ran in between.)
    const roots = listed || lib.shadowRoots(doc, []);
    for (let i = 0; i < roots.length; i++) mo.observe(roots[i], opts);
    setDue(start + gap * 4);
  });

  // textShown tells whether the visible text of the document or of one of its open
  // shadow roots (roots(): at any depth) contains needle (lower case). textContent is
  // cheap and, white space aside, a superset of the visible text (innerText puts a space
  // or a line break between blocks, cells and at <br> where textContent has none): only
  // where it matches with all white space left out is the layout-dependent innerText
  // consulted (for a shadow root, lib.shadowText: text a component renders in its
  // shadow tree is in neither of the body's).
  function textShown(needle, roots) {
    const body = doc.body || doc.documentElement;
    if (!body) return false;
    const bare = squeezed(needle);
    if (squeezed(body.textContent).includes(bare) && lib.collapse(body.innerText).toLowerCase().includes(needle)) return true;
    const rs = roots();
    for (let i = 0; i < rs.length; i++) {
      if (squeezed(rs[i].textContent).includes(bare) && lib.shadowText(rs[i]).toLowerCase().includes(needle)) return true;
    }
    return false;
  }

  // squeezed is s in lower case without white space.
  function squeezed(s) {
    return String(s || "").replace(/\s+/g, "").toLowerCase();
  }

  // globRegExp is the anchored regular expression of a URL glob (see urlGlob).
  function globRegExp(glob) {
    const parts = glob.split("**").map(p => p.split("*").map(q => q.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*"));
    return new RegExp("^" + parts.join(".*") + "$");
  }
  // decoded is URL s with its escapes decoded as decodeURI does; when one is malformed
  // (half a UTF-8 sequence), each UTF-8 sequence of escapes that decodes is decoded and
  // the others are left as they are.
  function decoded(s) {
    try {
      return decodeURI(s);
    } catch (e) {
      return s.replace(/(?:%[0-9A-Fa-f]{2})+/g, decodedRun);
    }
  }

  // decodedRun decodes a run of escapes sequence by sequence: a lead byte's escape and
  // as many after it as its sequence takes, else that one escape as it is.
  function decodedRun(run) {
    let out = "";
    for (let i = 0; i < run.length;) {
      const b = parseInt(run.slice(i + 1, i + 3), 16);
      const n = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      const seq = run.slice(i, i + 3 * n);
      let d = null;
      try {
        d = decodeURI(seq);
      } catch (e) {
        d = null;
      }
      if (d !== null) {
        out += d;
        i += seq.length;
      } else {
        out += run.slice(i, i + 3);
        i += 3;
      }
    }
    return out;
  }
}
