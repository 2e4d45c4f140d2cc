function frameReach(win, args, lib) {
  // Whether users can reach the frame element of this document whose browsing context
  // is args.frame: found, inert (behind this document's modal dialog, in an inert
  // region; see lib.inert) and, with args.at (a point in the frame's viewport, and that
  // viewport's size), covered: another element of this document takes a pointer there.
  // An uncovered point comes back as at, in this document's viewport, for the document
  // above; none when it cannot be told (off screen). browsingContext is chrome-only:
  // isolated realm.
  const doc = win.document;
  const trees = [doc].concat(lib.shadowRoots(doc, []));
  for (const t of trees) {
    const list = t.querySelectorAll("iframe,frame");
    for (let i = 0; i < list.length; i++) {
      const bc = list[i].browsingContext;
      if (bc && bc.id === args.frame) return reach(list[i]);
    }
  }
  return {found: false, inert: false, covered: false};

  function reach(fe) {
    const out = {found: true, inert: lib.inert(fe), covered: false};
    if (out.inert || !args.at) return out;
    // framePoint scrolled the element into view, and Firefox scrolls the documents above
    // a frame with it (measured: TestFrameUnderOverlay); a point still off screen here
    // cannot be told.
    const q = pointOf(fe, args.at);
    if (!inView(q)) return out;
    const root = fe.getRootNode();
    const from = typeof root.elementFromPoint === "function" ? root : doc;
    if (from.elementFromPoint(q.x, q.y) !== fe) {
      out.covered = true;
      return out;
    }
    out.at = {x: q.x, y: q.y, w: win.innerWidth, h: win.innerHeight};
    return out;
  }

  // pointOf maps a point of the frame's viewport to this document's viewport: the frame
  // element's content box, scaled as a transform scales it.
  function pointOf(fe, at) {
    const r = fe.getBoundingClientRect();
    const cs = win.getComputedStyle(fe);
    const padL = parseFloat(cs.paddingLeft) || 0, padT = parseFloat(cs.paddingTop) || 0;
    const sx = fe.offsetWidth > 0 ? r.width / fe.offsetWidth : 1;
    const sy = fe.offsetHeight > 0 ? r.height / fe.offsetHeight : 1;
    const cw = fe.clientWidth - padL - (parseFloat(cs.paddingRight) || 0);
    const ch = fe.clientHeight - padT - (parseFloat(cs.paddingBottom) || 0);
    const kx = cw > 0 && at.w > 0 ? cw / at.w : 1, ky = ch > 0 && at.h > 0 ? ch / at.h : 1;
    return {
      x: r.left + (fe.clientLeft + padL + at.x * kx) * sx,
      y: r.top + (fe.clientTop + padT + at.y * ky) * sy,
    };
  }

  function inView(q) {
    return q.x >= 0 && q.y >= 0 && q.x < win.innerWidth && q.y < win.innerHeight;
  }
}
