function frameReach(win, args, lib) {
  // Whether users can reach the frame element of this document whose browsing
  // context is args.frame: found, and inert (behind this document's modal dialog, in
  // an inert region; see lib.inert). browsingContext is chrome-only: isolated realm.
  const doc = win.document;
  const trees = [doc].concat(lib.shadowRoots(doc, []));
  for (const t of trees) {
    const list = t.querySelectorAll("iframe,frame");
    for (let i = 0; i < list.length; i++) {
      const bc = list[i].browsingContext;
      if (bc && bc.id === args.frame) return {found: true, inert: lib.inert(list[i])};
    }
  }
  return {found: false, inert: false};
}
