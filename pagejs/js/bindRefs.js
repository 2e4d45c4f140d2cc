async function bindRefs(win, args, lib, env) {
  // Binds the refs of one snapshot to the nodes themselves (isolated realm only). The
  // snapshot walk (page realm, for speed) leaves the elements it listed under a symbol
  // named by args.key on the window; this waits for them (at most args.waitMS: it is
  // sent together with the snapshot), takes them (deleting the hand-off) and numbers
  // them: a node that an earlier snapshot of this document already numbered (at or
  // above args.min, the server's first ref of the current generation) keeps its number,
  // every other node gets the next one from args.next. The numbers live in a WeakMap on
  // this console sandbox's global, keyed by the node, per inner window: invisible to the
  // page, gone with the node. lib.target checks them before acting.
  // Result: {bound, count, next, runs}, runs = [[index, ref, length], ...] for the reused
  // numbers (consecutive indexes with consecutive refs in one run); indexes not in a run
  // got new numbers in order from args.next, and next is the number after the last.
  const key = args.key;
  if (typeof key !== "string" || !/^[0-9a-f]{32}$/.test(key)) throw {code: "invalid_argument", message: "bad hand-off key"};
  if (!Number.isSafeInteger(args.next) || !Number.isSafeInteger(args.min) || !Number.isSafeInteger(args.waitMS) ||
      !Number.isSafeInteger(args.max)) {
    throw {code: "invalid_argument", message: "bad ref numbers"};
  }
  const unbound = {bound: false, count: 0, next: args.next, runs: []};
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
  let refOf = reg.get(env.innerWindowID);
  if (!refOf) {
    refOf = new WeakMap();
    reg.set(env.innerWindowID, refOf);
  }
  let next = args.next;
  const runs = [];
  let run = null;
  for (let i = 0; i < n; i++) {
    // Keyed by the Xray view, the form lib.target's querySelector returns.
    const node = Cu.unwaiveXrays(list[i]);
    if (node === null || typeof node !== "object") return unbound;
    let r = refOf.get(node);
    if (r !== undefined && r >= args.min && r < args.next) {
      if (run && run[0] + run[2] === i && run[1] + run[2] === r) run[2]++;
      else runs.push(run = [i, r, 1]);
    } else {
      r = next++;
      refOf.set(node, r);
    }
  }
  return {bound: true, count: n, next, runs};
}
