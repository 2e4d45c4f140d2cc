function framePoint(win, args, lib) {
  // Where a pointer action on the element could land in this frame's viewport: the points
  // hit-testing gives to it once scrolled into view (args.center: to the middle of the
  // view, as hitPoint does when the nearest scroll leaves it covered; not smooth: Firefox
  // scrolls the documents above the frame with it), and the viewport's size. The
  // documents above the frame check that none of their own elements covers the frame
  // there (frameReach). ok is false when the element shows no point (the action says why).
  const el = lib.target(args);
  if (!lib.visible(el)) return {ok: false};
  let points = lib.hitPoints(el, args.center ? "center" : "nearest");
  // (Covered in its own frame at the nearest scroll, a fixed header there: the action
  // will scroll it to the middle, as hitPoint does, so that is where to check.)
  if (points.length === 0 && !args.center) points = lib.hitPoints(el, "center");
  if (points.length === 0) return {ok: false};
  return {ok: true, at: {points, w: win.innerWidth, h: win.innerHeight}};
}
