function captureRect(win, args, lib) {
  // What a screenshot should cover, in CSS pixels of the top-level document, read without
  // scrolling or changing anything: the viewport's size and scroll offset, and with sel the
  // element's border box (fingerprint checked), offset through same-origin parent frames.
  const top = topWindow(win);
  const out = {vw: top.innerWidth, vh: top.innerHeight, sx: top.scrollX, sy: top.scrollY};
  if (!args.sel) return out;
  const el = lib.target(args);
  const r = el.getBoundingClientRect();
  let left = r.left;
  let tp = r.top;
  let w = win;
  while (w !== top) {
    const fe = w.frameElement;
    const fr = fe.getBoundingClientRect();
    const cs = w.parent.getComputedStyle(fe);
    left += fr.left + (parseFloat(cs.borderLeftWidth) || 0) + (parseFloat(cs.paddingLeft) || 0);
    tp += fr.top + (parseFloat(cs.borderTopWidth) || 0) + (parseFloat(cs.paddingTop) || 0);
    w = w.parent;
  }
  out.rect = {left: left + top.scrollX, top: tp + top.scrollY, width: r.width, height: r.height};
  return out;

  function topWindow(w) {
    // The highest window reachable through same-origin frameElement links.
    let t = w;
    while (t.frameElement) t = t.parent;
    return t;
  }
}
