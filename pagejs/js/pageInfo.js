function pageInfo(win, args, lib) {
  // Kept free of lib.js: it runs after every action, so it must stay tiny.
  const doc = win.document;
  return {url: String(win.location.href), title: String(doc.title).replace(/\s+/g, " ").trim(), readyState: String(doc.readyState)};
}
