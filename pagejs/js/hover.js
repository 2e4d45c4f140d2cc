async function hover(win, args, lib) {
  // Moves the pointer onto the element the snapshot saw. Isolated realm: a trusted mouse
  // move at a point hit-testing gives to the element (Window.synthesizeMouseEvent),
  // so Firefox itself fires pointerover/enter, mouseover/enter and mousemove, the previously
  // hovered element gets its leave events, and CSS :hover applies. Page realm: synthetic
  // over/enter/move events (no leave events for the previous element; :hover does not apply).
  const el = lib.target(args);
  if (!lib.visible(el)) lib.fail("element_not_interactable", "the element is not visible");
  const p = await lib.reachable(el, args.at, true, true); // (inert: hover does not refuse it)
  if (p.covered) lib.fail("element_not_interactable", "another element covers it at every point tried");
  const move = lib.mouse();
  if (move) {
    // Right after a document loads Firefox drops trusted input for a moment (moveReady
    // sends the move again until it arrives); :hover can apply a few milliseconds after
    // the move, so it is looked for up to 60 ms. (The page's timers are watched from
    // here, its changes meanwhile: see lib.changes.)
    if (args.watch === true) lib.watchTimers();
    const seen = lib.changes(el);
    let changed = true;
    try {
      if (!(await lib.moveReady(move, p.x, p.y))) lib.fail("element_not_interactable", lib.inputNotTaken);
      for (let i = 0; i < 12 && !el.matches(":hover"); i++) await lib.wait(5);
    } finally {
      changed = seen.changed();
    }
    return lib.result(true, {hovered: el.matches(":hover"), changed});
  }
  const base = {bubbles: true, cancelable: true, composed: true, view: win, clientX: p.x, clientY: p.y};
  const ev = (C, type, extra) => new win[C](type, Object.assign({}, base, extra || {}));
  const ptr = {pointerId: 0, pointerType: "mouse", isPrimary: true};
  // enter events go to the element and each ancestor, outermost first, as when the
  // pointer comes from outside the page.
  const chain = [];
  for (let n = el; n && n.nodeType === 1; n = n.parentNode || n.host) chain.unshift(n);
  el.dispatchEvent(ev("PointerEvent", "pointerover", ptr));
  for (const n of chain) n.dispatchEvent(ev("PointerEvent", "pointerenter", Object.assign({}, ptr, {bubbles: false})));
  el.dispatchEvent(ev("MouseEvent", "mouseover"));
  for (const n of chain) n.dispatchEvent(ev("MouseEvent", "mouseenter", {bubbles: false}));
  el.dispatchEvent(ev("PointerEvent", "pointermove", ptr));
  el.dispatchEvent(ev("MouseEvent", "mousemove"));
  return lib.result(false, {hovered: false});
}
