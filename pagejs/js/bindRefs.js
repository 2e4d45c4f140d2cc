async function bindRefs(win, args, lib, env) {
  // Binds the refs of one snapshot to the nodes themselves (isolated realm only). The
  // snapshot walk (page realm, for speed) leaves the elements it listed under a symbol
  // named by args.key on the window; this waits for them (at most args.waitMS: it is
  // sent together with the snapshot), takes them (deleting the hand-off) and gives each
  // node an id, kept for as long as the node lives: a node an earlier snapshot of this
  // document saw keeps its id, a node that replaced it (even an identical one) gets a
  // new one. The ids live in a WeakMap on this console sandbox's global, keyed by the
  // node, per inner window: invisible to the page, gone with the node. lib.target checks
  // them before acting (args.ref).
  // Result: {bound, count, runs, frames}: runs = [[index, id, length], ...] covers every
  // index (elements index…index+length-1 have ids id…id+length-1); frames =
  // [[index, browsingContextID], ...] for the listed elements that are frames.
  const key = args.key;
  if (typeof key !== "string" || !/^[0-9a-f]{32}$/.test(key)) throw {code: "invalid_argument", message: "bad hand-off key"};
  if (!Number.isSafeInteger(args.waitMS) || !Number.isSafeInteger(args.max)) {
    throw {code: "invalid_argument", message: "bad limits"};
  }
  const unbound = {bound: false, count: 0, runs: [], frames: []};
  const sym = Symbol.for("fxmcp-refs:" + key);
  const page = win.wrappedJSObject;
  // The page realm's walk leaves the list on the page's window (read through the Xray
  // waiver); the isolated fallback walk leaves it as an expando of this realm's view.
  let viaXray = false;
  const take = () => {
    let l = null;
    if (Object.prototype.hasOwnProperty.call(win, sym)) {
      viaXray = true;
      l = win[sym];
      delete win[sym];
    } else if (page && Object.prototype.hasOwnProperty.call(page, sym)) {
      l = page[sym];
      try {
        delete page[sym];
      } catch (e) {
        // a page that froze its window keeps the list until it navigates
      }
    }
    return l;
  };
  const end = Date.now() + args.waitMS;
  let hand = take();
  while (!hand) {
    if (Date.now() >= end || win.closed) return unbound;
    await new Promise(resolve => {
      const t = env.Cc["@mozilla.org/timer;1"].createInstance(env.Ci.nsITimer);
      t.initWithCallback(resolve, 1, env.Ci.nsITimer.TYPE_ONE_SHOT);
    });
    hand = take();
  }
  const Cu = env.Cu;
  const holder = globalThis;
  let reg = holder.fxmcpRefs;
  if (!reg) {
    reg = new Map();
    Object.defineProperty(holder, "fxmcpRefs", {value: reg});
  }
  // Forget documents that are gone.
  for (const id of reg.keys()) {
    if (id !== env.innerWindowID && !env.Services.wm.getCurrentInnerWindowWithId(id)) reg.delete(id);
  }
  let st = reg.get(env.innerWindowID);
  if (!st) {
    st = {next: 1, refOf: new WeakMap(), prevKey: "", prevIds: []};
    reg.set(env.innerWindowID, st);
  }
  // Nodes are keyed by their waiver (the page's view, as read off the hand-off; the
  // isolated fallback walk hands over Xray views, waived here): identity is stable, and
  // lib.target looks up Cu.waiveXrays of what it resolved.
  const idOf = (x) => {
    if (x === null || typeof x !== "object") return 0;
    const node = viaXray ? Cu.waiveXrays(x) : x;
    let id = st.refOf.get(node);
    if (id === undefined) {
      id = st.next++;
      st.refOf.set(node, id);
    }
    return id;
  };
  const nodes = hand.nodes;
  const len = nodes ? nodes.length : -1;
  if (!Number.isSafeInteger(len) || len < 0 || len > args.max) return unbound;
  let ids;
  if (typeof hand.prevKey === "string" && hand.prevKey !== "") {
    // Only the nodes the previous hand-off did not have; the rest by previous index.
    if (hand.prevKey !== st.prevKey) return unbound;
    const runs = hand.runs, freshAt = hand.freshAt;
    if (!runs || !freshAt || freshAt.length !== len) return unbound;
    let n = len;
    for (let r = 0; r < runs.length; r++) n += runs[r][2];
    if (!Number.isSafeInteger(n) || n > args.max) return unbound;
    ids = new Array(n).fill(0);
    for (let r = 0; r < runs.length; r++) {
      const i = runs[r][0], j = runs[r][1], k = runs[r][2];
      if (!Number.isSafeInteger(i) || !Number.isSafeInteger(j) || !Number.isSafeInteger(k) || i < 0 || j < 0 || k <= 0 ||
          i + k > n || j + k > st.prevIds.length) return unbound;
      for (let m = 0; m < k; m++) ids[i + m] = st.prevIds[j + m];
    }
    for (let f = 0; f < len; f++) {
      const i = freshAt[f];
      if (!Number.isSafeInteger(i) || i < 0 || i >= n) return unbound;
      ids[i] = idOf(nodes[f]);
    }
    if (ids.includes(0)) return unbound;
  } else {
    ids = new Array(len);
    for (let i = 0; i < len; i++) {
      ids[i] = idOf(nodes[i]);
      if (ids[i] === 0) return unbound;
    }
  }
  st.prevKey = args.key;
  st.prevIds = ids;
  try {
    hand.taken = true; // the page realm's next hand-off may then be a difference
  } catch (e) {
    // a hand-off the page froze: the next one is whole again
  }
  const runs = [];
  let run = null;
  for (let i = 0; i < ids.length; i++) {
    if (run && run[1] + run[2] === ids[i]) run[2]++;
    else runs.push(run = [i, ids[i], 1]);
  }
  // The frames among the elements, by their browsing contexts (chrome-only: read
  // through the Xray view of each frame element).
  const frames = [];
  const frameAt = hand.frameAt, frameNodes = hand.frameNodes;
  const nf = frameAt && frameNodes ? Math.min(frameAt.length, frameNodes.length, ids.length) : 0;
  for (let f = 0; f < nf; f++) {
    const i = frameAt[f];
    const x = frameNodes[f];
    if (!Number.isSafeInteger(i) || i < 0 || i >= ids.length || x === null || typeof x !== "object") continue;
    const el = Cu.unwaiveXrays(x);
    if (ids[i] !== idOf(x)) continue; // not the element listed there
    const bc = el.localName === "iframe" || el.localName === "frame" ? el.browsingContext : null;
    if (bc) frames.push([i, bc.id]);
  }
  return {bound: true, count: ids.length, runs, frames};
}
