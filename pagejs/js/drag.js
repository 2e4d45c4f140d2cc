async function drag(win, args, lib) {
  // Drags the element args.sel onto args.to.sel (both verified against their
  // fingerprints) along a path of small steps, the way a user's mouse would. Isolated
  // realm: trusted mouse input (Window.synthesizeMouseEvent), so Firefox itself fires the
  // pointer and mouse events (pointerdown/move/up, mousedown/move/up) and, for draggable
  // content, the HTML5 dragstart with its DataTransfer. That dragstart is then cancelled
  // in the system group (after the page's handlers ran; no OS drag session starts) and
  // the rest of the HTML5 drag (dragenter, dragover, dragleave, drop, dragend) is
  // dispatched from this privileged realm (isTrusted true) with copies of the page's own
  // DataTransfer, as Firefox would during a real drag. Page realm: the same sequence of
  // synthetic events (isTrusted false), dragstart included when the source is draggable.
  const STEPS = 12;
  const src = lib.target(args);
  const dst = lib.target(args.to || {});
  await lib.enabledWhenReachable(src);
  if (!lib.visible(src) || !lib.visible(dst)) lib.fail("element_not_interactable", "the element or the drop target is not visible");
  const b = lib.hitPoint(dst);
  const a = lib.hitPoint(src);
  const b2 = lib.hitPoint(dst);
  if (a.covered || b2.covered || b.x !== b2.x || b.y !== b2.y) {
    lib.fail("element_not_interactable", "the element and the drop target cannot both be shown and reached at once");
  }
  const mouse = lib.mouse();
  const trusted = !!mouse;
  let dt = null;
  let dragging = false;
  let over = null;
  let accepted = false;
  const sys = {capture: true, mozSystemGroup: true};
  const onDragStart = e => {
    dragging = true;
    dt = e.dataTransfer;
    e.preventDefault(); // no OS drag session: the drag continues below
  };
  if (trusted) win.addEventListener("dragstart", onDragStart, sys);
  try {
    if (trusted) {
      if (!(await lib.moveReady(mouse, a.x, a.y))) lib.fail("element_not_interactable", lib.inputNotTaken);
      mouse("mousedown", a.x, a.y, 1);
    } else {
      synthPointer(src, "pointerover", a, 0);
      synthPointer(src, "pointerdown", a, 1);
      synthMouse(src, "mousedown", a, 1);
    }
    await lib.wait(20);
    for (let i = 1; i <= STEPS; i++) {
      // The first step is 6 px, past Firefox's drag threshold, as a hand would start.
      const f = i === 1 ? 0 : (i - 1) / (STEPS - 1);
      const p = {x: a.x + (b.x - a.x) * f + (i === 1 ? 6 : 0), y: a.y + (b.y - a.y) * f + (i === 1 ? 6 : 0)};
      if (!dragging) {
        if (trusted) {
          mouse("mousemove", p.x, p.y, 1);
        } else {
          const t = at(p);
          synthPointer(t, "pointermove", p, 1);
          synthMouse(t, "mousemove", p, 1);
          if (i === 1 && draggable(src)) {
            dt = new win.DataTransfer();
            dragging = true;
            if (!src.dispatchEvent(dragEvent("dragstart", p))) return lib.result(false, {html5: true, cancelled: true, dropped: false});
          }
        }
        if (dragging) await lib.wait(20); // libraries finish their dragstart on a timer
      }
      if (dragging) dragStep(p);
      await lib.wait(16);
    }
    // Rest on the target before releasing, as a hand does: libraries that sample the
    // pointer on a timer (SortableJS's fallback mode, every 50 ms) see it arrive.
    for (let i = 0; i < 3; i++) {
      if (dragging) dragStep(b);
      else if (trusted) mouse("mousemove", b.x, b.y, 1);
      else {
        const t = at(b);
        synthPointer(t, "pointermove", b, 1);
        synthMouse(t, "mousemove", b, 1);
      }
      await lib.wait(60);
    }
    if (dragging) {
      let dropped = false;
      if (over && accepted) {
        dropped = true;
        over.dispatchEvent(dragEvent("drop", b));
      } else if (over) {
        over.dispatchEvent(dragEvent("dragleave", b));
      }
      src.dispatchEvent(dragEvent("dragend", b));
      await lib.wait(20);
      return lib.result(trusted, {html5: true, dropped});
    }
    if (trusted) {
      mouse("mouseup", b.x, b.y, 0);
    } else {
      const t = at(b);
      synthPointer(t, "pointerup", b, 0);
      synthMouse(t, "mouseup", b, 0);
    }
    await lib.wait(20);
    return lib.result(trusted, {html5: false, dropped: false});
  } finally {
    if (trusted) win.removeEventListener("dragstart", onDragStart, sys);
  }

  function at(p) {
    return win.document.elementFromPoint(p.x, p.y) || win.document.documentElement;
  }

  function dragStep(p) {
    const t = at(p);
    if (t !== over) {
      const enter = t.dispatchEvent(dragEvent("dragenter", p));
      if (over) over.dispatchEvent(dragEvent("dragleave", p, t));
      over = t;
      accepted = !enter;
    }
    // A drop is allowed where the last dragover was cancelled.
    accepted = !t.dispatchEvent(dragEvent("dragover", p));
  }

  function dragEvent(type, p, related) {
    let d = dt;
    if (d && typeof d.mozCloneForEvent === "function") {
      d = d.mozCloneForEvent(type);
      d.dropEffect = dt.dropEffect === "none" ? "move" : dt.dropEffect;
    }
    return new win.DragEvent(type, Object.assign({bubbles: true, cancelable: type !== "dragend" && type !== "dragleave", composed: true,
      view: win, clientX: p.x, clientY: p.y, buttons: type === "drop" || type === "dragend" ? 0 : 1,
      dataTransfer: d, relatedTarget: related || null}, lib.screenAt(p.x, p.y, false)));
  }

  function synthPointer(t, type, p, buttons) {
    t.dispatchEvent(new win.PointerEvent(type, Object.assign({bubbles: true, cancelable: true, composed: true, view: win,
      clientX: p.x, clientY: p.y, button: 0, buttons, pointerId: 0, pointerType: "mouse", isPrimary: true}, lib.screenAt(p.x, p.y, false))));
  }

  function synthMouse(t, type, p, buttons) {
    t.dispatchEvent(new win.MouseEvent(type, Object.assign({bubbles: true, cancelable: true, composed: true, view: win,
      clientX: p.x, clientY: p.y, button: 0, buttons}, lib.screenAt(p.x, p.y, false))));
  }

  function draggable(el) {
    for (let n = el; n && n.nodeType === 1; n = n.parentNode) {
      if (n.draggable) return true;
    }
    return false;
  }
}
