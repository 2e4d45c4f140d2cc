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
  const take = () => {
    let l = null;
    if (Object.prototype.hasOwnProperty.call(win, sym)) {
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
  let list = take();
  while (!list) {
    if (Date.now() >= end || win.closed) return unbound;
    await new Promise(resolve => {
      const t = env.Cc["@mozilla.org/timer;1"].createInstance(env.Ci.nsITimer);
      t.initWithCallback(resolve, 1, env.Ci.nsITimer.TYPE_ONE_SHOT);
    });
    list = take();
  }
  const n = list.length;
  if (!Number.isSafeInteger(n) || n < 0 || n > args.max) return unbound;
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
    st = {next: 1, refOf: new WeakMap()};
    reg.set(env.innerWindowID, st);
  }
  const runs = [];
  const frames = [];
  let run = null;
  for (let i = 0; i < n; i++) {
    // Keyed by the Xray view, the form lib.target's querySelector returns.
    const node = Cu.unwaiveXrays(list[i]);
    if (node === null || typeof node !== "object") return unbound;
    let id = st.refOf.get(node);
    if (id === undefined) {
      id = st.next++;
      st.refOf.set(node, id);
    }
    if (run && run[1] + run[2] === id) run[2]++;
    else runs.push(run = [i, id, 1]);
    const bc = node.localName === "iframe" || node.localName === "frame" ? node.browsingContext : null;
    if (bc) frames.push([i, bc.id]);
  }
  return {bound: true, count: n, runs, frames};
}
