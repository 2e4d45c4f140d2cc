async function tabClose(args, env) {
  // Parent process: closes the tab with args.browserId, unless its page asks to confirm
  // leaving (a beforeunload handler, after user activation): then the tab stays open and
  // the result says kept. Its beforeunload handlers run without any prompt
  // (asyncPermitUnload "dontUnload"), so this never blocks on a dialog; the closed tab
  // is left out of the session store's recently-closed list. A tab already showing its
  // leave prompt (a navigation the page asked to confirm) is kept too: asking again
  // while that prompt is up permits the unload, and the tab would go with its input.
  for (const w of env.Services.wm.getEnumerator("navigator:browser")) {
    const gb = w.gBrowser;
    if (!gb) continue;
    for (const b of gb.browsers) {
      if (b.browserId !== args.browserId) continue;
      const tab = gb.getTabForBrowser(b);
      if (leavePromptOpen(b)) return {browserId: args.browserId, kept: true};
      const {permitUnload} = await b.asyncPermitUnload("dontUnload");
      if (!permitUnload) return {browserId: args.browserId, kept: true};
      gb.removeTab(tab, {skipPermitUnload: true, skipSessionStore: true, animate: false});
      return {browserId: args.browserId};
    }
  }
  throw {code: "tab_not_found", message: "no tab has that browserId"};

  // leavePromptOpen: a tab-modal beforeunload prompt (a confirmEx with inPermitUnload,
  // as dialogState.js reads it) is open in browser b, or a dialog not yet built enough
  // to tell.
  function leavePromptOpen(b) {
    const box = b.tabDialogBox;
    const mgr = box && box.getContentDialogManager && box.getContentDialogManager();
    for (const d of (mgr && mgr.dialogs) || []) {
      const D = d.frameContentWindow && d.frameContentWindow.Dialog;
      if (!D || !D.args || D.args.inPermitUnload) return true;
    }
    return false;
  }
}
