function pageInfo(win, args, lib) {
  const doc = win.document;
  return {url: String(win.location.href), title: lib.collapse(doc.title), readyState: String(doc.readyState)};
}
