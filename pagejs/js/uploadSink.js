function uploadSink(args, env) {
  // Parent process: adds an upload sink actor to this client's own DevTools connection
  // (found by an actor only it owns, args.console) and returns its actor ID. Chunk
  // packets sent to it carry the bytes as a base64 "data" field; the sink decodes and
  // keeps them, and "deliver" sends the finished Files in one message over the process
  // message manager to the content process that hosts the target page, where the
  // isolated realm's uploadBegin listens under the upload's random key. Nothing is
  // echoed back, nothing is evaluated, and no other connection can address the actor.
  // Relies on DevTools internals (the server's loader and its connection table); any
  // surprise fails here, and the server then moves chunks through console evaluations.
  if (typeof args.console !== "string" || args.console === "") throw {code: "invalid_argument", message: "no console actor"};
  const {useDistinctSystemPrincipalLoader, releaseDistinctSystemPrincipalLoader} = env.ChromeUtils.importESModule(
    "resource://devtools/shared/loader/DistinctSystemPrincipalLoader.sys.mjs", {global: "shared"});
  const requester = {};
  const loader = useDistinctSystemPrincipalLoader(requester);
  let conn = null;
  try {
    const {DevToolsServer} = loader.require("resource://devtools/server/devtools-server.js");
    for (const c of Object.values(DevToolsServer._connections || {})) {
      if (c && typeof c.getActor === "function" && c.getActor(args.console)) conn = c;
    }
  } finally {
    releaseDistinctSystemPrincipalLoader(requester);
  }
  if (!conn || typeof conn.addActor !== "function") throw {code: "upload_transfer_failed", message: "the DevTools connection was not found"};

  const Services = env.Services;
  const MAX_UPLOADS = 8;
  const MAX_IDLE_MS = 30 * 60 * 1000;
  const uploads = new Map(); // key → {innerWindowID, browserId, files: [{name, type, lastModified, size, parts, received}], touched}
  const bad = message => ({error: "upload_transfer_failed", message});
  const isKey = k => typeof k === "string" && /^[0-9a-f]{32,128}$/.test(k);
  const isFile = f => f && typeof f.name === "string" && f.name !== "" && typeof f.type === "string" &&
    Number.isSafeInteger(f.size) && f.size >= 0 && Number.isSafeInteger(f.lastModified);

  // processOf returns the message manager of the content process that hosts
  // innerWindowID while it is the current document of the tab browserId.
  function processOf(innerWindowID, browserId) {
    const wgp = env.WindowGlobalParent.getByInnerWindowId(innerWindowID);
    if (!wgp || !wgp.isCurrentGlobal || !wgp.browsingContext || wgp.browsingContext.top.browserId !== browserId) return null;
    const pid = wgp.domProcess && wgp.domProcess.osPid;
    if (!pid) return null;
    for (let i = 0; i < Services.ppmm.childCount; i++) {
      const mm = Services.ppmm.getChildAt(i);
      if (mm && !mm.isInProcess && mm.osPid === pid) return mm;
    }
    return null;
  }
  const replaced = {error: "target_replaced", message: "the page's document is no longer current"};

  const actor = {
    typeName: "fxmcpUploadSink",
    requestTypes: {
      // {key, innerWindowID, browserId, files: [{name, type, lastModified, size}]}
      begin(p) {
        if (!isKey(p.key) || uploads.has(p.key)) return bad("bad or reused upload key");
        if (!Array.isArray(p.files) || p.files.length === 0 || !p.files.every(isFile)) return bad("bad file metadata");
        if (!Number.isSafeInteger(p.innerWindowID) || !Number.isSafeInteger(p.browserId)) return bad("bad window or tab id");
        const now = Date.now();
        for (const [k, u] of uploads) if (now - u.touched > MAX_IDLE_MS) uploads.delete(k);
        if (uploads.size >= MAX_UPLOADS) return bad("too many uploads in progress");
        if (!processOf(p.innerWindowID, p.browserId)) return replaced;
        uploads.set(p.key, {innerWindowID: p.innerWindowID, browserId: p.browserId, touched: now,
          files: p.files.map(f => ({name: f.name, type: f.type, lastModified: f.lastModified, size: f.size, parts: [], received: 0}))});
        return {files: p.files.length};
      },
      // {key, file, index, data: base64}; the chunks of a file come in order.
      chunk(p) {
        const u = isKey(p.key) && uploads.get(p.key);
        if (!u) return bad("no such upload");
        const f = Number.isSafeInteger(p.file) && u.files[p.file];
        if (!f) return bad("no such file");
        if (p.index !== f.parts.length) return bad("chunk " + p.index + " arrived, expected " + f.parts.length);
        if (typeof p.data !== "string") return bad("chunk without data");
        let bytes;
        try {
          bytes = Uint8Array.fromBase64(p.data);
        } catch (e) {
          return bad("chunk data is not base64");
        }
        if (f.received + bytes.length > f.size) return bad("more bytes than announced");
        f.parts.push(bytes);
        f.received += bytes.length;
        u.touched = Date.now();
        return {file: p.file, index: p.index, received: f.received};
      },
      // {key}: builds the Files and sends them, in one message, to the content
      // process of the upload's window; forgets the upload.
      deliver(p) {
        const u = isKey(p.key) && uploads.get(p.key);
        if (!u) return bad("no such upload");
        uploads.delete(p.key);
        const short = u.files.find(f => f.received !== f.size);
        if (short) return bad(short.name + ": received " + short.received + " of " + short.size + " bytes");
        const mm = processOf(u.innerWindowID, u.browserId);
        if (!mm) return replaced;
        const files = u.files.map(f => new File(f.parts, f.name, {type: f.type, lastModified: f.lastModified}));
        mm.sendAsyncMessage("fxmcp-upload:" + p.key, {files});
        return {files: files.length};
      },
      // {key}: forgets an upload (abandoned).
      end(p) {
        return {removed: isKey(p.key) && uploads.delete(p.key)};
      },
    },
    destroy() {
      uploads.clear();
    },
  };
  conn.addActor(actor);
  return {actor: actor.actorID};
}
