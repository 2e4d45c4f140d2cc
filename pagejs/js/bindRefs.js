async function bindRefs(win, args, lib, env) {
  // Binds the refs of one snapshot to the nodes themselves (isolated realm only). The
  // snapshot walk (page realm, for speed) leaves a hand-off under a symbol named by
  // args.key on the window: the elements it listed, or (a resident walk, once an
  // earlier hand-off was taken) only those its previous hand-off lacked, with runs
  // [index, previous index, length] for the others. This waits for it (at most
  // args.waitMS: it is sent together with the snapshot), takes it (deleting it) and
  // gives each node an id, kept for as long as the node lives: a node an earlier
  // snapshot of this document saw keeps its id, a node that replaced it (even an
  // identical one) gets a new one. The ids live in a WeakMap on this console sandbox's
  // global, keyed by the node, per inner window: invisible to the page, gone with the
  // node. lib.target checks them before acting (args.ref).
  // Result: {bound, count, runs, frames}: runs = [[index, id, length], ...] covers every
  // index (elements index…index+length-1 have ids id…id+length-1); frames =
  // [[index, browsingContextID], ...] for the listed elements that are frames.
  const key = args.key;
  if (typeof key !== "string" || !/^[0-9a-f]{32}$/.test(key)) throw {code: "invalid_argument", message: "bad hand-off key"};
  if (!Number.isSafeInteger(args.waitMS) || !Number.isSafeInteger(args.max)) {
    throw {code: "invalid_argument", message: "bad limits"};
  }
  const Cu = env.Cu;
  const unbound = {bound: false, count: 0, runs: [], frames: []};
  const sym = Symbol.for("fxmcp-refs:" + key);
  let viaXray = false; // the isolated fallback walk's hand-off: Xray views
  const safe = (i, lo, hi) => Number.isSafeInteger(i) && i >= lo && i < hi;

  const hand = await waitHand();
  if (!hand) return unbound;
  const st = stateOf(env.innerWindowID);
  let ids = null;
  if (typeof hand.prevKey !== "string" || hand.prevKey === "") ids = idsFromList(hand.nodes);
  else if (hand.same === true) ids = idsSame(hand);
  else ids = idsFromDiff(hand);
  if (!ids) return unbound;
  if (ids !== st.prevIds) {
    st.prevIds = ids;
    st.prevRuns = runsOf(ids);
  }
  st.prevKey = key;
  try {
    hand.taken = true; // the page realm's next hand-off may then be a difference
  } catch (e) {
    // a hand-off the page froze: the next one is whole again
  }
  return {bound: true, count: ids.length, runs: st.prevRuns, frames: framesOf(hand, ids)};

  // take removes and returns the hand-off: on the page's window (read through the Xray
  // waiver), or an expando of this realm's view (the isolated fallback walk).
  function take() {
    if (Object.prototype.hasOwnProperty.call(win, sym)) {
      viaXray = true;
      const h = win[sym];
      delete win[sym];
      return h;
    }
    const page = win.wrappedJSObject;
    if (!page || !Object.prototype.hasOwnProperty.call(page, sym)) return null;
    const h = page[sym];
    try {
      delete page[sym];
    } catch (e) {
      // a page that froze its window keeps the hand-off until it navigates
    }
    return h;
  }

  async function waitHand() {
    const end = Date.now() + args.waitMS;
    for (let h = take(); ; h = take()) {
      if (h) return h;
      if (Date.now() >= end || win.closed) return null;
      await new Promise(resolve => {
        const t = env.Cc["@mozilla.org/timer;1"].createInstance(env.Ci.nsITimer);
        t.initWithCallback(resolve, 1, env.Ci.nsITimer.TYPE_ONE_SHOT);
      });
    }
  }

  // stateOf returns the ids of one document, forgetting documents that are gone.
  function stateOf(windowID) {
    let reg = globalThis.fxmcpRefs;
    if (!reg) {
      reg = new Map();
      Object.defineProperty(globalThis, "fxmcpRefs", {value: reg});
    }
    for (const id of reg.keys()) {
      if (id !== windowID && !env.Services.wm.getCurrentInnerWindowWithId(id)) reg.delete(id);
    }
    let s = reg.get(windowID);
    if (!s) {
      s = {next: 1, refOf: new WeakMap(), prevKey: "", prevIds: [], prevRuns: []};
      reg.set(windowID, s);
    }
    return s;
  }

  // idOf returns a node's id (0: not a node). Nodes are keyed by their waiver (the
  // page's view, as read off the hand-off; Xray views are waived here): its identity is
  // stable, and lib.target looks up Cu.waiveXrays of what it resolved.
  function idOf(x) {
    if (x === null || typeof x !== "object") return 0;
    const node = viaXray ? Cu.waiveXrays(x) : x;
    let id = st.refOf.get(node);
    if (id === undefined) {
      id = st.next++;
      st.refOf.set(node, id);
    }
    return id;
  }

  function idsFromList(nodes) {
    const n = nodes ? nodes.length : -1;
    if (!safe(n, 0, args.max + 1)) return null;
    const ids = new Array(n);
    for (let i = 0; i < n; i++) {
      if ((ids[i] = idOf(nodes[i])) === 0) return null;
    }
    return ids;
  }

  // idsFromDiff: the fresh nodes get ids, the others the ids of their previous index.
  function idsFromDiff(h) {
    const runs = h.runs, freshAt = h.freshAt, nodes = h.nodes;
    if (h.prevKey !== st.prevKey || !runs || !freshAt || !nodes || freshAt.length !== nodes.length) return null;
    let n = nodes.length;
    for (let r = 0; r < runs.length; r++) n += runs[r][2];
    if (!safe(n, 0, args.max + 1)) return null;
    const ids = new Array(n).fill(0);
    for (let r = 0; r < runs.length; r++) {
      const i = runs[r][0], j = runs[r][1], k = runs[r][2];
      if (!safe(k, 1, n + 1) || !safe(i, 0, n - k + 1) || !safe(j, 0, st.prevIds.length - k + 1)) return null;
      for (let m = 0; m < k; m++) ids[i + m] = st.prevIds[j + m];
    }
    for (let f = 0; f < nodes.length; f++) {
      if (!safe(freshAt[f], 0, n)) return null;
      ids[freshAt[f]] = idOf(nodes[f]);
    }
    return ids.includes(0) ? null : ids;
  }

  // idsSame: the marker of an unchanged result, whose elements are exactly those of the
  // previous hand-off; their ids are the previous ones.
  function idsSame(h) {
    if (h.prevKey !== st.prevKey || h.count !== st.prevIds.length || !safe(h.count, 0, args.max + 1)) return null;
    return st.prevIds;
  }

  function runsOf(ids) {
    const runs = [];
    let run = null;
    for (let i = 0; i < ids.length; i++) {
      if (run && run[1] + run[2] === ids[i]) run[2]++;
      else runs.push(run = [i, ids[i], 1]);
    }
    return runs;
  }

  // framesOf reads the browsing contexts of the frame elements (chrome-only: through
  // the Xray view of each), checking that each is the node listed at its index.
  function framesOf(h, ids) {
    const out = [];
    const at = h.frameAt, nodes = h.frameNodes;
    const nf = at && nodes ? Math.min(at.length, nodes.length, ids.length) : 0;
    for (let f = 0; f < nf; f++) {
      const i = at[f], x = nodes[f];
      if (!safe(i, 0, ids.length) || x === null || typeof x !== "object" || ids[i] !== idOf(x)) continue;
      const el = Cu.unwaiveXrays(x);
      const bc = el.localName === "iframe" || el.localName === "frame" ? el.browsingContext : null;
      if (bc) out.push([i, bc.id]);
    }
    return out;
  }
}
