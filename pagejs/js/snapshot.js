async function snapshot(win, args, lib, env) {
  // Visible actionable elements in DOM order (open shadow roots after their host),
  // hidden file inputs included; optionally the page's visible text. Paging: the
  // elements from args.offset on (in document order, after the filter). args.query
  // keeps the elements whose role, tag, accessible name, value or link target contains
  // it, ignoring case; total counts the matches, all the elements before the filter.
  // A resident (env.keep, js/snapshotKeep.js) answers {same: seq} when the result it
  // issued as seq (args.have) is still what this walk would return, and otherwise
  // sends only the rows that differ from it ({base, runs}: see SnapshotResult.Base);
  // the arguments (offset and query included) are part of what "the same" means.
  const keep = env && env.keep;
  // args.warm: start the resident's idle walk of a document not walked yet (keep.warm),
  // or tell how far it got; "unavailable" without a resident.
  if (args.warm === true) {
    return keep && typeof env.lib === "function" && typeof env.walk === "function" ? keep.warm(win, args, env.lib, env.walk) :
      {warm: "unavailable", entries: 0, ready: false};
  }
  if (keep && keep.begin(win, args)) {
    // The result the warm walk readied, for a first call: its elements are handed over
    // as a walk's are.
    const ready = keep.take(args);
    if (ready !== null && snapshot.last && snapshot.last.seq === keep.seq()) {
      if (pinned()) pin(snapshot.last.els);
      return ready;
    }
    // Unchanged: the binding gets the elements of the result named (a hand-off with
    // nothing new in it).
    if (pinned()) pinSame();
    return {same: keep.seq()};
  }
  // The server always sends both limits (the tool's schema has them).
  if (!(Number.isInteger(args.maxElements) && args.maxElements >= 0 && Number.isInteger(args.maxTextChars) && args.maxTextChars >= 0)) {
    lib.fail("invalid_argument", "snapshot needs maxElements and maxTextChars");
  }
  const maxElements = args.maxElements;
  const maxText = args.maxTextChars;
  const offset = Number.isInteger(args.offset) && args.offset >= 0 ? args.offset : 0;
  const query = typeof args.query === "string" ? args.query.toLowerCase() : "";
  const doc = win.document;
  const all = keep ? keep.collect(lib, args.frames === true) : lib.collect(args.frames === true, null);
  // Only the elements of the page asked for are described (entry is the costly part),
  // unless a filter needs every element's fields to count the matches.
  const describe = (el) => keep ? keep.entry(el, lib) : lib.entry(el, true);
  let entries = null;
  let listed = null; // the elements of the rows, in order (node binding)
  let total = all.length;
  if (query) {
    entries = [];
    listed = [];
    total = 0;
    for (let i = 0; i < all.length; i++) {
      const e = describe(all[i]);
      if (!matches(e)) continue;
      if (total >= offset && entries.length < maxElements) {
        entries.push(e);
        listed.push(all[i]);
      }
      total++;
    }
  }
  const n = entries ? entries.length : Math.max(0, Math.min(all.length - offset, maxElements));
  // Compact rows, because every byte of the result crosses RDP as a long string
  // (≈0.2 ms per KB measured): [tag, role, type, name, fh, k, rest, extra], where the
  // selector (segments joined by "\n", which CSS.escape never leaves in a selector) is
  // the first k UTF-16 units of the previous row's selector followed by rest, and extra
  // holds the remaining fields, or 0 (lib.entry's rows form).
  const rows = [];
  let prev = "";
  // A resident may know the only rows that can differ from the result the caller holds
  // (keep.only: their indices; the others are in its runs).
  const only = keep && !entries ? keep.only(n) : null;
  const described = entries || new Array(n); // each row's entry, for nearRows
  for (let q = 0, m = only ? only.length : n; q < m; q++) {
    const i = only ? only[q] : q;
    const el = entries ? listed[i] : all[offset + i];
    const e = entries ? entries[i] : describe(el);
    described[i] = e;
    if (keep && keep.reused(el, e)) continue;
    const sel = e.sel.length === 1 ? e.sel[0] : e.sel.join("\n");
    let k = common(sel, prev);
    if (k > 0) {
      const c = sel.charCodeAt(k - 1);
      if (c >= 0xd800 && c <= 0xdbff) k--; // never split a surrogate pair
    }
    prev = sel;
    rows.push([e.tag, e.role || "", e.type || "", e.name || "", e.fh || "", k, sel.slice(k), e.x]);
  }
  const out = {
    title: lib.collapse(doc.title),
    url: String(win.location.href),
    total, // before rows: the server sizes its element table by it
    all: all.length,
    truncatedElements: total - n,
    rows,
  };
  // The elements of the rows, in order. A resident remembers them with the result's
  // number, for the binding of a later {same} answer.
  const els = listed || (offset === 0 && n === all.length ? all : all.slice(offset, offset + n));
  // Elements users cannot reach are listed (an action on one is refused, saying why),
  // and named by their row: a delta compares what the page shows, inert or not. A
  // resident's walk that reused the last walk's elements as shown (calm: no change
  // since could have made one inert) reuses its rows.
  let inert = snapshot.inert && snapshot.inert.els === els && keep && keep.calm() ? snapshot.inert.rows : null;
  if (inert === null) inert = lib.inertRows(els);
  if (keep) snapshot.inert = {els, rows: inert};
  if (inert.length > 0) out.inert = inert;
  // Look-alikes get the text near them, found afresh by every walk (the kept entries do
  // not follow the text around an element). Rows a resident did not visit have the entry
  // it holds.
  const [nearAt, near] = lib.nearRows(els, (i) => described[i] || (keep && keep.entryOf(els[i])) || lib.entry(els[i], true));
  if (nearAt.length > 0) {
    out.nearAt = nearAt;
    out.near = near;
  }
  if (keep) {
    keep.done(out);
    snapshot.last = {seq: out.seq, els};
  }
  // Node binding (bindRefs.js): hand the listed elements to the isolated realm, which
  // takes them right after this walk. (Last: a new property of the window makes the
  // engine recompile code that reads the window's properties.)
  if (pinned()) pin(els);
  if (args.includeAllText) {
    const body = doc.body || doc.documentElement;
    // Text components render in open shadow roots is in no innerText of the light tree:
    // it follows the document's, root by root in tree order.
    const parts = [body ? lib.collapse(body.innerText) : ""];
    const roots = lib.shadowRoots(doc, []);
    for (let i = 0; i < roots.length; i++) parts.push(lib.shadowText(roots[i]));
    const text = parts.filter((p) => p !== "").join(" ");
    out.textTotal = text.length;
    out.text = maxText === 0 ? "" : lib.cap(text, maxText);
  } else {
    out.textTotal = 0;
  }
  // A large result is deflated in the page realm: Firefox moves a long string out of the
  // content process at ≈0.25 ms per KB (measured), and the rows compress ≈6:1. The
  // server inflates {z} with a size cap. The isolated realm (a fallback) sends it as is.
  if (!lib.isolated && typeof win.CompressionStream === "function" &&
      typeof win.Uint8Array.prototype.toBase64 === "function") {
    const json = win.JSON.stringify(out);
    if (json.length > 16384) {
      const stream = new win.Blob([json]).stream().pipeThrough(new win.CompressionStream("deflate-raw"));
      const buf = await new win.Response(stream).arrayBuffer();
      return {z: new win.Uint8Array(buf).toBase64()};
    }
  }
  return out;

  // handOff builds the hand-off of the listed elements. A resident (this function, kept
  // between calls) remembers its last one: once the isolated realm has taken it
  // (taken), only the nodes not in it cross over, with runs [index, previous index,
  // length] for the others, since every node crossing realms costs (≈2 µs each).
  function pinned() {
    return typeof args.pin === "string" && /^[0-9a-f]{32}$/.test(args.pin);
  }

  function pin(els) {
    place(handOff(els));
  }

  function place(hand) {
    Object.defineProperty(win, Symbol.for("fxmcp-refs:" + args.pin), {value: hand, configurable: true});
  }

  // pinSame hands over the elements of the result named in a {same} answer: when they
  // are the very list the last hand-off the isolated realm took was of, only a marker
  // that says so (same: no node crosses realms, nothing is compared); otherwise their
  // difference from that hand-off. A result not remembered (cannot happen: every
  // resident walk is) gets a hand-off the binding refuses, so its refs are unbound.
  function pinSame() {
    const last = snapshot.last, prev = snapshot.prev;
    if (!last || last.seq !== keep.seq()) {
      place({key: args.pin, prevKey: "", nodes: null, taken: false});
      return;
    }
    if (!prev || prev.nodes !== last.els || prev.hand.taken !== true) {
      pin(last.els);
      return;
    }
    const hand = {key: args.pin, prevKey: prev.key, same: true, count: last.els.length, nodes: [], runs: null, freshAt: null,
      frameAt: prev.hand.frameAt, frameNodes: prev.hand.frameNodes, taken: false};
    snapshot.prev = {key: args.pin, nodes: last.els, hand};
    place(hand);
  }

  function handOff(all) {
    const prev = snapshot.prev;
    const hand = {key: args.pin, prevKey: "", nodes: all, runs: null, freshAt: null, frameAt: [], frameNodes: [], taken: false};
    if (prev && prev.hand.taken === true) {
      // The common case first: the same nodes in the same order, as far as they go.
      const pn = prev.nodes;
      let same = 0;
      while (same < all.length && same < pn.length && all[same] === pn[same]) same++;
      const fresh = [], freshAt = [], runs = [];
      let run = same > 0 ? [0, 0, same] : null;
      if (run) runs.push(run);
      const at = new Map();
      if (same < all.length) for (let j = same; j < pn.length; j++) at.set(pn[j], j);
      for (let i = same; i < all.length; i++) {
        const j = at.get(all[i]);
        if (j === undefined) {
          fresh.push(all[i]);
          freshAt.push(i);
        } else if (run && run[0] + run[2] === i && run[1] + run[2] === j) {
          run[2]++;
        } else {
          runs.push(run = [i, j, 1]);
        }
      }
      hand.prevKey = prev.key;
      hand.nodes = fresh;
      hand.runs = runs;
      hand.freshAt = freshAt;
    }
    if (args.frames === true) {
      for (let i = 0; i < all.length; i++) {
        if (lib.isFrame(all[i])) {
          hand.frameAt.push(i);
          hand.frameNodes.push(all[i]);
        }
      }
    }
    snapshot.prev = {key: args.pin, nodes: all, hand};
    return hand;
  }

  // common is the length of the longest common prefix of a and b (UTF-16 units). Most
  // rows share a parent's path with the row before: one native comparison up to b's
  // last ">" skips most of the comparing one unit at a time.
  function common(a, b) {
    let k = 0;
    const p = b.lastIndexOf(">") + 1;
    if (p > 0 && a.startsWith(b.slice(0, p))) k = p;
    const m = Math.min(a.length, b.length);
    while (k < m && a.charCodeAt(k) === b.charCodeAt(k)) k++;
    return k;
  }

  function matches(e) {
    const x = e.x || {};
    const hay = (e.role || "") + "\n" + e.tag + "\n" + (e.name || "") + "\n" + (x.value || "") + "\n" + (x.href || "") + "\n" +
      (x.kind || "") + "\n" + (x.drag || "");
    return hay.toLowerCase().includes(query);
  }
}
