function uploadBegin(win, args, lib, env) {
  // Finds the file input (the target itself, a label's control, or the input a click on
  // the target opens the chooser for: lib.fileChooserFor), checks it and creates the
  // staging for one upload, keyed by a
  // random key from the server. Isolated realm: the staging lives on the console
  // sandbox's global, invisible to the page. Page realm: a non-enumerable property of
  // window named by the key (≥128 random bits), deleted by uploadFinish/uploadAbort.
  const key = args.key;
  if (typeof key !== "string" || !/^[0-9a-f]{32,128}$/.test(key)) lib.fail("invalid_argument", "bad staging key");
  const files = args.files;
  if (!Array.isArray(files) || files.length === 0) lib.fail("invalid_argument", "no files");
  for (const f of files) {
    if (!f || typeof f.name !== "string" || f.name === "" || !Number.isSafeInteger(f.size) || f.size < 0) {
      lib.fail("invalid_argument", "bad file metadata");
    }
  }
  const chooser = lib.fileChooserFor(lib.target(args));
  // A drop zone (no file input, no chooser) gets the files as a drop (uploadFinish).
  if (chooser.via === "drop") lib.dropOffered(chooser.target, files);
  const warnings = chooser.via === "drop" ? [] : lib.uploadTarget(chooser.input, files);
  const holder = env.realm === "isolated" ? globalThis : win;
  const now = Date.now();
  if (env.realm === "isolated") {
    // Forget stagings a vanished server left behind (older than 30 minutes).
    for (const k of Object.getOwnPropertyNames(holder)) {
      if (k.startsWith("fxmcp") && holder[k] && now - holder[k].created > 30 * 60 * 1000) delete holder[k];
    }
  }
  const staging = {
    created: now,
    innerWindowID: env.innerWindowID || 0,
    input: chooser.input,
    target: chooser.target || null,
    via: chooser.via,
    files: files.map(f => ({name: f.name, type: String(f.type || ""), size: f.size,
      lastModified: Number.isSafeInteger(f.lastModified) ? f.lastModified : now, chunks: [], received: 0})),
  };
  if (args.sink) {
    // The parent process's upload sink (uploadSink.js) sends the finished Files in one
    // message over the process message manager, named by the key; only this realm
    // listens, and uploadFinish waits for it.
    if (env.realm !== "isolated") lib.fail("invalid_argument", "the upload sink needs the isolated realm");
    let settle;
    const sink = {name: "fxmcp-upload:" + key, error: "", files: null, done: new Promise(r => { settle = r; })};
    sink.listener = {
      receiveMessage(m) {
        env.Services.cpmm.removeMessageListener(sink.name, sink.listener);
        const got = m && m.data && m.data.files;
        const isFile = x => Object.prototype.toString.call(x) === "[object File]";
        if (!Array.isArray(got) || got.length !== staging.files.length ||
            !got.every((x, i) => isFile(x) && x.name === staging.files[i].name && x.size === staging.files[i].size)) {
          sink.error = "Firefox's upload sink delivered files that differ from those announced";
        } else {
          sink.files = got;
        }
        settle();
      },
    };
    staging.sink = sink;
    env.Services.cpmm.addMessageListener(sink.name, sink.listener);
  }
  Object.defineProperty(holder, "fxmcp" + key, {value: staging, configurable: true, enumerable: false, writable: false});
  return {key, warnings, window: env.innerWindowID || 0, via: chooser.via};
}
