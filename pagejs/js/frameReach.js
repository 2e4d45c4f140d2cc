function frameReach(win, args, lib) {
  // Whether users can reach the frame element of this document whose browsing context
  // is args.frame: found, inert (behind this document's modal dialog, in an inert
  // region; see lib.inert) and, with args.at (points of the frame's viewport, and that
  // viewport's size), covered: another element of this document takes a pointer at each
  // of them. The points left uncovered come back as at, in this document's viewport, for
  // the document above, with keep, their indexes in args.at; at is left out when it
  // cannot be told (the points off screen, or the frame element turned or skewed: only
  // its own axis-aligned transforms, a scale or a translation, are mapped).
  // browsingContext is chrome-only: isolated realm.
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
    const at = args.at;
    if (out.inert || !at || !Array.isArray(at.points) || at.points.length === 0 || !axisAligned(fe)) return out;
    const root = fe.getRootNode();
    const from = typeof root.elementFromPoint === "function" ? root : doc;
    const map = mapping(fe, at);
    const points = [], keep = [];
    let seen = false;
    for (let i = 0; i < at.points.length && i < 16; i++) {
      const q = map(at.points[i]);
      if (!inView(q)) continue;
      seen = true;
      if (from.elementFromPoint(q.x, q.y) === fe) {
        points.push(q);
        keep.push(i);
      }
    }
    if (!seen) return out; // (framePoint scrolled the element into view, and this document with it)
    if (points.length === 0) {
      out.covered = true;
      return out;
    }
    out.at = {points, w: win.innerWidth, h: win.innerHeight};
    out.keep = keep;
    return out;
  }

  // mapping maps points of the frame's viewport (of size at.w × at.h) to this document's
  // viewport: through the frame element's content box, scaled as a transform scales it.
  function mapping(fe, at) {
    const r = fe.getBoundingClientRect();
    const cs = win.getComputedStyle(fe);
    const padL = parseFloat(cs.paddingLeft) || 0, padT = parseFloat(cs.paddingTop) || 0;
    const sx = fe.offsetWidth > 0 ? r.width / fe.offsetWidth : 1;
    const sy = fe.offsetHeight > 0 ? r.height / fe.offsetHeight : 1;
    const cw = fe.clientWidth - padL - (parseFloat(cs.paddingRight) || 0);
    const ch = fe.clientHeight - padT - (parseFloat(cs.paddingBottom) || 0);
    const kx = cw > 0 && at.w > 0 ? cw / at.w : 1, ky = ch > 0 && at.h > 0 ? ch / at.h : 1;
    const x0 = r.left + (fe.clientLeft + padL) * sx, y0 = r.top + (fe.clientTop + padT) * sy;
    return (p) => ({x: x0 + p.x * kx * sx, y: y0 + p.y * ky * sy});
  }

  // axisAligned tells whether the frame element's own transform keeps its box's edges
  // horizontal and vertical (none, a scale, a translation), which mapping can map.
  function axisAligned(fe) {
    const t = win.getComputedStyle(fe).transform;
    if (!t || t === "none") return true;
    try {
      const m = new win.DOMMatrixReadOnly(t);
      return Math.abs(m.b) < 1e-9 && Math.abs(m.c) < 1e-9;
    } catch (e) {
      return false;
    }
  }

  function inView(q) {
    return q.x >= 0 && q.y >= 0 && q.x < win.innerWidth && q.y < win.innerHeight;
  }
}
