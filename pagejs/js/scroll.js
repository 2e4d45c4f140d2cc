async function scroll(win, args, lib) {
  // Scrolls the page, or the nearest scrollable container of args.sel, the way a user's
  // wheel would (args.mode "by": args.pages pages in args.direction), to its top or bottom
  // ("to"), or scrolls args.sel into view ("into"); "measure" only reads the same
  // container. Isolated realm, "by": a trusted wheel event with page deltas at a point of
  // the container (nsIDOMWindowUtils.sendWheelEvent; smooth scrolling is waited for), so
  // the page sees real wheel and scroll events; when that moves nothing (something else
  // under the point took it, no wheel path, or a background tab, whose throttled refresh
  // driver does not run the smooth scroll) the container is scrolled by script. The
  // result says where the container was and is, how far it can go, and its content size.
  const doc = win.document;
  const mode = args.mode;
  if (!["by", "to", "into", "measure"].includes(mode)) lib.fail("invalid_argument", "unknown scroll mode");
  const dir = args.direction || "down";
  if (!["up", "down", "left", "right"].includes(dir)) lib.fail("invalid_argument", "unknown direction");
  const axis = dir === "left" || dir === "right" ? "x" : "y";
  const el = args.sel !== undefined && args.sel !== null ? lib.target(args) : null;
  const page = doc.scrollingElement || doc.documentElement;

  if (mode === "into") {
    if (!el) lib.fail("invalid_argument", "scrolling into view needs an element");
    const r0 = el.getBoundingClientRect();
    el.scrollIntoView({block: "center", inline: "nearest", behavior: "instant"});
    const r1 = el.getBoundingClientRect();
    const inView = r1.bottom > 0 && r1.right > 0 && r1.top < win.innerHeight && r1.left < win.innerWidth;
    return lib.result(lib.isolated, {moved: r0.top !== r1.top || r0.left !== r1.left, inView,
      dx: Math.round(r0.left - r1.left), dy: Math.round(r0.top - r1.top), before: measure(page, "y"), after: measure(page, "y")});
  }
  const box = el ? container(el) : page;
  let wheelAt = null; // where the last wheel was sent (wheel)
  const before = measure(box, axis);
  if (mode === "measure") return lib.result(lib.isolated, {before, after: before, container: describe(box)});
  let how = "script";
  if (mode === "to") {
    const target = args.to === "top" ? 0 : args.to === "bottom" ? 1e9 : lib.fail("invalid_argument", "to must be top or bottom");
    scrollTo(box, target);
  } else {
    const pages = Number.isInteger(args.pages) && args.pages > 0 && args.pages <= 20 ? args.pages : lib.fail("invalid_argument", "pages must be 1 to 20");
    const sign = dir === "down" || dir === "right" ? 1 : -1;
    // A background tab runs no smooth scrolling (its refresh driver is throttled): a
    // wheel there would not move before the script fallback anyway.
    const hidden = doc.visibilityState === "hidden";
    // Whether the document got the wheel at all (a system-group listener, which the page's
    // own listeners cannot stop): one it got and did not scroll by is not sent again.
    let wheelSeen = false;
    const seen = () => {
      wheelSeen = true;
    };
    if (lib.isolated) win.addEventListener("wheel", seen, {capture: true, mozSystemGroup: true});
    if (!hidden && wheel(box, pages * sign)) {
      // A wheel sent right after a new document was shown is dropped (measured:
      // TestScrollInfiniteFeed, the page saw no wheel event): Firefox's input guard for
      // newly loaded documents, see lib.moveReady. The document takes a wheel before
      // sendWheelEvent returns (measured: every scroll of the browser tests), so one
      // not seen then is sent again every 10 ms, for up to 1 s, until it is. (Not when
      // the point is over a frame, whose document gets the wheel.)
      for (const end = Date.now() + 1000; !wheelSeen && !overFrame() && Date.now() < end;) {
        await lib.wait(10);
        wheel(box, pages * sign);
      }
      await settle(box);
      // And, should a wheel still have come to nothing, one more before the script
      // (only once a little more time brought none).
      if (measure(box, axis).pos === before.pos && !wheelSeen && !overFrame()) {
        await lib.wait(100);
        if (!wheelSeen && measure(box, axis).pos === before.pos && wheel(box, pages * sign)) await settle(box);
      }
      if (measure(box, axis).pos !== before.pos) how = "wheel";
    }
    if (lib.isolated) win.removeEventListener("wheel", seen, {capture: true, mozSystemGroup: true});
    if (how !== "wheel") {
      const step = (axis === "y" ? clientSize(box).h : clientSize(box).w) * 0.875;
      scrollTo(box, before.pos + sign * pages * step);
    }
  }
  return lib.result(how === "wheel", {before, after: measure(box, axis), how, container: describe(box), hidden: doc.visibilityState === "hidden"});

  // overFrame tells whether the last wheel's point is over a frame element, whose own
  // document takes the wheel.
  function overFrame() {
    if (!wheelAt) return false;
    const e = doc.elementFromPoint(wheelAt.x, wheelAt.y);
    return !!e && (e.localName === "iframe" || e.localName === "frame" || e.localName === "object" || e.localName === "embed");
  }

  function scrollable(e, ax) {
    if (e === page) return true;
    const st = win.getComputedStyle(e);
    const ov = ax === "y" ? st.overflowY : st.overflowX;
    if (!/^(auto|scroll|overlay)$/.test(ov)) return false;
    return ax === "y" ? e.scrollHeight > e.clientHeight + 1 : e.scrollWidth > e.clientWidth + 1;
  }

  function container(e) {
    for (let n = e; n && n.nodeType === 1; n = n.parentNode && n.parentNode.nodeType === 1 ? n.parentNode : n.getRootNode().host) {
      if (n === doc.body || n === doc.documentElement) break;
      if (scrollable(n, axis)) return n;
    }
    return page;
  }

  function clientSize(b) {
    return b === page ? {w: win.innerWidth, h: win.innerHeight} : {w: b.clientWidth, h: b.clientHeight};
  }

  function measure(b, ax) {
    const c = clientSize(b);
    const pos = b === page ? (ax === "y" ? win.scrollY : win.scrollX) : (ax === "y" ? b.scrollTop : b.scrollLeft);
    const size = ax === "y" ? b.scrollHeight : b.scrollWidth;
    const view = ax === "y" ? c.h : c.w;
    return {pos: Math.round(pos), max: Math.max(0, Math.round(size - view)), size: Math.round(size), view: Math.round(view)};
  }

  function scrollTo(b, pos) {
    const o = axis === "y" ? {top: pos, behavior: "instant"} : {left: pos, behavior: "instant"};
    if (b === page) win.scrollTo(o);
    else b.scrollTo(o);
  }

  // wheel sends one trusted wheel event of n pages at a point of the container.
  function wheel(b, n) {
    const u = lib.isolated ? win.windowUtils : null;
    if (!u || typeof u.sendWheelEvent !== "function") return false;
    let x = win.innerWidth / 2;
    let y = win.innerHeight / 2;
    if (b !== page) {
      const p = lib.hitPoint(b);
      if (p.covered) return false;
      x = p.x;
      y = p.y;
    }
    wheelAt = {x, y};
    // Firefox scrolls one page at most for a wheel event of page deltas, whatever its
    // delta (measured: 3, 5 and 10 pages each moved 644 px in a 682 px view): one event
    // a page, as a user turns the wheel once a page.
    const one = n > 0 ? 1 : -1;
    for (let i = 0; i < Math.abs(n); i++) u.sendWheelEvent(x, y, axis === "x" ? one : 0, axis === "y" ? one : 0, 0, 2, 0, axis === "x" ? one : 0, axis === "y" ? one : 0, 0);
    return true;
  }

  // settle waits until a smooth scroll has started (at most 600 ms) and stopped moving
  // (three still readings 40 ms apart), at most 1.5 s in all.
  async function settle(b) {
    let last = measure(b, axis).pos;
    let moved = false;
    let still = 0;
    for (let t = 0; t < 1500 && still < 3 && (moved || t < 600); t += 40) {
      await lib.wait(40);
      const now = measure(b, axis).pos;
      if (now !== last) {
        moved = true;
        still = 0;
      } else if (moved) {
        still++;
      }
      last = now;
    }
  }

  // describe names a scrollable element by tag and aria-label or id (page text).
  function describe(b) {
    if (b === page) return "";
    const label = b.getAttribute("aria-label") || b.id || "";
    return lib.cap(b.localName + (label ? " " + label : ""), 80);
  }
}
