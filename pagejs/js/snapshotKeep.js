function snapshotKeep() {
  // What the resident snapshot keeps between calls in one document: the number of the
  // result it last issued (seq) and whether anything could have changed that result
  // since. A call that names that result (args.have) with the same arguments gets
  // {same: seq} instead of a walk when nothing could have: no DOM mutation (document and
  // every open shadow root, by MutationObserver), no event that may change what the walk
  // sees without a mutation (input, focus, hover, transitions, animations, toggles,
  // loads, resizes, fonts), the same URL, title and design mode, the same set of shadow
  // roots, the same form-control state (values, checked, selected), the same style
  // sheets (the very sheets, @import ones included, their rule counts, disabled), and no
  // animation running. Anything else is a walk. (Not noticed, here as in any walk's
  // visibility shortcut below: a CSSOM edit that keeps every sheet's rule count, such
  // as a rule's style or selectorText set, or a rule inserted inside an @media block.)
  // Results with the page text are never reused (it depends on layout throughout).
  //
  // A walk that does happen reuses the entries (lib.entry: role, name, states,
  // selector) of elements nothing could have changed: an element is walked afresh when
  // a mutation touched it or its subtree (names come from content), an editable
  // combobox's parent or grandparent (the value it may show beside it), its parent's
  // children changed (selector steps), its live state (value, checked, selected)
  // differs, or a mutation may have changed something it reads from elsewhere (ids,
  // labels, aria-labelledby targets, fieldsets, details, base URL, the document URL):
  // then every entry is made afresh. Which elements qualify by what they are (tag and
  // attributes, lib.collect's statics) is taken from the last walk when no mutation
  // could have changed it: nothing added, removed or moved, no attribute the test reads
  // changed (href, type, role, contenteditable, aria-hidden, tabindex; a form control's
  // hidden; and the aria-label, class, style or text of an element lib.pointerTarget may
  // list: pointerKind), the same shadow roots and
  // design mode. Visibility is judged anew, unless the only changes since the last walk
  // are aria-* (but aria-hidden, aria-modal and aria-live, which may make elements inert) and
  // data-* attributes and class names that no style sheet names (calm):
  // then the elements shown are the last walk's, and the walk visits only the rows of
  // elements those changes touched, the caller's copy keeping the others in place (only).
  const st = {seq: 0, key: null, dirty: true, mo: null, roots: null, url: "", title: "", sig: "", sheets: [], design: "",
    ctls: [], flags: [], values: []};
  // element → its record of the last walk: {e, live, ep, at}, where at is its row in
  // the results of row epoch ep (the last one it was listed in; see epoch)
  let cache = new Map();
  let next = null; // the cache the walk under way builds
  let last = null; // the record entry() returned last
  let all = true; // every entry must be made afresh
  let upward = new Set(); // elements whose entry is stale
  let subtree = new Set(); // nodes below which every entry is stale
  let refIds = new Set(); // ids that aria-labelledby names, comboboxes' popups (aria-controls), descriptions and errors
  // The last walk's statics (lib.collect), with its frames argument, and whether a
  // mutation since may have changed them (reshaped).
  let statics = null, staticsFrames = false, reshaped = true;
  // Whether the last collect found style rules that set a pointer cursor (lib's
  // signals), and the listener marks' number it walked with (lib.marksSeq: the isolated
  // realm renumbers them when a node's listeners change, which makes no mutation).
  let pointerRules = true, marksAt = -1, lastMarks = new Map();
  let lastRoots = [];
  // Each tree's elements that can host a shadow root (document, open shadow roots; tree
  // order) and form controls as the last scan listed them, kept while no mutation
  // added, removed or moved an element in an observed tree (restructured): a scan then
  // need not query the trees again. (It still asks each of those elements for a shadow
  // root: attaching one is no mutation.)
  let treesOf = new Map(), restructured = true;
  let idCounts = null; // the last walk's lib.ids(), good while every entry need not be made afresh
  // The last walk's lib.infos() (disabled fieldsets, labels), and whether a type
  // attribute changed since (an input that turns hidden, or back, is labelled no more).
  let rootInfos = null, typed = false;
  // The number of the result last issued (a record of its row epoch was listed there),
  // the rows of the walk under way so far, and the runs of the patch that walk makes
  // of the issued result (when the caller holds that result), else null.
  let issued = 0;
  let listed = 0;
  let runs = null;
  // Row positions: a record's at is its row in the results of epoch ep. A walk that
  // visits every row starts an epoch; a quick one (only) keeps the issued result's,
  // whose rows it leaves in place. issuedAt: the epoch of the issued result, issuedN its
  // row count; quick: the rows a quick walk visits (quickAt: how many so far).
  let epoch = 0, epochs = 0, issuedAt = 0, issuedN = -1;
  let quick = null, quickAt = 0;
  // Whether the last walk that visited every row described an <option> element (its
  // state is not in the scan's signature), and the walk under way.
  let hasOption = true, optionSeen = false;
  let relabel = true; // refIds may be stale
  let scanned = null; // what begin's scan found, for the walk under way
  // Visibility: the elements the last walk showed (shownLast) are shown again when
  // nothing since could have changed any element's style or layout (see calm): no
  // event, no mutation but quiet attribute changes (quiet: each element, then its
  // names), and the same state otherwise as a {same} answer asks for. seen is begin's
  // verdict for the walk under way.
  let shownLast = null;
  let loud = true;
  let quiet = [];
  let seen = false;
  // The style sheets' text (lower case) as last read, with the sheets and signature it
  // was read from; null text: a sheet could not be read.
  let sheetText = {sheets: null, sig: "", text: null};
  // The warm walk (warm): its state ("none": never asked; "waiting": for the load or an
  // idle period; "running"; "done"; "skipped": a call walked first), and while it runs
  // the elements it describes, how far it got, and the lib it collected them with.
  let warmState = "none";
  let warming = null;
  let warmed = 0; // the entries it made
  let ready = null; // the result it readied: {seq, value}, the walk's answer
  let warmFrames = false; // whether it walked with frames
  let waiters = []; // the calls waiting for it to end (args.wait)
  const mark = () => {
    st.dirty = true;
    loud = true;
  };
  const CONTEXT = new Set(["label", "fieldset", "legend", "base", "details", "summary"]);
  const QUIET = /^(aria|data)-/; // attribute names with no effect on rendering but through style sheets
  const ERRORISH = /(^|[_-])(error|invalid)$/i; // a class name lib's errorClassed reads
  // (read by lib's consider, and by its targets without a role: targetOf)
  const SHAPING = new Set(["href", "type", "role", "contenteditable", "aria-hidden", "tabindex", "draggable", "onclick", "onmousedown",
    "onmouseup", "onpointerdown", "onpointerup", "ontouchstart", "aria-roledescription", "alt", "title", "aria-label"]);
  const FORM_CONTROLS = new Set(["input", "select", "textarea"]);
  // pointerKind: an element lib.pointerTarget may list (a list item or a link without href
  // with no role but a presentational one, or anything with a tabindex), by its text,
  // aria-label and cursor.
  const pointerKind = (t) => {
    const r = String(t.getAttribute("role") || "").trim().split(/\s+/)[0].toLowerCase();
    return (r === "" || r === "none" || r === "presentation" || r === "generic") &&
      (t.hasAttribute("tabindex") || t.localName === "li" || (t.localName === "a" && !t.hasAttribute("href")));
  };

  function up(n) {
    return n.parentNode || n.host || null;
  }

  // touched notes what one mutation record may have made stale.
  function touched(rec) {
    const t = rec.target;
    if (rec.type === "attributes") {
      const a = rec.attributeName;
      if (rec.attributeNamespace !== null || a === "aria-hidden" || a === "aria-modal" || a === "aria-live") loud = true; // (also what is inert: lib.inert)
      else if (a === "class") {
        const cs = classesChanged(rec.oldValue, t.getAttribute("class"));
        quiet.push(t, ["class"].concat(cs));
        if (cs.some((c) => ERRORISH.test(c))) subtree.add(t); // (lib's errorClassed: the fields inside)
      }
      else if (QUIET.test(a)) quiet.push(t, [a]);
      else loud = true;
      if (SHAPING.has(a)) reshaped = true;
      // (lib's pointer cursor signal: a class or style may set it where a style rule does)
      else if ((a === "class" || a === "style") && pointerRules) reshaped = true;
      // (lib's consider reads the hidden attribute of a form control; lib.pointerTarget
      // the aria-label and the cursor of what pointerKind says)
      else if (a === "hidden" && FORM_CONTROLS.has(t.localName)) reshaped = true;
      else if ((a === "aria-label" || a === "class" || a === "style") && t.nodeType === 1 && pointerKind(t)) reshaped = true;
      else if (a === "aria-label" && t.nodeType === 1 && /combobox/i.test(t.getAttribute("role") || "")) reshaped = true; // (lib's comboWrapper)
      if (a === "type") restructured = typed = true; // (a control's kind; labels)
      // (a role: what describes a field may turn into an alert, lib's alertOf; an element
      // may turn into a combobox whose popup refIds lacks)
      if (a === "id" || a === "for" || a === "aria-labelledby" || a === "role" || t.localName === "base") all = true;
      if (a === "role") relabel = true;
      // (a combobox's popup, what describes an element: refIds; its own entry is stale already, upward)
      if (a === "aria-controls" || a === "aria-describedby" || a === "aria-errormessage") relabel = true;
      if (t.localName === "fieldset" || t.localName === "details" || a === "contenteditable") subtree.add(t);
    } else if (rec.type === "childList") {
      loud = true;
      relabel = true;
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
    } else {
      loud = true;
    }
    const text = rec.type === "characterData"; // (a list item's text: whether pointerTarget lists it)
    for (let n = t; n; n = up(n)) {
      if (n.nodeType !== 1) continue;
      upward.add(n);
      if (n.id && refIds.has(n.id)) all = true;
      const tag = n.localName;
      if (tag === "label" || tag === "fieldset" || tag === "legend") all = true;
      if (text && (tag === "li" || tag === "a") && !reshaped && pointerKind(n)) reshaped = true;
    }
  }

  // classesChanged lists the class names in one of the two values (class attributes)
  // but not in the other.
  function classesChanged(was, is) {
    const a = new Set(String(was || "").split(/[ \t\n\f\r]+/)), b = new Set(String(is || "").split(/[ \t\n\f\r]+/));
    const out = [];
    for (const c of a) if (c && !b.has(c)) out.push(c);
    for (const c of b) if (c && !a.has(c)) out.push(c);
    return out;
  }

  function note(recs) {
    st.dirty = true;
    if (all) {
      loud = true;
      return;
    }
    for (let i = 0; i < recs.length && !all; i++) touched(recs[i]);
    if (all) loud = true; // (the records left are not looked at)
  }

  // A form control's state that changes without a mutation, by its kind (listTree):
  // a checkbox or radio button's checkedness (flags), another input's or a textarea's
  // value, a select's selection (flags: its selectedIndex, which says it all when it is
  // not multiple; else the options' selectedness as a string).
  const K_CHECK = 0, K_VALUE = 1, K_SELECT = 2;
  const CHECKABLE = new Set(["checkbox", "radio"]);

  function kindOf(el) {
    const n = el.localName;
    if (n === "select") return K_SELECT;
    return n === "input" && CHECKABLE.has(String(el.type).toLowerCase()) ? K_CHECK : K_VALUE;
  }

  function flagsOf(el, kind) {
    if (kind === K_CHECK) return (el.checked ? 1 : 0) | (el.indeterminate ? 2 : 0);
    if (kind === K_SELECT) return el.multiple ? -2 : el.selectedIndex;
    return 0;
  }

  // (with "!" first when the control fails its constraints once the user changed it: lib's
  // invalidOf reads :user-invalid, which changes without a mutation)
  function valueOf(el, kind, flags) {
    const bad = el.matches(":user-invalid") ? "!" : "";
    if (kind === K_VALUE) return bad + String(el.value);
    if (flags !== -2) return bad;
    let s = bad;
    const o = el.options;
    for (let k = 0; k < o.length; k++) s += o[k].selected ? "1" : "0";
    return s;
  }

  // live is the state of an element that changes without a mutation, as a string.
  function live(el) {
    const n = el.localName;
    if (n === "option") return el.selected ? "o1" : "o0";
    if (n !== "input" && n !== "textarea" && n !== "select") return "";
    const kind = kindOf(el);
    const f = flagsOf(el, kind);
    return f + "|" + valueOf(el, kind, f);
  }

  // entry is lib.entry(el, true), reused from the last walk when nothing could have
  // changed it.
  function entry(el, lib) {
    const c = all ? undefined : cache.get(el);
    let fresh = c === undefined || (upward.size > 0 && upward.has(el)) || (c.e.role === "combobox" && beside(el));
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
    last = {e, live: l, ep: 0, at: 0};
    next.set(el, last);
    return e;
  }

  // beside tells whether a change since the last walk may have changed what an editable
  // combobox shows beside itself as its value (lib's chosenBeside): one in the boxes
  // holding it (its parent and grandparent), or any that may have changed what is shown
  // or where (the walk judges visibility anew: not seen).
  function beside(el) {
    if (el.localName !== "input") return false;
    if (!seen) return true;
    const p = el.parentElement;
    return p !== null && (upward.has(p) || (p.parentElement !== null && upward.has(p.parentElement)));
  }

  // liveOf is live(el), as begin's scan found it for a form control.
  function liveOf(el) {
    const t = el.localName;
    if (t !== "input" && t !== "textarea" && t !== "select" && t !== "option") return "";
    if (t === "option") optionSeen = true;
    if (scanned === null) return live(el);
    if (scanned.at === null) {
      scanned.at = new Map();
      for (let i = 0; i < scanned.ctls.length; i++) scanned.at.set(scanned.ctls[i], i);
    }
    const i = scanned.at.get(el);
    return i === undefined ? live(el) : scanned.flags[i] + "|" + scanned.values[i];
  }

  // reused records element el with entry e as the walk's next element, and reports
  // whether the caller's copy of the issued result has its row (then it is left out):
  // the row of an entry the issued result listed, entry() having reused it.
  function reused(el, e) {
    const c = last !== null && last.e === e ? last : next.get(el);
    if (quick !== null) {
      c.ep = epoch;
      c.at = quick[quickAt++];
      listed++;
      return false;
    }
    const j = issued > 0 && c.ep === issuedAt ? c.at : -1;
    c.ep = epoch;
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

  // only returns, for a walk that can tell, the rows (their indices) that may differ
  // from the issued result the caller holds, n rows long: every other row of it stands,
  // at the same place. That is when the elements shown are the very list the issued
  // result was made of (seen), the arguments are the same (runs), and no entry is to be
  // made afresh but those of elements a quiet attribute change touched (upward): not
  // every entry, no subtree, no <option> (whose state the scan does not read). The walk
  // then visits only those rows; otherwise (null) it visits every row.
  function only(n) {
    if (!seen || runs === null || all || subtree.size > 0 || hasOption || n !== issuedN) return null;
    const at = [];
    for (const el of upward) {
      const c = cache.get(el);
      if (c !== undefined && c.ep === issuedAt) at.push(c.at);
    }
    at.sort((a, b) => a - b);
    // The runs reused() would make: old rows in place, fresh rows between.
    let pos = 0;
    for (let q = 0; q < at.length; q++) {
      if (at[q] > pos) runs.push(pos, at[q] - pos, 0);
      if (runs.length === 0) runs.push(0, 0, 1);
      else runs[runs.length - 1]++;
      pos = at[q] + 1;
    }
    if (pos < n) runs.push(pos, n - pos, 0);
    next = cache;
    epoch = issuedAt;
    quick = at;
    quickAt = 0;
    return at;
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
    typed = false;
    if (runs !== null) {
      out.base = issued;
      out.runs = runs;
    }
    issued = st.seq;
    issuedAt = epoch;
    if (quick === null) {
      issuedN = listed;
      hasOption = optionSeen;
    }
    optionSeen = false;
    quick = null;
    runs = null;
    out.seq = st.seq;
  }
  const EVENTS = ["input", "change", "reset", "submit", "focusin", "focusout", "mouseover", "mouseout",
    "transitionrun", "transitionend", "transitioncancel", "animationstart", "animationend",
    "animationiteration", "animationcancel", "beforetoggle", "toggle", "load", "error", "resize", "pageshow",
    "hashchange", "popstate", "fullscreenchange"];
  const OPTS = {subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true}; // (old: classes)
  const LISTEN = {capture: true, passive: true};

  function listen(target) {
    for (let i = 0; i < EVENTS.length; i++) target.addEventListener(EVENTS[i], mark, LISTEN);
  }

  // sheetsOf adds each sheet's rule count and disabled flag, and the sheet itself to
  // list: a sheet changed through the CSSOM (insertRule, replaceSync, disabled, another
  // adopted sheet) makes no mutation. The sheets a sheet imports (@import rules, which
  // come first) count as its own.
  function sheetsOf(sheets, parts, list) {
    if (!sheets) return;
    parts.push("n" + sheets.length);
    for (let i = 0; i < sheets.length; i++) sheetOf(sheets[i], parts, list, 0);
  }

  function sheetOf(sheet, parts, list, depth) {
    let rules = null;
    try {
      rules = sheet.cssRules;
    } catch (e) {
      rules = null; // a cross-origin sheet: its rules cannot be read, nor changed from here
    }
    list.push(sheet);
    parts.push("r" + (rules === null ? -1 : rules.length) + (sheet.disabled ? "d" : ""));
    if (rules === null || depth > 8) return;
    for (let j = 0; j < rules.length; j++) {
      const r = rules[j];
      if (r.type === IMPORT) {
        if (r.styleSheet) sheetOf(r.styleSheet, parts, list, depth + 1);
        else parts.push("i"); // (not loaded)
      } else if (r.type !== 0) {
        break; // (@layer statements, type 0, may come before imports)
      }
    }
  }
  const IMPORT = 3; // CSSRule.IMPORT_RULE

  // scan lists the open shadow roots (shadow-including tree order), a signature of the
  // state the walk reads that changes without a mutation (sig: the style sheets), and
  // whether the form controls and their states are those of the last walk (same).
  // It also keeps what the walk that may follow in the same task can use: each tree's
  // shadow hosts (hostsOf, for lib.collect) and each form control's state (ctls,
  // flags, values; at maps a control to its index, made when first needed).
  function scan(win, doc) {
    const roots = [];
    const trees = [doc];
    const hostsOf = new Map();
    const ctls = [], flags = [], values = [];
    const pc = st.ctls, pf = st.flags, pv = st.values;
    let same = true;
    const sheets = [], sheetParts = [];
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
        const el = k.ctls[i], kind = k.kinds[i];
        const f = flagsOf(el, kind);
        const v = valueOf(el, kind, f);
        const g = ctls.length;
        if (same && (pc[g] !== el || pf[g] !== f || pv[g] !== v)) same = false;
        ctls.push(el);
        flags.push(f);
        values.push(v);
      }
      sheetsOf(trees[t].styleSheets, sheetParts, sheets);
      sheetsOf(trees[t].adoptedStyleSheets, sheetParts, sheets);
    }
    treesOf = lists;
    restructured = false;
    const sheetSig = sheetParts.join(",");
    return {roots, sig: roots.length + "/" + sheetSig, sheets, sheetSig, same: same && ctls.length === pc.length, hostsOf, ctls, flags,
      values, at: null};
  }

  // Only these elements and custom elements (a "-" in the name) can have a shadow root
  // (attachShadow, declarative or not, refuses any other).
  const HOSTABLE = new Set(["article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "main", "nav", "p", "section", "span"]);

  // listTree lists a tree's elements that can host a shadow root, in tree order, and
  // its form controls: the elements named input, textarea or select, with their kind
  // (kept while no element is added or removed and no type attribute changes).
  function listTree(tree) {
    const els = tree.querySelectorAll("*");
    const hostable = [], ctls = [], kinds = [];
    for (let i = 0; i < els.length; i++) {
      const el = els[i];
      const n = el.localName;
      if (HOSTABLE.has(n) || n.includes("-")) {
        hostable.push(el);
      } else if (n === "input" || n === "textarea" || n === "select") {
        ctls.push(el);
        kinds.push(kindOf(el));
      }
    }
    return {hostable, ctls, kinds};
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
    if (warming !== null) warmEnd(); // (its entries are the last walk's)
    const doc = win.document;
    const key = keyOf(args);
    if (st.mo) {
      const recs = st.mo.takeRecords();
      if (recs.length > 0) note(recs);
    }
    const s = scan(win, doc);
    const ms = marksOf(win);
    if (ms !== marksAt) {
      // (the elements whose marks changed are described afresh, and what qualifies
      // collected again)
      const now = marksMap(win);
      if (marksAt !== -1) {
        st.dirty = reshaped = true;
        for (const [el, b] of now) if (lastMarks.get(el) !== b) upward.add(el);
        for (const el of lastMarks.keys()) if (!now.has(el)) upward.add(el);
      }
      marksAt = ms;
      lastMarks = now;
    }
    const url = String(win.location.href);
    const title = String(doc.title);
    const design = String(doc.designMode); // makes elements editable (or not) without a mutation
    if (!st.dirty && st.seq > 0 && (args.have === st.seq || readyFor(args, key)) && key === st.key && !args.includeAllText &&
        url === st.url && title === st.title && s.sig === st.sig && s.same && sameList(s.sheets, st.sheets) && design === st.design &&
        !animating(doc, s.roots)) {
      return true;
    }
    seen = shownLast !== null && !loud && !all && next === null && url === st.url && design === st.design && s.sig === st.sig && s.same &&
      sameList(s.sheets, st.sheets) && sameList(s.roots, lastRoots) && !animating(doc, s.roots) && calm(s, win.CSS);
    loud = false;
    quiet = [];
    watch(win, doc, s.roots);
    scanned = s;
    // A walk that never ended; hrefs resolve against the URL; editing hosts change.
    if (next !== null || url !== st.url || design !== st.design) all = true;
    next = new Map();
    last = null;
    listed = 0;
    epoch = ++epochs;
    quick = null; // (a walk that never ended may have left one)
    runs = issued > 0 && args.have === issued && key === st.key && !args.includeAllText ? [] : null;
    if (relabel || all || !sameList(s.roots, lastRoots)) refIds = labelledBy(doc, s.roots);
    relabel = false;
    if (all || !sameList(s.roots, lastRoots)) reshaped = true;
    lastRoots = s.roots;
    if (args.warm === true) st.key = null; // (the warm walk issues nothing)
    else {
      st.seq++;
      st.key = key;
    }
    st.dirty = false;
    st.url = url;
    st.title = title;
    st.design = design;
    st.sig = s.sig;
    st.sheets = s.sheets;
    st.ctls = s.ctls;
    st.flags = s.flags;
    st.values = s.values;
    return false;
  }

  // calm tells whether the quiet attribute changes since the last walk (quiet: each
  // element with the names of its aria-* and data-* attributes that changed, or with
  // "class" and the class names added or removed) cannot have changed any element's
  // style or layout, and so the visibility of any: no style sheet of the document or of
  // an open shadow root mentions any of those names, as they are or escaped as the CSSOM
  // writes them (in a selector, :has() and sibling combinators included, in [class]
  // or in attr()), nor does the changed element's inline style use attr(). Browsers' own
  // style sheets name no aria-* or data-* attribute, nor a class but for their own
  // anonymous content; none of these attributes has an effect of its own on rendering.
  // A closed shadow root's sheets cannot be read: a change on or below a
  // custom element without an open shadow root (it may have a closed one, whose
  // :host() or ::slotted() rules may name the attribute) is not calm. (Not told: a
  // closed shadow root on one of the standard elements that can host one, div, span,
  // section and the like, which nothing from the page realm can tell from none; nor
  // can any walk see into it.)
  function calm(s, css) {
    if (quiet.length === 0) return true;
    const text = textOf(s);
    if (text === null) return false;
    for (let i = 0; i < quiet.length; i += 2) {
      const el = quiet[i], names = quiet[i + 1];
      for (let j = 0; j < names.length; j++) {
        const n = names[j].toLowerCase();
        if (text.includes(n) || text.includes(css.escape(n))) return false;
      }
      const style = el.getAttribute("style");
      if (style !== null && style.toLowerCase().includes("attr(")) return false;
      for (let n = el; n; n = up(n)) {
        if (n.nodeType === 1 && n.localName.includes("-") && !n.shadowRoot) return false;
      }
    }
    return true;
  }

  // textOf is the text (lower case) of every style sheet scan s found, or null when one
  // cannot be read; read again only when the sheets or their signature differ.
  function textOf(s) {
    if (sheetText.sig === s.sheetSig && sameList(sheetText.sheets, s.sheets)) return sheetText.text;
    let text = "";
    for (let i = 0; i < s.sheets.length && text !== null; i++) {
      try {
        const rules = s.sheets[i].cssRules;
        for (let j = 0; j < rules.length; j++) text += rules[j].cssText + "\n";
      } catch (e) {
        text = null;
      }
    }
    sheetText = {sheets: s.sheets, sig: s.sheetSig, text: text === null ? null : text.toLowerCase()};
    return sheetText.text;
  }

  // labelledBy lists the ids that aria-labelledby names in the document and open shadow
  // roots (kept while no element was added or removed: an aria-labelledby changed makes
  // every entry afresh).
  function labelledBy(doc, roots) {
    const ids = new Set();
    for (const t of [doc].concat(roots)) {
      const named = t.querySelectorAll("[aria-labelledby]");
      for (let i = 0; i < named.length; i++) {
        for (const id of String(named[i].getAttribute("aria-labelledby")).split(/\s+/)) if (id) ids.add(id);
      }
      // (and the popups of comboboxes, whose options may give their value: lib's
      // chosenOption; what describes an element or gives its error: lib's errorOf)
      const popups = t.querySelectorAll('[aria-controls][role~="combobox" i],input[aria-controls]');
      for (let i = 0; i < popups.length; i++) {
        for (const id of String(popups[i].getAttribute("aria-controls")).split(/\s+/)) if (id) ids.add(id);
      }
      const described = t.querySelectorAll("[aria-describedby],[aria-errormessage]");
      for (let i = 0; i < described.length; i++) {
        for (const a of ["aria-describedby", "aria-errormessage"]) {
          for (const id of String(described[i].getAttribute(a) || "").split(/\s+/)) if (id) ids.add(id);
        }
      }
    }
    return ids;
  }

  // marksOf is the number of the listener marks on win (lib.marksSeq), read as data.
  const MARKS = Symbol.for("fxmcp-marks");
  function marksOf(win) {
    const d = Object.getOwnPropertyDescriptor(win, MARKS);
    const h = d && d.value;
    const n = h && typeof h === "object" ? Object.getOwnPropertyDescriptor(h, "seq") : undefined;
    return n && typeof n.value === "number" ? n.value : 0;
  }

  // marksMap is the listener marks on win as element → bits (lib.js readMarks).
  function marksMap(win) {
    const m = new Map();
    const d = Object.getOwnPropertyDescriptor(win, MARKS);
    const h = d && d.value;
    if (!h || typeof h !== "object" || !Array.isArray(h.nodes) || !Array.isArray(h.bits)) return m;
    for (let i = 0; i < h.nodes.length && i < h.bits.length; i++) m.set(h.nodes[i], h.bits[i]);
    return m;
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
    // (A fieldset's attribute changed, an element added or removed: subtree. A label,
    // its for, an id: every entry afresh.)
    if (!all && subtree.size === 0 && !typed && rootInfos !== null) lib.infos(rootInfos);
    rootInfos = lib.infos();
    if (statics !== null && !reshaped && staticsFrames === frames) {
      if (seen) return shownLast;
      const r = lib.shown(statics);
      shownLast = r;
      return r;
    }
    seen = false; // (only() asks whether the list is the last one)
    const list = [];
    const out = lib.collect(frames, scanned === null ? null : scanned.hostsOf, list);
    pointerRules = lib.hasPointerRules();
    statics = list;
    staticsFrames = frames;
    reshaped = false;
    shownLast = out;
    return out;
  }

  // warm readies, before any call walked the document, the result of its first read,
  // in steps: it makes the entries of the elements a walk describes (at most
  // args.maxElements; frames listed when the document has an iframe or frame element),
  // then walks with args (but warm, warmChunk and wait) as a call would, reusing them,
  // and keeps that result (ready). The entries are made as soon as the document is
  // interactive (its DOM complete), in its idle periods (requestIdleCallback) while it
  // waits for the rest of its load (images, scripts, data: a real site's load often
  // comes seconds later), and soon after the load (the work a first read right after it
  // would otherwise do whole): in idle periods or, when none comes within SOON ms, in
  // tasks of their own, at most SLICE ms of work each (IDLE_SLICE ms in an idle period
  // before the load; at most args.warmChunk entries when given: tests, whose steps all
  // wait for idle periods), so that a call arriving meanwhile waits little; the first
  // step, collecting the elements, cannot be split (before the load it waits for an idle
  // period of 10 ms). The walk, which cannot be split either, waits for the load (which
  // may change what it sees) and then for an idle period long enough for it; a read that
  // comes first walks itself, reusing the entries.
  // A call with the same arguments that holds no result (have) is given the result when
  // a {same} answer could be given for it: nothing since could have changed it (begin).
  // Any other first call walks, reusing the entries made by the same rules as between two
  // walks (a change while they are made is noted for the next walk, as after any walk,
  // and the later ones read live state, not the scan's). begin ends the warm walk
  // wherever it got. newLib makes a lib, walk(args) walks as a call does. Returns the
  // state after this call (a second call only tells it): "waiting" (for the load or a
  // step), "running" (making entries), "walking", "done", "skipped" (a call walked
  // first); with args.wait, once it is done or skipped, with the result readied (result)
  // if any.
  const SOON = 1, SLICE = 4, IDLE_SLICE = 15;
  function warm(win, args, newLib, walk) {
    const answer = () => {
      const a = {warm: warmState, entries: warmed, ready: ready !== null, frames: warmFrames};
      if (ready !== null && args.wait === true) a.result = ready.value;
      return a;
    };
    const now = () => {
      if (args.wait !== true || warmState === "done" || warmState === "skipped") return answer();
      return new win.Promise((resolve) => waiters.push(() => resolve(answer())));
    };
    if (warmState !== "none") return now();
    if (st.seq > 0 || typeof win.requestIdleCallback !== "function") {
      finish("skipped");
      return now();
    }
    const max = Number.isInteger(args.maxElements) && args.maxElements > 0 ? args.maxElements : 0;
    const chunk = Number.isInteger(args.warmChunk) && args.warmChunk > 0 ? args.warmChunk : 0;
    const walkArgs = {};
    for (const n of Object.keys(args)) if (n !== "warm" && n !== "warmChunk" && n !== "wait" && n !== "have" && n !== "pin") walkArgs[n] = args[n];
    let tries = 0, started = false; // (started: the walk)
    // One step is asked for at a time (pending: its id), soon (an idle period or a task
    // within SOON ms) or in an idle period only; soon replaces a pending idle one. With
    // warmChunk (tests pacing the steps) every step waits for an idle period.
    let pending = 0, pendingSoon = false;
    const ask = (soon) => {
      if (chunk > 0) soon = false;
      if (pending !== 0) {
        if (!soon || pendingSoon) return;
        win.cancelIdleCallback(pending);
      }
      pendingSoon = soon;
      pending = win.requestIdleCallback(run, soon ? {timeout: SOON} : {});
    };
    const run = (deadline) => {
      pending = 0;
      step(deadline);
    };
    // roomy: the idle period is long enough for a part that cannot be split (beginning,
    // the walk itself), or a step was asked for soon, or it has been waited for a few
    // times (idle periods between frames are short while the page is painted anew).
    const roomy = (deadline, ms) => deadline.timeRemaining() >= ms || deadline.didTimeout || tries++ >= 5;
    // A step that fails (a page that broke what the walk uses) ends the warm walk as it
    // is: a walk left under way (next) makes the next walk make every entry afresh.
    const step = (deadline) => {
      try {
        stepOnce(deadline);
      } catch (e) {
        warming = null;
        finish("done");
      }
    };
    const stepOnce = (deadline) => {
      if (warmState !== "waiting" && warmState !== "running" && (warmState !== "walking" || started)) return;
      if (win.closed || st.seq > 0) {
        // (a call walked first: what was made, it reused)
        finish(warmState === "waiting" ? "skipped" : "done");
        return;
      }
      const doc = win.document;
      if (warmState === "walking") {
        // (Not before the load, which may change what it sees: the load event asks.)
        if (doc.readyState !== "complete") return;
        if (!roomy(deadline, 20)) {
          ask(false);
          return;
        }
        let walked;
        started = true;
        try {
          walked = walk(walkArgs);
        } catch (e) {
          finish("done");
          return;
        }
        const seq = st.seq; // (the walk's: it numbered its result before its first await)
        walked.then((v) => {
          if (st.seq === seq && v && v.same === undefined) ready = {seq, value: v};
        }, () => {}).finally(() => finish("done"));
        return;
      }
      if (warming === null) {
        // Before the load (the document interactive: its DOM is complete) only in an idle
        // period long enough for it, never in a task of its own: a page waiting for its
        // images, scripts or data idles meanwhile. The load event asks soon.
        const loaded = doc.readyState === "complete";
        if (loaded ? !roomy(deadline, 10) : doc.readyState === "loading" || deadline.timeRemaining() < 10) {
          ask(loaded);
          return;
        }
        tries = 0;
        const lib = newLib();
        const frames = doc.querySelector("iframe,frame") !== null;
        if (frames) walkArgs.frames = warmFrames = true;
        begin(win, {warm: true, frames});
        // Every entry is made now (nothing is kept yet): what was stale is not; what
        // changes from here on is noted afresh.
        all = false;
        upward = new Set();
        subtree = new Set();
        typed = false;
        const els = collect(lib, frames);
        warming = {els, n: Math.min(els.length, max), i: 0, lib};
        warmState = "running";
        ask(doc.readyState === "complete");
        return;
      }
      scanned = null; // (a control's state is read as it is now, like its entry)
      const w = warming;
      // (Before the load, as much of the idle period as IDLE_SLICE allows: the page is
      // waiting for the rest of its load, and idle periods come seldom while it paints.)
      const slice = doc.readyState === "complete" ? SLICE : IDLE_SLICE;
      const end = win.performance.now() + (deadline.didTimeout ? SLICE : Math.min(slice, deadline.timeRemaining()));
      for (let k = 0; w.i < w.n; k++) {
        if (chunk > 0 ? k >= chunk : (k & 15) === 15 && win.performance.now() >= end) break;
        const el = w.els[w.i++];
        if (!el.isConnected) continue; // (removed since it was collected: the next walk collects again)
        entry(el, w.lib);
        warmed++;
      }
      if (w.i < w.n) {
        ask(doc.readyState === "complete"); // (before the load, in idle periods only)
        return;
      }
      warmState = "walking";
      warmEnd();
      ask(false);
    };
    warmState = "waiting";
    if (win.document.readyState === "complete") ask(true);
    else {
      ask(false);
      win.addEventListener("load", () => {
        if (warmState === "waiting" || warmState === "running" || warmState === "walking") ask(true);
      }, {once: true, passive: true});
    }
    return now();
  }

  // warmEnd ends the making of entries where it got: they are the ones the next walk may
  // reuse.
  function warmEnd() {
    cache = next;
    next = null;
    last = null;
    scanned = null;
    optionSeen = false;
    warming = null;
    if (warmState === "running") finish("done");
  }

  // finish ends the warm walk in state (done or skipped), answering the calls waiting.
  function finish(state) {
    warmState = state;
    const w = waiters;
    waiters = [];
    for (let i = 0; i < w.length; i++) w[i]();
  }

  // readyFor tells whether the result the warm walk readied may be given for a call with
  // args (whose key is key) that holds none, when nothing since could have changed it.
  function readyFor(args, key) {
    return ready !== null && ready.seq === st.seq && !args.have && key === st.key;
  }

  // take returns the result the warm walk readied, once, when begin (just now) found it
  // still stands for a call with args; else null.
  function take(args) {
    if (ready === null || !readyFor(args, keyOf(args))) return null;
    const v = ready.value;
    ready = null;
    return v;
  }

  // entryOf is the entry this walk holds for el (described, or kept by only()), or null.
  function entryOf(el) {
    const c = next.get(el);
    return c === undefined ? null : c.e;
  }

  // calm tells whether the walk under way shows the last walk's elements again (seen).
  return {begin, entry, entryOf, reused, only, done, collect, warm, take, calm: () => seen, seq: () => st.seq};
}
