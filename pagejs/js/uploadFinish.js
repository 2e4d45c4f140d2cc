async function uploadFinish(win, args, lib, env) {
  // Builds the Files from the staged chunks (or takes those the parent's upload sink
  // delivered), assigns them to the verified file input,
  // dispatches bubbling input and change, verifies the assignment, and always deletes the
  // staging. Isolated realm: input.mozSetFileArray (the page cannot intercept it), trusted
  // events. Page realm: DataTransfer and the files setter. Never clicks, never submits.
  const isolated = env.realm === "isolated";
  const holder = isolated ? globalThis : win;
  const prop = "fxmcp" + args.key;
  const st = typeof args.key === "string" ? holder[prop] : undefined;
  try {
    if (!st) lib.fail("upload_transfer_failed", "no such staging (expired or the page was replaced)");
    if (isolated && st.innerWindowID && st.innerWindowID !== env.innerWindowID) {
      lib.fail("target_replaced", "the page was replaced during the upload");
    }
    if (st.sink) {
      // The Files the parent's upload sink delivers may still be on their way.
      const timer = env.Cc["@mozilla.org/timer;1"].createInstance(env.Ci.nsITimer);
      const late = new Promise(r => timer.initWithCallback({notify: () => r()}, 15000, env.Ci.nsITimer.TYPE_ONE_SHOT));
      await Promise.race([st.sink.done, late]);
      timer.cancel();
      env.Services.cpmm.removeMessageListener(st.sink.name, st.sink.listener);
      if (st.sink.error) lib.fail("upload_transfer_failed", st.sink.error);
      if (!st.sink.files) lib.fail("upload_transfer_failed", "Firefox's upload sink did not deliver the files in time");
    }
    // The files go to the input uploadBegin found (once: a trigger is never clicked
    // twice, and may have changed since, as "Choose file" becoming "Change file"). A
    // file input given directly must still be the element the snapshot saw.
    if (st.via === "input") lib.target(args);
    const el = st.input;
    const warnings = st.via === "drop" ? [] : lib.uploadTarget(el, st.files);
    let made = st.sink && st.sink.files;
    if (!made) {
      made = [];
      for (const f of st.files) {
        let n = 0;
        for (let i = 0; i < f.chunks.length; i++) {
          if (!f.chunks[i]) lib.fail("upload_transfer_failed", "chunk " + i + " of " + f.name + " is missing");
          n += f.chunks[i].length;
        }
        if (n !== f.size) lib.fail("upload_transfer_failed", f.name + ": received " + n + " of " + f.size + " bytes");
        const parts = isolated ? f.chunks.map(c => env.Cu.cloneInto(c, win)) : f.chunks;
        made.push(new win.File(parts, f.name, {type: f.type, lastModified: f.lastModified}));
        f.chunks = [];
      }
    }
    if (st.via === "drop") return dropFiles(st.target, made);
    let trusted = false;
    try {
      if (isolated && typeof el.mozSetFileArray === "function") {
        el.mozSetFileArray(made);
        trusted = true;
      } else {
        const dt = new win.DataTransfer();
        for (const f of made) dt.items.add(f);
        el.files = dt.files;
      }
    } catch (e) {
      lib.fail("upload_assignment_failed", "the page rejected the file list: " + String(e));
    }
    const got = el.files;
    const ok = got && got.length === made.length && made.every((f, i) =>
      got[i] && got[i].name === f.name && got[i].size === f.size && got[i].type === f.type);
    if (!ok) lib.fail("upload_assignment_failed", "the input does not hold the assigned files");
    lib.fire(el, "input");
    lib.fire(el, "change");
    const out = [];
    for (let i = 0; i < got.length; i++) out.push({name: got[i].name, size: got[i].size, type: got[i].type});
    return {files: out, warnings, dispatched: true, trusted};
  } finally {
    if (Object.prototype.hasOwnProperty.call(holder, prop)) delete holder[prop];
  }

  // dropFiles drops the made files onto the zone uploadBegin checked (the node it
  // resolved the ref to then, whose name our own drag may have changed since: a zone
  // that says "Release to attach" while a drag is over it).
  function dropFiles(zone, made) {
    if (!zone.isConnected) lib.fail("upload_assignment_failed", "the drop zone left the page during the upload");
    const drag = lib.fileDrag(zone, made);
    drag.enter();
    if (!drag.over()) {
      drag.leave();
      lib.fail("upload_assignment_failed", "the drop zone no longer takes dropped files");
    }
    const taken = drag.drop();
    const files = made.map(f => ({name: f.name, size: f.size, type: f.type}));
    const warnings = taken ? [] : ["the page did not claim the drop (no drop handler called preventDefault); it may have ignored the files"];
    return {files, warnings, dispatched: true, trusted: isolated};
  }
}
