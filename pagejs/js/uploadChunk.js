function uploadChunk(win, a, lib, env) {
  // Stores one base64 chunk by index; kept tiny because every evaluation result echoes
  // its input. a = {k: staging key, f: file index, i: chunk index, d: base64 data}.
  const s = (env.realm === "isolated" ? globalThis : win)["fxmcp" + a.k];
  const file = s && s.files[a.f];
  if (!file || !Number.isSafeInteger(a.i) || a.i < 0) throw {code: "upload_transfer_failed", message: "no such staging, file or chunk index"};
  const bytes = Uint8Array.fromBase64(a.d);
  const old = file.chunks[a.i];
  file.received += bytes.length - (old ? old.length : 0);
  file.chunks[a.i] = bytes;
  if (file.received > file.size) throw {code: "upload_transfer_failed", message: "more bytes than announced"};
  return {file: a.f, index: a.i, received: file.received};
}
