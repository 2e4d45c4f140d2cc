function snapshotKeep() {
  // What the resident snapshot keeps between calls in one document: the number of the
  // result it last issued (seq) and whether anything could have changed that result
  // since. A call that names that result (args.have) with the same arguments gets
  // {same: seq} instead of a walk when nothing could have: no DOM mutation (document and
  // every open shadow root, by MutationObserver), no event that may change what the walk
  // sees without a mutation (input, focus, hover, transitions, animations, toggles,
  // loads, resizes, fonts), the same URL, title and design mode, the same set of shadow
  // roots, the same form-control state (values, checked, selected), the same style
  // sheets (count, rule counts, disabled), and no animation running. Anything else is a
  // full walk.
  // Results with the page text are never reused (it depends on layout throughout).
  //
  // A walk that does happen reuses the entries (lib.entry: role, name, states,
  // selector) of elements nothing could have changed: an element is walked afresh when
  // a mutation touched it or its subtree (names come from content), its parent's
  // children changed (selector steps), its live state (value, checked, selected)
  // differs, or a mutation may have changed something it reads from elsewhere (ids,
  // labels, aria-labelledby targets, fieldsets, details, base URL, the document URL):
  // then every entry is made afresh. Visibility is always judged anew; which elements
  // qualify by what they are (tag and attributes, lib.collect's statics) is taken from
  // the last walk when no mutation could have changed it: nothing added, removed or
  // moved, no attribute the test reads changed (href, type, role, contenteditable,
  // aria-hidden), the same shadow roots and design mode.
  const st = {seq: 0, key: null, dirty: true, mo: null, roots: null, url: "", title: "", sig: "", design: ""};
  // element → its record of the last walk: {e, live, seq, at}, where at is its row in
  // the result numbered seq (the last one it was listed in)
  let cache = new Map();
  let next = null; // the cache the walk under way builds
  let last = null; // the record entry() returned last
  let all = true; // every entry must be made afresh
  let upward = new Set(); // elements whose entry is stale
  let subtree = new Set(); // nodes below which every entry is stale
  let refIds = new Set(); // ids that aria-labelledby names
  // The last walk's statics (lib.collect), with its frames argument, and whether a
  // mutation since may have changed them (reshaped).
  let statics = null, staticsFrames = false, reshaped = true;
  let lastRoots = [];
  // Each tree's elements that can host a shadow root (document, open shadow roots; tree
  // order) and form controls as the last scan listed them, kept while no mutation
  // added, removed or moved an element in an observed tree (restructured): a scan then
  // need not query the trees again. (It still asks each of those elements for a shadow
  // root: attaching one is no mutation.)
  let treesOf = new Map(), restructured = true;
  let idCounts = null; // the last walk's lib.ids(), good while every entry need not be made afresh
  // The number of the result last issued (a record whose seq is it was listed there),
  // the rows of the walk under way so far, and the runs of the patch that walk makes
  // of the issued result (when the caller holds that result), else null.
  let issued = 0;
  let listed = 0;
  let runs = null;
  let scanned = null; // what begin's scan found, for the walk under way
  const mark = () => {
    st.dirty = true;
  };
  const CONTEXT = new Set(["label", "fieldset", "legend", "base", "details", "summary"]);
  const SHAPING = new Set(["href", "type", "role", "contenteditable", "aria-hidden"]); // read by lib's consider

  function up(n) {
    return n.parentNode || n.host || null;
  }

  // touched notes what one mutation record may have made stale.
  function touched(rec) {
    const t = rec.target;
    if (rec.type === "attributes") {
      const a = rec.attributeName;
      if (SHAPING.has(a)) reshaped = true;
      if (a === "id" || a === "for" || a === "aria-labelledby" || t.localName === "base") all = true;
      if (t.localName === "fieldset" || t.localName === "details" || a === "contenteditable") subtree.add(t);
    } else if (rec.type === "childList") {
      reshaped = true;
      restructured = true;
      subtree.add(t);
      for (const list of [rec.addedNodes, rec.removedNodes]) {
        for (let i = 0; i < list.length; i++) {
          const n = list[i];
          if (n.nodeType !== 1) continue;
          if (n.id || CONTEXT.has(n.localName) || n.querySelector("[id],label,fieldset,legend,base,details,summary")) all = true;
        }
      }
    }
    for (let n = t; n; n = up(n)) {
      if (n.nodeType !== 1) continue;
      upward.add(n);
      if (n.id && refIds.has(n.id)) all = true;
      const tag = n.localName;
      if (tag === "label" || tag === "fieldset" || tag === "legend") all = true;
    }
  }

  function note(recs) {
    st.dirty = true;
    if (all) return;
    for (let i = 0; i < recs.length && !all; i++) touched(recs[i]);
  }

  // live is the state of an element that changes without a mutation.
  function live(el) {
    switch (el.localName) {
      case "input":
        return (el.checked ? "1" : "0") + (el.indeterminate ? "1" : "0") + String(el.value);
      case "textarea":
        return String(el.value);
      case "option":
        return el.selected ? "1" : "0";
      case "select": {
        let s = "";
        const o = el.options;
        for (let k = 0; k < o.length; k++) s += o[k].selected ? "1" : "0";
        return s;
      }
    }
    return "";
  }

  // entry is lib.entry(el, true), reused from the last walk when nothing could have
  // changed it.
  function entry(el, lib) {
    const c = all ? undefined : cache.get(el);
    let fresh = c === undefined || (upward.size > 0 && upward.has(el));
    // (No subtree marked, the common case of attribute and text changes: no ancestor
    // to look at.)
    for (let n = subtree.size > 0 ? up(el) : null; !fresh && n; n = up(n)) {
      if (subtree.has(n)) fresh = true;
    }
    const l = liveOf(el);
    if (!fresh && c.live === l) {
      next.set(el, c);
      last = c;
      return c.e;
    }
    const e = lib.entry(el, true);
    last = {e, live: l, seq: 0, at: 0};
    next.set(el, last);
    return e;
  }

  // liveOf is live(el), as begin's scan found it for a form control.
  function liveOf(el) {
    const t = el.localName;
    if (t !== "input" && t !== "textarea" && t !== "select" && t !== "option") return "";
    const l = scanned === null ? undefined : scanned.lives.get(el);
    return l === undefined ? live(el) : l;
  }

  // reused records element el with entry e as the walk's next element, and reports
  // whether the caller's copy of the issued result has its row (then it is left out):
  // the row of an entry the issued result listed, entry() having reused it.
  function reused(el, e) {
    const c = last !== null && last.e === e ? last : next.get(el);
    const j = issued > 0 && c.seq === issued ? c.at : -1;
    c.seq = st.seq;
    c.at = listed++;
    if (runs === null) return false;
    const L = runs.length;
    if (j >= 0) {
      if (L >= 3 && runs[L - 1] === 0 && runs[L - 3] + runs[L - 2] === j) runs[L - 2]++;
      else runs.push(j, 1, 0);
      return true;
    }
    if (L === 0) runs.push(0, 0, 1);
    else runs[L - 1]++;
    return false;
  }

  // done ends a walk: its entries are what the next walk may reuse, and out (the
  // result) is numbered and, when it is a patch, says of what.
  function done(out) {
    cache = next;
    next = null;
    last = null;
    scanned = null;
    all = false;
    upward = new Set();
    subtree = new Set();
    if (runs !== null) {
      out.base = issued;
      out.runs = runs;
    }
    issued = st.seq;
    runs = null;
    out.seq = st.seq;
  }
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
  // It also keeps what the walk that may follow in the same task can use: each tree's
  // shadow hosts (hostsOf, for lib.collect) and each form control's live state (lives,
  // live()'s strings).
  function scan(win, doc) {
    const roots = [];
    const parts = [];
    const trees = [doc];
    const hostsOf = new Map();
    const ctls = [], states = []; // the form controls and their live(), for lives (begin)
    // (note() stops looking at records once every entry is to be made afresh.)
    const kept = restructured || all ? null : treesOf;
    const lists = new Map();
    for (let t = 0; t < trees.length; t++) {
      let k = kept === null ? undefined : kept.get(trees[t]);
      if (k === undefined) k = listTree(trees[t]);
      lists.set(trees[t], k);
      const els = k.hostable;
      const hosts = [];
      for (let i = 0; i < els.length; i++) {
        const r = els[i].shadowRoot;
        if (r) {
          roots.push(r);
          trees.push(r);
          hosts.push(els[i]);
        }
      }
      hostsOf.set(trees[t], hosts);
      for (let i = 0; i < k.ctls.length; i++) {
        const el = k.ctls[i];
        const l = live(el);
        ctls.push(el);
        states.push(l);
        parts.push(k.select[i] ? "s" + l : l);
      }
      sheetsOf(trees[t].styleSheets, parts);
      sheetsOf(trees[t].adoptedStyleSheets, parts);
    }
    treesOf = lists;
    restructured = false;
    return {roots, sig: roots.length + "\u0000" + parts.join("\u0000"), hostsOf, ctls, states, lives: null};
  }

  // Only these elements and custom elements (a "-" in the name) can have a shadow root
  // (attachShadow, declarative or not, refuses any other).
  const HOSTABLE = new Set(["article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "main", "nav", "p", "section", "span"]);

  // listTree lists a tree's elements that can host a shadow root, in tree order, and
  // its form controls: the elements named input, textarea or select (whether each is a
  // select).
  function listTree(tree) {
    const els = tree.querySelectorAll("*");
    const hostable = [], ctls = [], select = [];
    for (let i = 0; i < els.length; i++) {
      const el = els[i];
      const n = el.localName;
      if (HOSTABLE.has(n) || n.includes("-")) {
        hostable.push(el);
      } else if (n === "input" || n === "textarea" || n === "select") {
        ctls.push(el);
        select.push(n === "select");
      }
    }
    return {hostable, ctls, select};
  }

  function animating(doc, roots) {
    if (typeof doc.getAnimations !== "function") return true;
    if (doc.getAnimations().length > 0) return true;
    for (let i = 0; i < roots.length; i++) {
      if (typeof roots[i].getAnimations === "function" && roots[i].getAnimations().length > 0) return true;
    }
    return false;
  }

  // keyOf: the arguments that shape the result (have names what the caller holds, pin
  // only the hand-off of the elements to the node binding).
  function keyOf(args) {
    const names = Object.keys(args).filter((n) => n !== "have" && n !== "pin").sort();
    return names.map((n) => n + "=" + JSON.stringify(args[n])).join("&");
  }

  function watch(win, doc, roots) {
    if (!st.mo) {
      st.mo = new win.MutationObserver(note);
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
    if (st.mo) {
      const recs = st.mo.takeRecords();
      if (recs.length > 0) note(recs);
    }
    const s = scan(win, doc);
    const url = String(win.location.href);
    const title = String(doc.title);
    const design = String(doc.designMode); // makes elements editable (or not) without a mutation
    if (!st.dirty && st.seq > 0 && args.have === st.seq && key === st.key && !args.includeAllText &&
        url === st.url && title === st.title && s.sig === st.sig && design === st.design && !animating(doc, s.roots)) {
      return true;
    }
    watch(win, doc, s.roots);
    // (Made only for a walk: a {same} answer needs none of it.)
    s.lives = new Map();
    for (let i = 0; i < s.ctls.length; i++) s.lives.set(s.ctls[i], s.states[i]);
    scanned = s;
    // A walk that never ended; hrefs resolve against the URL; editing hosts change.
    if (next !== null || url !== st.url || design !== st.design) all = true;
    next = new Map();
    last = null;
    listed = 0;
    runs = issued > 0 && args.have === issued && key === st.key && !args.includeAllText ? [] : null;
    refIds = new Set();
    for (const t of [doc].concat(s.roots)) {
      const named = t.querySelectorAll("[aria-labelledby]");
      for (let i = 0; i < named.length; i++) {
        for (const id of String(named[i].getAttribute("aria-labelledby")).split(/\s+/)) if (id) refIds.add(id);
      }
    }
    if (all || !sameList(s.roots, lastRoots)) reshaped = true;
    lastRoots = s.roots;
    st.seq++;
    st.key = key;
    st.dirty = false;
    st.url = url;
    st.title = title;
    st.design = design;
    st.sig = s.sig;
    return false;
  }

  function sameList(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  // collect is lib.collect for the walk begin prepared: the elements that qualify by
  // what they are come from the last walk when nothing can have changed them (only
  // their visibility is judged anew), else from collecting, given the shadow hosts of
  // each tree as begin's scan found them.
  function collect(lib, frames) {
    // (An id added, removed or changed, or an element with one inserted or removed,
    // makes every entry afresh: see touched.)
    if (!all && idCounts !== null) lib.ids(idCounts);
    idCounts = lib.ids();
    if (statics !== null && !reshaped && staticsFrames === frames) return lib.shown(statics);
    const list = [];
    const out = lib.collect(frames, scanned === null ? null : scanned.hostsOf, list);
    statics = list;
    staticsFrames = frames;
    reshaped = false;
    return out;
  }

  return {begin, entry, reused, done, collect, seq: () => st.seq};
}
