function libAct(win, env, lib) {
  // The helpers only actions need, added to lib.js's (lib, made for the same window):
  // resolving and checking a target, trusted input, focus, values, pointer, timers.
  // A snapshot needs lib.js alone, which keeps the script a document's first snapshot
  // sends (and compiles) small. Like lib.js, it reaches the page only through win.
  const doc = win.document;
  const isolated = env.realm === "isolated";
  // The address before the action (this lib is made as its evaluation begins): an
  // action after which it differs changed the application's page (result's urlBefore).
  const urlBefore = String(win.location.href);
  const {fail, collapse, cap, attr, attrsOf, isHTML, isFileInput, visible, holderOf, soleControl, disabled, inert, inside, resolve, fields, fingerprint,
    editingHost, NAME_MAX, VALUE_MAX} = lib;
  const TEXT_INPUTS = new Set(["text", "search", "email", "url", "tel", "password", "number"]);

  const FP_FIELDS = ["tag", "role", "type", "name", "href"];

  // target resolves args.sel and checks it against args.fp (the snapshot's fields).
  function target(args) {
    const el = isolated && args.ref !== undefined ? boundTarget(args) : resolve(args.sel);
    const fp = args.fp;
    if (!fp || typeof fp !== "object") fail("invalid_argument", "fingerprint missing");
    const now = fingerprint(fields(el, attrsOf(el)));
    for (const f of FP_FIELDS) {
      if ((now[f] || "") !== (fp[f] || "")) {
        fail("stale_element", "the element changed since the snapshot (" + f + "); take a new snapshot");
      }
    }
    return el;
  }

  // boundTarget resolves args.sel and checks that it found the very node the snapshot
  // gave the id args.ref (bindRefs.js): a node that was removed, or replaced by another,
  // even an identical one, is stale.
  function boundTarget(args) {
    const reg = globalThis.fxmcpRefs;
    const st = reg && reg.get(env.innerWindowID);
    if (!st) fail("stale_element", "the page's refs are gone (its document changed); take a new snapshot");
    let el;
    try {
      el = resolve(args.sel);
    } catch (e) {
      if (e && e.code === "element_not_found") fail("stale_element", "the element was removed from the page since the snapshot; take a new snapshot");
      throw e;
    }
    if (st.refOf.get(env.Cu.waiveXrays(el)) !== args.ref) {
      fail("stale_element", "the element was replaced since the snapshot (another node, maybe identical, stands in its place); take a new snapshot");
    }
    return el;
  }

  // ---- acting ----

  function requireEnabled(el) {
    if (disabled(el)) fail("element_not_interactable", "the element is disabled");
    if (inert(el)) {
      fail("element_not_interactable", "the element is inert: a modal dialog or menu (or an inert region) keeps users from it; " +
        "close that first (Escape often does)");
    }
  }

  // nativeSetter returns the value setter of the element's own interface prototype,
  // bypassing instance properties a framework installed (React's value tracker).
  function setValue(el, value) {
    const tag = el.localName;
    const proto = tag === "textarea" ? win.HTMLTextAreaElement.prototype
      : tag === "select" ? win.HTMLSelectElement.prototype : win.HTMLInputElement.prototype;
    const d = Object.getOwnPropertyDescriptor(proto, "value");
    d.set.call(el, value);
  }

  function fire(el, type, init) {
    const opts = {bubbles: true, cancelable: false, composed: true};
    let ev;
    if (init) {
      for (const k of Object.keys(init)) opts[k] = init[k];
      ev = new win.InputEvent(type, opts);
    } else {
      ev = new win.Event(type, opts);
    }
    return el.dispatchEvent(ev);
  }

  // tip returns an nsITextInputProcessor bound to the window, or null when the
  // privileged realm or the interface is not available.
  function tip() {
    if (!isolated) return null;
    try {
      const c = env.Cc["@mozilla.org/text-input-processor;1"];
      if (!c) return null;
      const t = c.createInstance(env.Ci.nsITextInputProcessor);
      if (!t.beginInputTransactionForTests(win)) return null;
      return t;
    } catch (e) {
      return null;
    }
  }

  // presShellDispatch dispatches a trusted event through the pres shell (isolated realm),
  // so default actions happen; returns false when unavailable.
  // The pres shell refuses nodes in shadow trees (NS_ERROR_UNEXPECTED: they are not in
  // the document's own tree). There the event is dispatched from this system-principal
  // realm instead, which makes it trusted all the same; what Firefox would add for a
  // real press (user activation) is done by hand, and the click that follows a
  // mousedown/mouseup pair is the caller's to dispatch.
  function presShellDispatch(el, ev) {
    const u = win.windowUtils;
    if (!isolated || !u || typeof u.dispatchDOMEventViaPresShellForTesting !== "function") return false;
    if (el.getRootNode() !== doc) {
      if ((ev.type === "mousedown" || ev.type === "pointerdown") && typeof doc.notifyUserGestureActivation === "function") {
        doc.notifyUserGestureActivation();
      }
      el.dispatchEvent(ev);
      return true;
    }
    u.dispatchDOMEventViaPresShellForTesting(el, ev);
    return true;
  }

  // withoutFilePicker runs fn while every click that targets a file input is
  // default-prevented, so a click on a label of a file input, or a page handler calling
  // input.click() during our click, cannot open the OS file picker (use upload_files).
  // Isolated realm: a system-group listener, which the page cannot see or stop. Clicks the
  // page defers (setTimeout → input.click()) are not covered. The file inputs clicked
  // are pushed to seen, when given.
  function withoutFilePicker(fn, seen) {
    const opts = isolated ? {capture: true, mozSystemGroup: true} : {capture: true};
    let blocked = 0;
    const stop = (e) => {
      const t = e.target;
      if (t && t.localName === "input" && isFileInput(t)) {
        e.preventDefault();
        blocked++;
        if (seen) seen.push(t);
      }
    };
    win.addEventListener("click", stop, opts);
    try {
      fn();
    } finally {
      win.removeEventListener("click", stop, opts);
    }
    return blocked;
  }

  // clickAt clicks el as a person would: pointer and mouse events at its centre, trusted
  // through the pres shell when the isolated realm can (default actions included), else
  // synthetic with el.click(). Returns whether it was trusted.
  // (at: the viewport point to give the events, hitPoint's; else el's centre once it
  // is scrolled into view.)
  function clickAt(el, at) {
    let x, y;
    if (at) {
      x = at.x;
      y = at.y;
    } else {
      el.scrollIntoView({block: "nearest", inline: "nearest", behavior: "instant"});
      const r = el.getBoundingClientRect();
      x = r.left + r.width / 2;
      y = r.top + r.height / 2;
    }
    // Trusted events get their screen point too (screenAt); the page realm's do not, as
    // el.click() gives its click none, and a label takes a press whose click lands more
    // than 2 px from it for a text selection (it then leaves its control alone).
    const base = Object.assign({bubbles: true, cancelable: true, composed: true, view: win, button: 0, clientX: x, clientY: y},
      isolated ? screenAt(x, y, el.getRootNode() === doc) : null);
    // A mouse's events: a pressed button's pressure is 0.5, and (isolated realm:
    // initNSMouseEvent) the mouse is their input source, so the click Firefox makes of a
    // press and a release says pointerType "mouse" (and React Aria does not take it for a
    // screen reader's "virtual" click, mozInputSource 0).
    const mouse = (type, buttons, detail) => {
      const e = new win.MouseEvent(type, Object.assign({}, base, {buttons, detail}));
      if (isolated && typeof e.initNSMouseEvent === "function") {
        e.initNSMouseEvent(type, true, true, win, detail, base.screenX, base.screenY, x, y, false, false, false, false, 0, null, buttons ? 0.5 : 0, 1);
      }
      return e;
    };
    const pointer = (type, buttons) => new win.PointerEvent(type,
      Object.assign({}, base, {buttons, pointerId: 0, pointerType: "mouse", isPrimary: true, pressure: buttons ? 0.5 : 0}));
    const trusted = isolated && presShellDispatch(el, pointer("pointermove", 0));
    if (!trusted) {
      delete base.screenX;
      delete base.screenY;
      el.dispatchEvent(pointer("pointerdown", 1));
      el.dispatchEvent(mouse("mousedown", 1, 1));
      if (typeof el.focus === "function") el.focus();
      el.dispatchEvent(pointer("pointerup", 0));
      el.dispatchEvent(mouse("mouseup", 0, 1));
      if (typeof el.click === "function") el.click();
      else el.dispatchEvent(mouse("click", 0, 1));
      return false;
    }
    presShellDispatch(el, pointer("pointerdown", 1));
    presShellDispatch(el, mouse("mousedown", 1, 1));
    if (typeof el.focus === "function") el.focus();
    presShellDispatch(el, pointer("pointerup", 0));
    // A trusted mouseup after a trusted mousedown on the same element makes Firefox
    // synthesize the click itself (measured): dispatching another would click twice.
    // A system-group listener (pages cannot stop it) tells whether that happened.
    let clicked = false;
    const saw = () => { clicked = true; };
    win.addEventListener("click", saw, {capture: true, mozSystemGroup: true});
    try {
      presShellDispatch(el, mouse("mouseup", 0, 1));
    } finally {
      win.removeEventListener("click", saw, {capture: true, mozSystemGroup: true});
    }
    if (!clicked) presShellDispatch(el, mouse("click", 0, 1));
    return true;
  }

  // screenAt gives the screen coordinates of a viewport point, for an event made here.
  // The pres shell (viaShell) takes an event's position from them alone, as its widget
  // point in device pixels, and computes clientX/clientY from that: without them the
  // page read clientX 0 and clientY minus the toolbars' height on every click (measured,
  // and checked with the window moved and the page zoomed: TestFirefoxClickCoordinates),
  // and a library that compares positions (Radix's select ignores the release of the
  // press that opened it, within 10 px) did nothing. An event dispatched without it
  // keeps its clientX/clientY and reads screenX/screenY as CSS pixels. (A frame inside a
  // transformed element is placed on the screen without the transform, which the pres
  // shell applies: such a frame's points are off by it.)
  function screenAt(x, y, viaShell) {
    const dpr = viaShell ? win.devicePixelRatio || 1 : 1;
    return {screenX: Math.round((win.mozInnerScreenX + x) * dpr), screenY: Math.round((win.mozInnerScreenY + y) * dpr)};
  }

  // fileChooserFor finds the file input a person's click on el would open the file
  // chooser for: el itself, the control of a label, or, for anything else (a button whose
  // handler calls input.click() or input.showPicker() on an input elsewhere, even one not
  // in the document), the input the page targets while el is clicked. During that click
  // every file input's click() and showPicker() on the page's prototype are replaced by
  // recorders and clicks on file inputs are default-prevented, so no chooser ever opens.
  // Returns {input, via: "input" | "label" | "click"}.
  function fileChooserFor(el) {
    if (isFileInput(el)) return {input: el, via: "input"};
    const c = isHTML(el) && el.localName === "label" ? el.control : null;
    if (c && isFileInput(c)) return {input: c, via: "label"};
    requireEnabled(el);
    if (!visible(el)) fail("upload_target_invalid", "the element is neither a file input nor visible to click");
    const tag = el.localName, type = String(el.type || "").toLowerCase();
    if (isHTML(el) && (((tag === "button" || tag === "input") && (type === "submit" || type === "reset" || type === "image") && el.form) ||
        ((tag === "a" || tag === "area") && el.hasAttribute("href")))) {
      fail("upload_target_invalid", "the element is a link or a submit or reset button, not a file input or a control that opens a file chooser");
    }
    const seen = [];
    const restore = recordPickers(seen);
    // Belt and braces: nothing our click reaches may submit a form.
    const opts = isolated ? {capture: true, mozSystemGroup: true} : {capture: true};
    const noSubmit = (e) => e.preventDefault();
    win.addEventListener("submit", noSubmit, opts);
    try {
      withoutFilePicker(() => clickAt(el), seen);
    } finally {
      win.removeEventListener("submit", noSubmit, opts);
      restore();
    }
    const inputs = seen.filter((x, i) => seen.indexOf(x) === i);
    // No chooser: the element may be a drop zone (uploadBegin asks it, fileDrag).
    if (inputs.length === 0) return {input: null, via: "drop", target: el};
    if (inputs.length > 1) fail("upload_target_invalid", "clicking the element targeted more than one file input; use the file input's ref");
    return {input: inputs[0], via: "click"};
  }

  // recordPickers replaces HTMLInputElement.prototype.click and showPicker, as the page
  // sees them, by functions that record a file input in seen and do nothing else (other
  // inputs behave as before); the returned function puts the originals back.
  function recordPickers(seen) {
    const proto = isolated ? win.wrappedJSObject.HTMLInputElement.prototype : win.HTMLInputElement.prototype;
    const undo = [];
    const exportFn = isolated ? env.Cu.exportFunction : null; // into the page's compartment
    for (const name of ["click", "showPicker"]) {
      const orig = proto[name];
      if (typeof orig !== "function") continue;
      const fn = function () {
        if (isFileInput(this)) {
          seen.push(isolated ? env.Cu.unwaiveXrays(this) : this);
          return undefined;
        }
        return orig.apply(this, arguments);
      };
      proto[name] = exportFn ? exportFn(fn, proto) : fn;
      undo.push(() => { proto[name] = orig; });
    }
    return () => { for (const u of undo) u(); };
  }

  function textEntry(el) {
    if (!isHTML(el)) return editingHost(el) ? "editable" : "";
    const tag = el.localName;
    if (tag === "textarea") return "multi";
    if (tag === "input") return TEXT_INPUTS.has(String(el.type).toLowerCase()) ? "single" : "";
    return editingHost(el) ? "editable" : "";
  }

  // caretToEnd puts the caret after the element's current content. In an editing host,
  // that is the end of its last text (inside the last block: rich editors such as Quill
  // and ProseMirror keep a caret placed after their last block on a new empty line), or
  // before the <br> that holds an empty last block open.
  function caretToEnd(el) {
    const kind = textEntry(el);
    if (kind === "single" || kind === "multi") {
      const n = String(el.value).length;
      try {
        el.setSelectionRange(n, n);
      } catch (e) {
        // email and number inputs have no selection API; their caret is at the end anyway.
      }
    } else if (kind === "editable") {
      const s = win.getSelection();
      const r = doc.createRange();
      // Down the last children, stopping at text, a <br>, an element that holds no
      // caret (img, hr, …) and a non-editable widget (the caret goes after those).
      let node = el;
      for (let last = lastContent(node); last; last = lastContent(node)) {
        node = last;
        if (node.nodeType === 3 || !node.isContentEditable || NO_CARET.has(node.localName)) break;
      }
      if (node.nodeType === 3) r.setStart(node, node.length);
      else if (node === el) r.setStart(el, el.childNodes.length);
      else if (node.localName === "br") r.setStartBefore(node);
      else if (!node.isContentEditable || NO_CARET.has(node.localName)) r.setStartAfter(node);
      else r.setStart(node, node.childNodes.length);
      r.collapse(true);
      s.removeAllRanges();
      s.addRange(r);
    }
  }

  const NO_CARET = new Set(["br", "img", "hr", "input", "video", "audio", "iframe", "canvas", "svg", "math"]);

  // lastContent is node's last child that is an element or a text node with more than
  // white space (the indentation between blocks of hand-written markup).
  function lastContent(node) {
    for (let c = node.lastChild; c; c = c.previousSibling) {
      if (c.nodeType === 1 || (c.nodeType === 3 && /\S/.test(c.data))) return c;
    }
    return null;
  }

  function deepActive() {
    let a = doc.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }

  // focus focuses el and checks that it holds the focus, so that keys and text sent to
  // "the focused element" cannot land anywhere else.
  function focus(el) {
    if (typeof el.focus === "function") el.focus();
    const a = deepActive();
    if (a !== el && !(a && editingHost(el) && el.contains(a))) {
      fail("element_not_interactable", "the element could not be focused");
    }
  }

  function focusedDescription() {
    const a = deepActive();
    if (!a || a === doc.body || a === doc.documentElement) return "";
    const tag = a.localName;
    const f = fields(a, attrsOf(a));
    return (f.role || f.tag) + (f.name ? ' "' + f.name + '"' : "");
  }

  // uploadTarget checks a file input for an upload of files ([{name, type}]) and returns
  // warnings for files its accept attribute does not seem to allow.
  function uploadTarget(el, files) {
    if (!isFileInput(el)) fail("upload_target_invalid", "the element is not a file input");
    if (disabled(el)) fail("upload_target_invalid", "the file input is disabled");
    if (files.length > 1 && !el.multiple) fail("upload_target_invalid", "the file input accepts one file");
    const warnings = [];
    const accept = attr(el, "accept");
    if (!accept) return warnings;
    const tokens = accept.toLowerCase().split(",").map(t => t.trim()).filter(t => t);
    for (const f of files) {
      const name = String(f.name).toLowerCase();
      const type = String(f.type || "").toLowerCase();
      const ok = tokens.some(t => t.startsWith(".") ? name.endsWith(t)
        : t.endsWith("/*") ? type.startsWith(t.slice(0, -1)) : type === t);
      if (!ok) warnings.push(cap(f.name, NAME_MAX) + " does not match accept=" + cap(accept, NAME_MAX));
    }
    return warnings;
  }

  // ---- pointer ----

  // hitPoint scrolls el into view (nearest) and returns a viewport point inside it that
  // hit-testing gives to el (or to something inside it): its centre, else another point
  // of its first box; covered when none is, so an action would reach another element.
  // When the nearest scroll leaves it covered at every point, it is scrolled to the
  // middle of the view and tried again: a sticky header or footer covers an element
  // scrolled only as far as the edge. With at (a point a frame's parent documents left
  // uncovered, framePoint.js and frameReach.js), that point is used, without scrolling,
  // while it is still on el and reaches it (else the search above: the page moved).
  function hitPoint(el, at) {
    if (at && Number.isFinite(at.x) && Number.isFinite(at.y)) {
      const r = (holderBox(el) || el).getBoundingClientRect();
      const onIt = at.x >= r.left && at.x < r.right && at.y >= r.top && at.y < r.bottom;
      if (onIt && reachesAt(hitRoot(el).elementFromPoint(at.x, at.y), el)) return {x: at.x, y: at.y, covered: false};
    }
    const p = pointIn(el, "nearest");
    return p.covered ? pointIn(el, "center") : p;
  }

  // reachable waits, while the page moves, for el to become reachable: not inert and,
  // with hit, not covered (hitPoint, asked again; it returns the last answer, or null
  // without hit); with coverOnly, inertness is not waited for. A popup on its way out
  // keeps the page from users until the page removes it: the invisible backdrop of a Material UI menu while the menu fades out
  // (≈240 ms), the aria-hidden that its dialog leaves on the page until its fade ends, a
  // modal's fading backdrop; the removal can come a few milliseconds after the fade has
  // ended. It looks again every STILL_STEP ms while a finite animation of the document
  // runs or the DOM changed in the last STILL_QUIET ms, for STILL_CAP ms at most; on a
  // page that does not move (a cookie wall, an open dialog) it gives up after
  // STILL_FIRST ms. The caller then refuses what is still blocked.
  const STILL_STEP = 20, STILL_QUIET = 100, STILL_FIRST = 60, STILL_CAP = 1000;
  async function reachable(el, at, hit, coverOnly) {
    let p = hit ? hitPoint(el, at) : null;
    const blocked = () => (p !== null && p.covered) || (!coverOnly && inert(el));
    if (!blocked()) return p;
    const now = () => win.performance.now();
    const start = now();
    let changed = start - STILL_QUIET + STILL_FIRST;
    const mo = new win.MutationObserver(() => {
      changed = now();
    });
    mo.observe(doc, {subtree: true, childList: true, attributes: true});
    try {
      for (;;) {
        if (animating()) changed = now();
        if (now() - start >= STILL_CAP || now() - changed >= STILL_QUIET) break;
        await wait(STILL_STEP);
        if (!el.isConnected) break;
        if (hit) p = hitPoint(el, at);
        if (!blocked()) break;
      }
    } finally {
      mo.disconnect();
    }
    if (!el.isConnected) fail("stale_element", "the element left the page while it could not be reached; take a new snapshot");
    return p;
  }

  // enabledWhenReachable is reachable without a hit test, then requireEnabled: for actions
  // that reach el by the keyboard (fill, typing, a key, a select) and for drag's source,
  // whose points drag tests itself.
  async function enabledWhenReachable(el) {
    await reachable(el, null, false);
    requireEnabled(el);
  }

  // animating tells whether an animation or transition of the document that ends runs
  // (or is about to: pending); a spinner's endless one does not count.
  function animating() {
    if (typeof doc.getAnimations !== "function") return false;
    const list = doc.getAnimations();
    for (let i = 0; i < list.length; i++) {
      const a = list[i];
      if ((a.playState === "running" || a.pending) && a.effect && Number.isFinite(a.effect.getComputedTiming().endTime)) return true;
    }
    return false;
  }

  function pointIn(el, at) {
    const list = hitPoints(el, at, 1);
    if (list.length > 0) return {x: list[0].x, y: list[0].y, covered: false};
    const r = boxOf(el);
    return {x: r.left + r.width / 2, y: r.top + r.height / 2, covered: true};
  }

  // hitPoints scrolls el into view (block and inline: at) and lists the points of its
  // first box, of those tried (centre first), that hit-testing gives to el: the first
  // max of them (all without max). An input with no area is aimed at through the box
  // that holds it (holderBox).
  function hitPoints(el, at, max) {
    const box = holderBox(el) || el;
    box.scrollIntoView({block: at, inline: at, behavior: "instant"}); // (not smooth: hit-tested at once)
    const r = boxOf(box);
    const from = hitRoot(el);
    const fx = [0.5, 0.25, 0.75, 0.5, 0.5, 0.1, 0.9];
    const fy = [0.5, 0.5, 0.5, 0.25, 0.75, 0.5, 0.5];
    const out = [];
    for (let i = 0; i < fx.length; i++) {
      const x = r.left + r.width * fx[i];
      const y = r.top + r.height * fy[i];
      if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) continue;
      if (reachesAt(from.elementFromPoint(x, y), el)) out.push({x, y});
      if (out.length === max) break;
    }
    return out;
  }

  // hitRoot is where to hit-test for el: its tree (a shadow root's hit test is retargeted
  // to that tree), else the document.
  function hitRoot(el) {
    const root = el.getRootNode();
    return typeof root.elementFromPoint === "function" ? root : doc;
  }

  function boxOf(el) {
    const rects = el.getClientRects();
    const r = rects.length > 0 ? rects[0] : el.getBoundingClientRect();
    return r.width === 0 || r.height === 0 ? el.getBoundingClientRect() : r; // (an inline box around a block)
  }

  // reachesAt is reaches, for an input with no area also through the box that holds it.
  function reachesAt(node, el) {
    if (reaches(node, el)) return true;
    const box = holderBox(el);
    return box !== null && reaches(node, box);
  }

  // holderBox is lib's holderOf(el), the box that shows an input with no area, when a
  // click on it is one on the input: the box holds no other control, and it is in a
  // label of the input, or it or a box around it holding no other control (at most
  // OWN_UP levels up) listens for presses (Element Plus's switch: its box's click
  // handler). Else null: nothing takes such a click.
  function holderBox(el) {
    const h = holderOf(el);
    if (h === null || !soleControl(h, el)) return null;
    for (let n = h; n !== null && n !== doc.body; n = n.parentElement) {
      if (n.localName === "label" && isHTML(n) && n.control === el) return h;
    }
    for (let c = h, k = 0; c !== null && k < OWN_UP && c !== doc.body && soleControl(c, el); k++, c = c.parentElement) {
      if (listens(c)) return h;
    }
    return null;
  }

  // reaches tells whether a pointer event on node (what hit-testing found) reaches el: node
  // is el or inside it, or inside a label of el (a click on a label is a click on its
  // control; custom checkboxes hide the input under their label), or an ancestor of el
  // below the body: nothing covers el there, it only takes no hit at that point (the
  // unpainted part of an SVG icon's box, a ring chart's hole); or, el a text field or a
  // combobox, node is in the box of el's widget: the nearest ancestor of el (at most
  // OWN_UP levels up, below the body) that holds node, when it, or a box around it
  // (within OWN_UP levels of el) that also holds no other control, listens for presses
  // (what a select lays over its field, its placeholder or its chips: Element Plus's,
  // whose box takes the click). A veil over a button, or a mask over a field in a box
  // that does not listen, still covers it. Only the isolated realm sees listeners
  // (Firefox's event listener service): the page realm has no such widget box.
  const OWN_UP = 3;
  function reaches(node, el) {
    if (inside(node, el)) return true;
    if (node && node !== doc.body && node !== doc.documentElement && node.nodeType === 1 && inside(el, node)) return true;
    for (let n = node; n; n = n.parentNode || n.host) {
      if (n.nodeType === 1 && isHTML(n) && n.localName === "label" && n.control === el) return true;
    }
    if (!node || node.nodeType !== 1 || !fieldLike(el)) return false;
    let a = el.parentElement, k = 0;
    for (; a !== null && k < OWN_UP && a !== doc.body && a !== doc.documentElement; k++, a = a.parentElement) {
      if (inside(node, a)) break;
    }
    for (; a !== null && k < OWN_UP && a !== doc.body && a !== doc.documentElement && soleControl(a, el); k++, a = a.parentElement) {
      if (listens(a)) return true;
    }
    return false;
  }

  // fieldLike tells whether el is a text field or a combobox: what a widget lays its
  // placeholder or choice over.
  const NOT_FIELDS = new Set(["checkbox", "radio", "button", "submit", "reset", "image", "file", "range", "color", "hidden"]);
  function fieldLike(el) {
    const tag = el.localName;
    if (isHTML(el) && tag === "input") return !NOT_FIELDS.has(String(el.type).toLowerCase());
    if (isHTML(el) && tag === "textarea") return true;
    const role = String(el.getAttribute("role") || "").trim().split(/\s+/)[0].toLowerCase();
    return role === "combobox" || role === "textbox" || role === "searchbox";
  }

  // listens tells whether the page listens on n for a press or a click (a listener of
  // its own, not Firefox's system group), as Firefox's event listener service lists them
  // (isolated realm only; never in the page realm).
  const PRESSES = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup"]);
  let listenerService;
  function listens(n) {
    if (listenerService === undefined) {
      listenerService = null;
      try {
        if (isolated && env.Cc && env.Ci) listenerService = env.Cc["@mozilla.org/eventlistenerservice;1"].getService(env.Ci.nsIEventListenerService);
      } catch (e) {
        listenerService = null;
      }
    }
    if (listenerService === null) return false;
    try {
      const list = listenerService.getListenerInfoFor(n);
      for (let i = 0; i < list.length; i++) if (PRESSES.has(list[i].type) && !list[i].inSystemEventGroup) return true;
    } catch (e) {
      return false;
    }
    return false;
  }


  // mouse returns a function (type, x, y, buttons) that synthesizes a trusted mouse
  // event at a viewport point through Firefox's widget-event path (Window's chrome-only
  // synthesizeMouseEvent, as EventUtils does: hit-testing, hover state, pointer events,
  // enter/leave, click synthesis), or null outside the isolated realm.
  function mouse() {
    if (!isolated || typeof win.synthesizeMouseEvent !== "function") return null;
    return (type, x, y, buttons) => win.synthesizeMouseEvent(type, x, y,
      {button: 0, buttons: buttons || 0, clickCount: type === "mousemove" ? 0 : 1, modifiers: 0, inputSource: 1},
      {isDOMEventSynthesized: false, isWidgetEventSynthesized: false});
  }

  // moveReady moves the pointer to the viewport point x,y with send (mouse()'s) and
  // resolves true once Firefox has taken the move, false if it did not within
  // READY_MS. Firefox drops trusted input from the widget path until a newly loaded
  // document has had 3 refresh ticks and 100 ms since it began loading (a clickjacking
  // guard: PresShell::CanHandleUserInputEvents, prefs dom.input_events.security.*,
  // which automation frameworks set to 0; we change no preferences). A press sent in
  // that window is lost without a trace: a drag right after a navigation moved nothing
  // (measured: TestDndKitSortable, four runs in ten, the page saw no pointerdown). Once
  // the document has taken one event it takes all, so an action's first move is sent
  // again every 10 ms until a system-group listener on the window (which the page
  // cannot stop) sees it arrive. The move lands where the action starts anyway.
  const READY_MS = 1000;
  const inputNotTaken = "Firefox did not take trusted pointer input in this document within 1 s (it holds input back for a moment after a page loads); nothing was pressed, try again";
  async function moveReady(send, x, y) {
    const sys = {capture: true, mozSystemGroup: true};
    let seen = false;
    const saw = () => { seen = true; };
    win.addEventListener("mousemove", saw, sys);
    win.addEventListener("pointermove", saw, sys);
    try {
      const end = Date.now() + READY_MS;
      for (;;) {
        send("mousemove", x, y, 0);
        if (seen || Date.now() >= end) return seen;
        await wait(10);
      }
    } finally {
      win.removeEventListener("mousemove", saw, sys);
      win.removeEventListener("pointermove", saw, sys);
    }
  }

  // wait resolves after ms (a chrome timer in the isolated realm, where handing a
  // privileged callback to the page's setTimeout would not do).
  function wait(ms) {
    if (isolated && env.Cc) {
      const timer = env.Cc["@mozilla.org/timer;1"].createInstance(env.Ci.nsITimer);
      return new Promise(r => timer.initWithCallback({notify: () => r()}, ms, env.Ci.nsITimer.TYPE_ONE_SHOT));
    }
    return new Promise(r => win.setTimeout(r, ms));
  }

  // watchTimers starts watching the page's timers for the settle after a text entry
  // (fill and type_text on a text field, press_key in one; isolated realm only), or a
  // click, a hover or a key pressed on no text field (for when it changed nothing: see
  // changes): a
  // debounced handler, a search that filters or fetches 100–300 ms after the last key
  // (intl-tel-input's country search, most autocompletes), sets a timer on each key and
  // changes nothing until it runs, so a settle that only watched the DOM and requests
  // ended before it. The watch is a DebuggerNotificationObserver on the window
  // (Firefox's own, as DevTools' timer breakpoints use; the page cannot see it). Each
  // notification gets the next number (seq): set is the last timer the page set while
  // the watch is open (from the entry to its settle's start), clear its last
  // clearTimeout, pre the first timer callback that began after that set, post the last
  // that ended. settle.js takes it from this sandbox's global (fxmcpTimers, per inner
  // window) when it began after the action did (began, the epoch ms), closes it and
  // disconnects it at its end; it ends by itself after WATCH_MS. A later chunk of the
  // same typing renews the running watch, so a timer set by an earlier chunk's keys
  // still counts. own, skip and prePrev keep the settle's own timers on the page's
  // window out (settle.js ownTimer): own is set while it sets one, skip counts those
  // that ran, and one that begins puts pre back (prePrev).
  // Timers Firefox's own code (its window actors: GenAIChild sets a 200 ms one on every
  // mouseup) or an extension's content script sets on the page's window are not the
  // page's: the caller of setTimeout says whose it is (byPage).
  const WATCH_MS = 10000;
  const NOT_PAGE = /^(resource|chrome|moz-extension):/;
  function byPage() {
    try {
      // (The first frame that is not this sandbox's own code, the listener's: its
      // script address is this function's, the one the server's evaluations run as.)
      const own = String(Components.stack.filename);
      for (let f = Components.stack; f; f = f.caller) {
        const name = String(f.filename);
        if (name !== own && name !== "") return !NOT_PAGE.test(name);
      }
    } catch (e) {}
    return true;
  }
  function watchTimers() {
    if (!isolated || !env.Cc || typeof win.DebuggerNotificationObserver !== "function") return;
    let reg = globalThis.fxmcpTimers;
    if (!reg) {
      reg = new Map();
      Object.defineProperty(globalThis, "fxmcpTimers", {value: reg});
    }
    let w = reg.get(env.innerWindowID);
    if (!w) {
      let obs;
      try {
        obs = new win.DebuggerNotificationObserver();
      } catch (e) {
        return;
      }
      const watch = {obs, open: true, began: 0, seq: 0, set: 0, clear: 0, pre: 0, prePrev: 0, post: 0, own: 0, skip: 0, timer: null, end: null};
      obs.addListener((n) => {
        try {
          const k = ++watch.seq;
          switch (n.type) {
            case "setTimeout":
              if (watch.own === 0 && watch.open && byPage()) watch.set = k;
              break;
            case "clearTimeout":
              if (watch.open && byPage()) watch.clear = k;
              break;
            case "setTimeoutCallback":
              if (n.phase === "pre") {
                if (watch.pre <= watch.set) {
                  watch.prePrev = watch.pre;
                  watch.pre = k;
                }
              } else if (n.phase === "post") {
                if (watch.skip > 0) watch.skip--;
                else watch.post = k;
              }
              break;
          }
        } catch (e) {}
      });
      try {
        obs.connect(win);
      } catch (e) {
        return;
      }
      watch.end = () => {
        if (watch.timer) watch.timer.cancel();
        try {
          obs.disconnect(win);
        } catch (e) {}
        if (reg.get(env.innerWindowID) === watch) reg.delete(env.innerWindowID);
      };
      w = watch;
      reg.set(env.innerWindowID, w);
    }
    w.open = true;
    w.began = Date.now();
    if (w.timer) w.timer.cancel();
    w.timer = env.Cc["@mozilla.org/timer;1"].createInstance(env.Ci.nsITimer);
    w.timer.initWithCallback({notify: () => w.end()}, WATCH_MS, env.Ci.nsITimer.TYPE_ONE_SHOT);
  }

  // changes starts watching the document and the shadow roots el is in for mutations,
  // and el's checkedness (a checkbox's or radio button's change is no mutation); its
  // changed() tells whether any came since, and stops the watch. A click, hover or key
  // that changed nothing while it was dispatched says so (changed: false), and the settle
  // after it holds for the timers it set while the page still shows no change
  // (settle.js args.unchanged: a menu opened, a dialog shown on a timer). (Not every
  // open shadow root: finding them all costs a walk of the page, ≈ 10 ms on the
  // 3,000-element page. A component's own renders come after the dispatch anyway, and
  // the settle watches every root.)
  // An attribute or text set to the value it had is no change (Tippy.js sets the
  // reference's aria-expanded again on the click that schedules its menu).
  // (Anything that fails here says "changed": the settle is then what it was before.)
  function changes(el) {
    let mo, was;
    try {
      mo = new win.MutationObserver(() => {});
      const opts = {subtree: true, childList: true, attributes: true, characterData: true, attributeOldValue: true, characterDataOldValue: true};
      mo.observe(doc, opts);
      for (let r = el.getRootNode(); r && r !== doc && r.host; r = r.host.getRootNode()) mo.observe(r, opts);
      was = el.checked;
    } catch (e) {
      if (mo) mo.disconnect();
      return {changed: () => true};
    }
    const differs = (r) => r.type === "childList" ||
      (r.type === "attributes" ? r.oldValue !== r.target.getAttributeNS(r.attributeNamespace, r.attributeName) : r.oldValue !== r.target.data);
    return {
      changed() {
        try {
          const recs = mo.takeRecords();
          mo.disconnect();
          return recs.some(differs) || el.checked !== was;
        } catch (e) {
          return true;
        }
      },
    };
  }

  // ---- dropping files ----

  // fileDrag drags files (File objects of the page) onto el as a person's drag from the
  // desktop would, at a point that reaches it (the element there receives the events,
  // which bubble to el): enter() and over() answer whether a handler accepted (called
  // preventDefault, without which a browser offers no drop), leave() undoes a drag that
  // is not dropped, drop() drops and answers whether a handler took it. From the
  // isolated realm the events are trusted.
  function fileDrag(el, files) {
    const dt = new win.DataTransfer();
    if (isolated) {
      // Firefox hides items that system-principal code added from the page (getAsFile()
      // is null, files is empty): the items are added by a constant function running
      // with the page's own principal, in a sandbox that sees the page's DOM through
      // Xrays (not the page's globals, which it may have patched).
      const sb = env.Cu.Sandbox(win, {sandboxPrototype: win, wantXrays: true, sameZoneAs: win});
      const add = env.Cu.evalInSandbox("(function (dt, f) { dt.items.add(f); })", sb);
      for (const f of files) add(dt, env.Cu.cloneInto(f, sb));
    } else {
      for (const f of files) dt.items.add(f);
    }
    dt.dropEffect = "copy";
    const p = hitPoint(el);
    let at = hitRoot(el).elementFromPoint(p.x, p.y);
    if (!at || !reachesAt(at, el)) at = el;
    // Firefox's own handlers accept a trusted drag of files anywhere (to open them in the
    // tab): only the page's preventDefault counts (defaultPreventedByContent, which the
    // privileged realm can read).
    const send = (type, cancelable) => {
      const ev = new win.DragEvent(type, {bubbles: true, cancelable, composed: true, clientX: p.x, clientY: p.y,
        screenX: win.mozInnerScreenX + p.x, screenY: win.mozInnerScreenY + p.y, dataTransfer: dt});
      at.dispatchEvent(ev);
      return isolated ? ev.defaultPreventedByContent === true : ev.defaultPrevented;
    };
    return {enter: () => send("dragenter", true), over: () => send("dragover", true),
      leave: () => send("dragleave", false), drop: () => send("drop", true)};
  }

  // dropOffered checks, before any byte is sent, that el takes a drop of files named and
  // typed like these: a drag of empty stand-ins enters and hovers over it, and is left
  // again. A zone that accepts only when its files have content is not covered.
  function dropOffered(el, files) {
    requireEnabled(el);
    const drag = fileDrag(el, files.map(f => new win.File([], f.name, {type: String(f.type || "")})));
    drag.enter();
    const ok = drag.over();
    drag.leave();
    if (!ok) {
      fail("upload_target_invalid", "the element is not a file input, clicking it opened no file chooser, " +
        "and it does not take dropped files (no dragover handler accepted them); " +
        "a page that opens a chooser later, after a delay, is not covered: use the file input's ref");
    }
  }

  // fillPlan checks that el takes value as fill sets it (fill.js, fillForm.js) and returns
  // {apply(watch)}, which sets it; the check changes nothing, so a caller can check every
  // field before it writes any. Text inputs and textareas take a string through the
  // native value setter of their prototype (so a framework's value tracker sees the
  // change), then bubbling input and change. Selects take the option whose value, else
  // whose label (exact, then case-insensitive), equals the string. Editable regions take
  // plain text, committed through nsITextInputProcessor where there is one. Checkboxes
  // and radios (toggles: fill_form) take true or false and are clicked when they differ
  // (el.click(): trusted in the isolated realm, the page's handlers and a radio group's
  // rules as for a click on its label); a checked radio cannot be unchecked. Buttons and
  // file inputs are refused. apply returns {trusted, secret, pick, kind}.
  function fillPlan(el, value, toggles) {
    const kind = textEntry(el);
    const tag = el.localName;
    const html = el.namespaceURI === "http://www.w3.org/1999/xhtml";
    const type = html && tag === "input" ? String(el.type).toLowerCase() : "";
    // A custom select (a combobox that only offers a list, like <sl-select>'s read-only
    // display input) has no value to type: its options must be clicked.
    if (tag !== "select" && collapse(el.getAttribute("role")).toLowerCase() === "combobox" && (kind === "" || el.readOnly)) {
      fail("unsupported_element", "this is a custom select (a combobox offering a list, not a text field): click it to open its options, take a snapshot, then click the option");
    }
    if (type === "checkbox" || type === "radio") {
      if (!toggles) fail("unsupported_element", "fill works on text inputs, textareas, selects and contenteditable elements; use click for checkboxes, radios and buttons");
      if (typeof value !== "boolean") fail("invalid_argument", "a " + type + " takes true or false");
      if (type === "radio" && el.checked && !value) fail("invalid_argument", "a checked radio cannot be unchecked: set another radio of its group to true");
      return {apply: () => toggle(el, value, type)};
    }
    if (typeof value !== "string") fail("invalid_argument", "only checkboxes and radios take true or false; this field takes a string");
    if (kind === "single" || kind === "multi" ||
        (html && tag === "input" && !/^(file|submit|reset|button|image|hidden)$/.test(type))) {
      if (el.readOnly) fail("element_not_interactable", "the element is read-only");
      return {apply: (watch) => setText(el, value, watch, type === "password")};
    }
    if (html && tag === "select") {
      const pick = optionFor(el, value);
      return {apply: () => setSelect(el, pick)};
    }
    if (kind === "editable") return {apply: (watch) => setEditable(el, value, watch)};
    fail("unsupported_element", toggles ? "fill_form fills text inputs, textareas, selects, checkboxes, radios and contenteditable elements; click buttons"
      : "fill works on text inputs, textareas, selects and contenteditable elements; use click for checkboxes, radios and buttons");
  }

  function optionFor(el, value) {
    const opts = el.options;
    let pick = null;
    for (let i = 0; i < opts.length && !pick; i++) if (opts[i].value === value) pick = opts[i];
    const want = collapse(value);
    for (let i = 0; i < opts.length && !pick; i++) if (collapse(opts[i].label || opts[i].textContent) === want) pick = opts[i];
    const lower = want.toLowerCase();
    for (let i = 0; i < opts.length && !pick; i++) if (collapse(opts[i].label || opts[i].textContent).toLowerCase() === lower) pick = opts[i];
    if (!pick) fail("option_not_found", "no option has that value or label");
    if (pick.disabled) fail("element_not_interactable", "that option is disabled");
    return pick;
  }

  function setText(el, value, watch, secret) {
    if (watch) watchTimers(); // (for the settle that follows)
    el.focus();
    setValue(el, value);
    fire(el, "input", {inputType: "insertReplacementText", data: value});
    fire(el, "change");
    return {trusted: isolated, secret, pick: null, kind: "text"};
  }

  function setSelect(el, pick) {
    el.focus();
    setValue(el, pick.value);
    if (el.selectedOptions.length === 0 || el.selectedOptions[0] !== pick) pick.selected = true;
    fire(el, "input");
    fire(el, "change");
    return {trusted: isolated, secret: false, pick, kind: "select"};
  }

  function setEditable(el, value, watch) {
    if (watch) watchTimers(); // (for the settle that follows)
    focus(el);
    win.getSelection().selectAllChildren(el);
    const t = tip();
    if (!t) {
      const ok = value === "" ? doc.execCommand("delete", false) : doc.execCommand("insertText", false, value);
      if (!ok) {
        el.textContent = value;
        fire(el, "input", {inputType: "insertText", data: value});
      }
      return {trusted: false, secret: false, pick: null, kind: "editable"};
    }
    // Trusted, as a user with an input method would: the selection is replaced by
    // committed text, each newline is a real Enter keypress.
    const lines = value.replace(/\r\n?/g, "\n").split("\n");
    if (value === "") {
      const bs = new win.KeyboardEvent("", {key: "Backspace", code: "Backspace", keyCode: 8});
      t.keydown(bs);
      t.keyup(bs);
    }
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) {
        const enter = new win.KeyboardEvent("", {key: "Enter", code: "Enter", keyCode: 13});
        t.keydown(enter);
        t.keyup(enter);
      }
      if (lines[i] !== "") t.commitCompositionWith(lines[i]);
    }
    return {trusted: true, secret: false, pick: null, kind: "editable"};
  }

  function toggle(el, want, type) {
    if (el.checked !== want) el.click();
    return {trusted: isolated, secret: false, pick: null, kind: type};
  }

  // filled is what a field shows after fillPlan's apply: its value (never a password's;
  // a checkbox's or radio's checkedness) and, for a select, the label of the option it
  // shows and whether that is the one picked (a change handler may have picked another).
  function filled(el, done) {
    const out = {};
    if (done.kind === "checkbox" || done.kind === "radio") out.checked = el.checked;
    else if (!done.secret) out.value = cap(done.kind === "editable" ? collapse(el.textContent) : String(el.value), VALUE_MAX);
    if (done.pick) {
      const shown = el.selectedOptions.length > 0 ? el.selectedOptions[0] : null;
      out.shown = shown ? cap(collapse(shown.label || shown.textContent), VALUE_MAX) : "";
      out.kept = shown === done.pick;
    }
    return out;
  }

  // requestSubmit submits the form node is in, as its submit button would; false when
  // it is in none.
  function requestSubmit(node) {
    const form = node.form || (typeof node.closest === "function" ? node.closest("form") : null);
    if (!form) return false;
    form.requestSubmit();
    return true;
  }

  function result(trusted, extra) {
    const r = {trusted, url: String(win.location.href), urlBefore};
    if (extra) for (const k of Object.keys(extra)) r[k] = extra[k];
    return r;
  }

  return {
    ...lib, target, requireEnabled, withoutFilePicker, clickAt, fileChooserFor, focus, deepActive, textEntry, caretToEnd, setValue,
    fire, tip, presShellDispatch, screenAt, focusedDescription, uploadTarget, fileDrag, dropOffered, result, fillPlan, filled, requestSubmit, hitPoint, reachable, enabledWhenReachable, hitPoints, inside, mouse, moveReady, inputNotTaken, wait, watchTimers, changes,
  };
}
