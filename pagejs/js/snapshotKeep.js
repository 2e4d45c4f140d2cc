function snapshotKeep() {
  // What the resident snapshot keeps between calls in one document: the number of the
  // result it last issued (seq) and whether anything could have changed that result
  // since. A call that names that result (args.have) with the same arguments gets
  // {same: seq} instead of a walk when nothing could have: no DOM mutation (document and
  // every open shadow root, by MutationObserver), no event that may change what the walk
  // sees without a mutation (input, focus, hover, transitions, animations, toggles,
  // loads, resizes, fonts), the same URL and title, the same set of shadow roots, the
  // same form-control state (values, checked, selected), the same style sheets (count,
  // rule counts, disabled), and no animation running. Anything else is a full walk.
  // Results with the page text are never reused (it depends on layout throughout).
  const st = {seq: 0, key: null, dirty: true, mo: null, roots: null, url: "", title: "", sig: ""};
  const mark = () => {
    st.dirty = true;
  };
  const EVENTS = ["input", "change", "reset", "submit", "focusin", "focusout", "mouseover", "mouseout",
    "transitionrun", "transitionend", "transitioncancel", "animationstart", "animationend",
    "animationiteration", "animationcancel", "beforetoggle", "toggle", "load", "error", "resize", "pageshow",
    "hashchange", "popstate", "fullscreenchange"];
  const OPTS = {subtree: true, childList: true, attributes: true, characterData: true};
  const LISTEN = {capture: true, passive: true};

  function listen(target) {
    for (let i = 0; i < EVENTS.length; i++) target.addEventListener(EVENTS[i], mark, LISTEN);
  }

  // sheetsOf adds each sheet's rule count and disabled flag: a sheet changed through the
  // CSSOM (insertRule, replaceSync, disabled) makes no mutation.
  function sheetsOf(sheets, parts) {
    if (!sheets) return;
    parts.push("n" + sheets.length);
    for (let i = 0; i < sheets.length; i++) {
      let n = -1;
      try {
        n = sheets[i].cssRules.length;
      } catch (e) {
        n = -1; // a cross-origin sheet: its rules cannot be read, nor changed from here
      }
      parts.push("r" + n + (sheets[i].disabled ? "d" : ""));
    }
  }

  // scan lists the open shadow roots (shadow-including tree order) and a signature of
  // the state the walk reads that changes without a mutation.
  function scan(win, doc) {
    const roots = [];
    const parts = [];
    const trees = [doc];
    for (let t = 0; t < trees.length; t++) {
      const all = trees[t].querySelectorAll("*");
      for (let i = 0; i < all.length; i++) {
        const r = all[i].shadowRoot;
        if (r) {
          roots.push(r);
          trees.push(r);
        }
      }
      const ctl = trees[t].querySelectorAll("input,textarea,select");
      for (let i = 0; i < ctl.length; i++) {
        const el = ctl[i];
        const tag = el.localName;
        if (tag === "select") {
          let s = "s";
          const o = el.options;
          for (let k = 0; k < o.length; k++) s += o[k].selected ? "1" : "0";
          parts.push(s);
        } else if (tag === "input") {
          parts.push((el.checked ? "1" : "0") + (el.indeterminate ? "1" : "0") + String(el.value));
        } else {
          parts.push(String(el.value));
        }
      }
      sheetsOf(trees[t].styleSheets, parts);
      sheetsOf(trees[t].adoptedStyleSheets, parts);
    }
    return {roots, sig: roots.length + "\u0000" + parts.join("\u0000")};
  }

  function animating(doc, roots) {
    if (typeof doc.getAnimations !== "function") return true;
    if (doc.getAnimations().length > 0) return true;
    for (let i = 0; i < roots.length; i++) {
      if (typeof roots[i].getAnimations === "function" && roots[i].getAnimations().length > 0) return true;
    }
    return false;
  }

  function keyOf(args) {
    const names = Object.keys(args).filter((n) => n !== "have").sort();
    return names.map((n) => n + "=" + JSON.stringify(args[n])).join("&");
  }

  function watch(win, doc, roots) {
    if (!st.mo) {
      st.mo = new win.MutationObserver(mark);
      st.mo.observe(doc, OPTS);
      listen(win);
      listen(doc);
      if (doc.fonts && typeof doc.fonts.addEventListener === "function") doc.fonts.addEventListener("loadingdone", mark, LISTEN);
      st.roots = new WeakSet();
    }
    for (let i = 0; i < roots.length; i++) {
      if (!st.roots.has(roots[i])) {
        st.roots.add(roots[i]);
        st.mo.observe(roots[i], OPTS);
        listen(roots[i]);
      }
    }
  }

  // begin is called before a walk: true when the result args.have is still what a walk
  // would return; otherwise the state is reset for the walk that follows (its result
  // gets a new seq, so an earlier one can never be named again).
  function begin(win, args) {
    const doc = win.document;
    const key = keyOf(args);
    if (st.mo && st.mo.takeRecords().length > 0) st.dirty = true;
    const s = scan(win, doc);
    const url = String(win.location.href);
    const title = String(doc.title);
    if (!st.dirty && st.seq > 0 && args.have === st.seq && key === st.key && !args.includeAllText &&
        url === st.url && title === st.title && s.sig === st.sig && !animating(doc, s.roots)) {
      return true;
    }
    watch(win, doc, s.roots);
    st.seq++;
    st.key = key;
    st.dirty = false;
    st.url = url;
    st.title = title;
    st.sig = s.sig;
    return false;
  }

  return {begin, seq: () => st.seq};
}
