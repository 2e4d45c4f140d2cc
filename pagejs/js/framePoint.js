function framePoint(win, args, lib) {
  // Where a pointer action on the element would land in this frame's viewport (lib.hitPoint,
  // which scrolls it into view, as the action itself will), and the viewport's size: the
  // documents above the frame check that none of their own elements covers the frame
  // there (frameReach). ok is false when the element shows no point (the action says why).
  const el = lib.target(args);
  if (!lib.visible(el)) return {ok: false};
  const p = lib.hitPoint(el);
  if (p.covered) return {ok: false};
  return {ok: true, at: {x: p.x, y: p.y, w: win.innerWidth, h: win.innerHeight}};
}
