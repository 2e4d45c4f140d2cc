function listenerMarks(win, args, lib, env) {
  // Keeps, on the page's window, which elements of this document have listeners that
  // make them targets (isolated realm only: Firefox's event-listener service sees what
  // Vue, Svelte, Angular, jQuery, Alpine and plain addEventListener attach to a node,
  // which no page-realm script can). The first call in a document looks at every
  // element (document and open shadow roots); from then on a listener-change listener
  // (one per content process, as the devtools inspector's walker has) updates the marks
  // as the page adds and removes listeners, so a snapshot never waits for a scan. The
  // marks are published as {seq, nodes, bits} under Symbol.for("fxmcp-marks") on the
  // page's window (a page-compartment copy made by cloneInto: no page code runs), seq
  // growing with every change; lib.js reads them in the page realm (signals). A page
  // can read or forge its own marks: it controls its own content anyway.
  // Listeners of the system event group (Firefox's own: form controls, media) and of
  // privileged code do not count.
  // Result: {seq, count: the elements marked, scanned: the elements looked at by this
  // call}.
  const Cc = env.Cc, Ci = env.Ci, Cu = env.Cu;
  const els = Cc["@mozilla.org/eventlistenerservice;1"].getService(Ci.nsIEventListenerService);
  // [event type, bit, reason]: the bits lib.js reads (L_CLICK, L_KEY, L_DRAG, L_DROP).
  const TYPES = [
    ["click", 1, "a click handler"],
    ["mousedown", 1, "pressed: menus, drag libraries (SortableJS) and custom buttons act on the press"],
    ["mouseup", 1, "released: custom buttons acting on the release"],
    ["pointerdown", 1, "pressed, by any pointer: dnd-kit, SortableJS, gesture libraries"],
    ["pointerup", 1, "released, by any pointer"],
    ["touchstart", 1, "touched: mobile-first widgets"],
    ["keydown", 2, "keys: a target when in the tab order (lib.js)"],
    ["dragstart", 4, "a drag source"],
    ["drop", 8, "takes drops"],
    ["dragover", 8, "takes drops (dragover must be cancelled for a drop to happen)"],
  ];
  const BITS = new Map(TYPES.map((t) => [t[0], t[1]]));
  const MAX = 200000; // elements one scan looks at
  const state = listenerMarks.state || (listenerMarks.state = {docs: new WeakMap(), hooked: false});
  if (!state.hooked) {
    els.addListenerChangeListener(changed);
    state.hooked = true;
  }
  const doc = win.document;
  let rec = state.docs.get(doc);
  let scanned = 0;
  if (rec === undefined) {
    rec = {win, marks: new Map(), seq: 0};
    state.docs.set(doc, rec);
    const trees = [doc].concat(lib.shadowRoots(doc, []));
    for (let k = 0; k < trees.length && scanned < MAX; k++) {
      const all = Cu.waiveXrays(trees[k]).querySelectorAll("*");
      for (let i = 0; i < all.length && scanned < MAX; i++, scanned++) {
        const b = bitsOf(all[i]);
        if (b !== 0) rec.marks.set(Cu.unwaiveXrays(all[i]), b);
      }
    }
    publish(rec);
  }
  return {seq: rec.seq, count: rec.marks.size, scanned};

  // bitsOf is what el's own listeners make of it (TYPES), the system group's and
  // privileged code's left out.
  function bitsOf(el) {
    const list = els.getListenerInfoFor(el);
    let b = 0;
    for (let i = 0; i < list.length; i++) {
      const l = list[i];
      const bit = BITS.get(l.type);
      if (bit === undefined || (b & bit) !== 0 || l.inSystemEventGroup || privileged(l)) continue;
      b |= bit;
    }
    return b;
  }

  function privileged(l) {
    try {
      const o = l.listenerObject;
      if (o === null || o === undefined) return true;
      const p = Cu.getObjectPrincipal(o);
      return p.isSystemPrincipal || p.isExpandedPrincipal;
    } catch (e) {
      return false;
    }
  }

  // changed is the listener-change listener: the elements of a document with marks
  // whose listeners changed are looked at again, and the marks published anew when that
  // changed any.
  function changed(list) {
    try {
      const touched = new Set();
      for (const c of list.enumerate(Ci.nsIEventListenerChange)) {
        const t = c.target;
        if (!t || t.nodeType !== 1) continue;
        const r = state.docs.get(t.ownerDocument);
        if (r === undefined) continue;
        const b = bitsOf(t);
        if (b === (r.marks.get(t) || 0)) continue;
        if (b === 0) r.marks.delete(t);
        else r.marks.set(t, b);
        touched.add(r);
      }
      for (const r of touched) publish(r);
    } catch (e) {
      // (a document gone meanwhile)
    }
  }

  // publish puts rec's marks on its page's window, without the elements no longer in
  // the document (not kept: a node removed is let go).
  function publish(r) {
    const nodes = [], bits = [];
    for (const [el, b] of r.marks) {
      if (!el.isConnected) {
        r.marks.delete(el);
        continue;
      }
      nodes.push(el);
      bits.push(b);
    }
    r.seq++;
    try {
      const page = Cu.waiveXrays(r.win);
      const hand = Cu.cloneInto({seq: r.seq, nodes, bits}, page, {wrapReflectors: true});
      Object.defineProperty(page, Symbol.for("fxmcp-marks"), {value: hand, configurable: true});
    } catch (e) {
      // (a window closed, or a page that made the property its own for good)
    }
  }
}
