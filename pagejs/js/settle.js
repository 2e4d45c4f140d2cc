async function settle(win, args, lib, env) {
  // Waits until the page is quiet: no DOM mutation (document and its open shadow roots)
  // and none of the document's own requests in flight for args.quietMs in a row, or
  // args.capMs at most. Requests: in the isolated realm the document's load group
  // (fetch, XHR, images, scripts of this document: its requests still pending, counted
  // one by one, since fetch and XHR are background requests that activeCount leaves
  // out; not event streams, which stay open, nor the document's favicon), which the page
  // cannot see or fake; in the page realm only completions are visible (resource timing
  // entries), so a request still in flight counts as quiet there.
  // With args.longMs (> quietMs), quiet after quietMs also needs an animation frame that
  // began after the last change, and the 0 ms timers the page set in it to have run (the
  // page's own timer queue keeps them in order; two turns of it, see onFrame), since
  // frameworks defer work to the next frame (Preact runs effects, and so their fetches,
  // after it; an rAF-batched render);
  // and the page must have changed at most once (one burst of mutations) during the
  // wait: a page that changes again and again, or shows no frame (hidden, throttled),
  // is quiet only after longMs. A visible document is not quiet before its first frame,
  // and a change made in a frame needs a later frame without one (frameDriven), each
  // within FRAME_WAIT_MS. Then also no transition or animation of the page's that
  // can show or hide something may be running (animationLeft): one that ends early enough
  // for the quiet window after it within the cap is waited for (a menu that fades out
  // and is hidden at transitionend); one that ends later, within 5 s, is reported
  // (animatingMs).
  // With args.change it waits instead for the first sign of change (a mutation, woken
  // by the observer, or a request ending), then for quietMs without a mutation (the rest
  // of that render), but no longer than args.gapMs after the first change (a page that
  // changes all the time), at most capMs in all: wait_for's pause between two checks.
  const doc = win.document;
  // Bounds of the rows of REQUESTS (docs/settle.md has how they were chosen): an action's
  // request with no answer after LONG_MS is long-lived (the slowest answers of the
  // fixtures' APIs come after 450–600 ms; a long poll is held for 20–30 s); one whose
  // answer is still arriving STREAM_MS after it began is a stream (100 ms took a small
  // JSON answer read late on the loaded machine for one).
  const LONG_MS = 1000;
  const STREAM_MS = 1000;
  // The names long-poll transports give their addresses (the "named long poll" row):
  // Engine.IO/Socket.IO's transport=polling, SignalR's transport=longPolling, and a last
  // path segment poll, longpoll, long-poll or long_poll.
  const POLL_QUERY = /(^|&)transport=(polling|longpolling)(&|$)/i;
  const POLL_PATH = /\/(poll|long[-_]?poll)\/?$/i;
  const STREAMS = /^(application\/(x-ndjson|ndjson|jsonl|x-jsonlines|stream\+json)|multipart\/x-mixed-replace)/;
  // The record of live traffic and changes (liveState): documents, addresses, changes
  // kept, and how long before the action a change counts (LIVE_WINDOW_MS).
  const LIVE_WINDOWS = 16;
  const LIVE_PATHS = 64;
  const LIVE_RING = 512;
  const LEARN_ENTRIES = 100;
  const CHAIN_MS = 500;
  const LIVE_WINDOW_MS = 10000;
  // The server always sends both (browser/observe.go has the figures).
  if (!(Number.isInteger(args.quietMs) && args.quietMs > 0 && Number.isInteger(args.capMs) && args.capMs >= 0)) {
    throw new Error("settle needs quietMs > 0 and capMs >= 0");
  }
  const quiet = args.quietMs;
  const capMs = args.capMs;
  const change = args.change === true;
  const framed = !change && Number.isInteger(args.longMs) && args.longMs > quiet;
  const perf = win.performance;
  const now = () => perf.now();
  const start = now();
  let last = start;
  let mutations = 0;
  let bursts = 0; // mutations more than 2 ms after the previous ones start a burst
  let lastMutation = -Infinity;
  let wake = null;
  const live = env.realm === "isolated" ? liveState() : null;
  // Nodes the page changes on its own (liveNodes: a ticking clock, a live counter): their
  // changes during the wait are not the action's.
  const liveSet = Number.isInteger(args.began) && args.began > 0 && !change ? liveNodes(args.began) : null;
  let liveMutations = 0;
  const mo = new win.MutationObserver((recs) => {
    if (liveSet !== null && recs.every((r) => liveSet.has(r.target))) {
      liveMutations += recs.length;
      return;
    }
    mutations += recs.length;
    last = now();
    changedNow();
    if (last - lastMutation > 2) bursts++;
    lastMutation = last;
    if (change && wake && changed < 0) wake();
  });
  const opts = {subtree: true, childList: true, attributes: true, characterData: true};
  mo.observe(doc, opts);
  // Every open shadow root, at any depth (a component inside a component).
  const trees = [doc];
  for (let t = 0; t < trees.length; t++) {
    const all = trees[t].querySelectorAll("*");
    for (let i = 0; i < all.length; i++) {
      const r = all[i].shadowRoot;
      if (r) {
        mo.observe(r, opts);
        trees.push(r);
      }
    }
  }
  let group = null;
  if (env.realm === "isolated") {
    try {
      group = doc.documentLoadGroup || null;
    } catch (e) {
      group = null;
    }
  }
  // Which of the load group's requests count is decided by REQUESTS (below), the first
  // row a request matches; one that matches none counts until it ends or the cap.
  // A request whose channel opened before the action began (args.began: when, in ms since
  // the epoch by the server's clock, the machine's) is not its doing. (By the time the
  // channel opened: nsITimedChannel.asyncOpenTime, in µs since the epoch; a request whose
  // time cannot be read counts. A time the clock here disagrees with, later than now or
  // more than ten minutes ago, turns that row off. The moment is sent rather than the
  // time since, which would move later by however long this evaluation waited to run.)
  const old = group && Number.isInteger(args.began) ? requestsBefore(args.began) : new Set();
  const CP = group ? env.Ci.nsIContentPolicy : {};
  // What the settle does not wait for, of the requests in flight (issue 42; docs/settle.md).
  // Each row: a name (SettleResult.ignored counts by it), why, and what it tests of a
  // request's facts (requestFacts).
  const REQUESTS = [
    {name: "websocket", why: "an open WebSocket lives as long as the page; its messages answer no action", test: (q) => q.ws},
    {name: "event-stream", why: "an EventSource stays open and reconnects by itself; its events answer no action", test: (q) => q.type === CP.TYPE_INTERNAL_EVENTSOURCE || q.contentType === "text/event-stream"},
    {name: "beacon", why: "sendBeacon, <a ping> and reports are sent and forgotten: the page never reads an answer", test: (q) => q.type === CP.TYPE_BEACON || q.type === CP.TYPE_PING || q.type === CP.TYPE_CSP_REPORT},
    {name: "favicon", why: "Firefox fetches the icon by itself (pending after the load: 15–60 ms on the fixtures); the page never sees it", test: (q) => q.type === CP.TYPE_INTERNAL_IMAGE_FAVICON},
    {name: "named long poll", why: "an address a long-poll transport names so (POLL_QUERY, POLL_PATH): held open until there is news, asked again at once; a page's first round, opened during its load, holds a navigation's settle otherwise", test: (q) => POLL_QUERY.test(q.query) || POLL_PATH.test(q.path)},
    {name: "before", why: "in flight before the action began: not its doing (a long poll, a stream, an earlier action's request)", test: (q) => q.old},
    {name: "long-poll", why: "a long poll's next round: asked within CHAIN_MS of the end of a request to its address that had no answer for LONG_MS, or to an address seen so before", test: (q) => q.path !== "" && ((live !== null && live.paths.has(q.path)) || chained(q))},
    {name: "streaming", why: "a stream read as it comes (NDJSON, multipart), or an answer still arriving STREAM_MS after it began: no end to wait for", test: (q) => STREAMS.test(q.contentType) || (q.answered > 0 && q.at - q.answered >= STREAM_MS)},
    {name: "long-lived", why: "no answer LONG_MS after it opened: a long poll or a hanging request, not an answer to wait for", test: (q) => q.answered === 0 && q.opened > 0 && q.at - q.opened >= LONG_MS},
  ];
  let ends = new Map(), endsSeen = -1; // longEnds
  const leftOut = {}; // REQUESTS row → requests it left out
  const seenIgnored = new WeakSet();
  let entries = typeof perf.getEntriesByType === "function" ? perf.getEntriesByType("resource").length : 0;
  const requests = () => {
    if (group) {
      try {
        let n = 0;
        for (const r of group.requests) {
          if (!pendingOf(r)) continue;
          const row = requestRow(r);
          if (row === null) n++;
          else if (!seenIgnored.has(r)) {
            seenIgnored.add(r);
            leftOut[row.name] = (leftOut[row.name] || 0) + 1;
          }
        }
        return n;
      } catch (e) {
        group = null;
      }
    }
    if (typeof perf.getEntriesByType === "function") {
      const n = perf.getEntriesByType("resource").length;
      if (n !== entries) {
        entries = n;
        last = now();
      }
    }
    return 0;
  };
  let pending = 0;
  // A request in flight is activity (not a change: wait_for's pause ends on its end),
  // and so is its end, when a poll first sees it: the page handles the answer in the
  // tasks that follow (reads the body, renders, or starts the next request), and the
  // end is later than the last poll that saw it in flight, by up to a tick (a quiet
  // window counted from that poll ended in the 4 ms between one request's end and the
  // next one's start, on a loaded machine).
  const poll = () => {
    const was = pending;
    pending = requests();
    if ((pending > 0 || pending < was) && !change) {
      last = now();
      changedNow();
    }
  };
  // The watch of the page's timers that the text entry before started (libAct.js
  // watchTimers), when the action was one (args.entry) and the watch began after the
  // action did (args.began; a watch left by an earlier action, one that never settled,
  // is ended unused). Closed now: timers the page sets from here on (a polling chain, a
  // follow-up) hold nothing. Once the page set a timer during the entry, a debounced
  // handler may still be to come, and the page is not quiet until a timer callback
  // began after that set and the page changed (a mutation, a request) from that
  // callback's start on; unless the page cleared a timer after its last set (a
  // tooltip's or a blur's, cancelled). At the cap, a page quiet but for such a timer
  // counts as settled (a save on a 2 s timer is no render to wait for), and says so
  // (timerLeft). heldMs: how long the wait was held for one.
  // After a click, a hover or a key pressed on no text field that changed nothing while
  // it was dispatched (args.unchanged: click.js, hover.js, pressKey.js) but made the page
  // set a timer it did not clear, the wait holds while the page still shows no change
  // (no mutation since the settle began: a page that did change is judged as after any
  // action), at most to the cap: a menu or dialog shown on a timer is then in the answer. (Which timer's callback ran cannot be
  // told: Firefox's own timers on the window run theirs too. A click that only sets a
  // timer that changes nothing, a save, is held to the cap, and its answer says the page
  // had set one: timerLeft, with unchanged.)
  const unchanged = args.unchanged === true && args.entry !== true;
  let timers = !change && env.realm === "isolated" && globalThis.fxmcpTimers ? globalThis.fxmcpTimers.get(env.innerWindowID) || null : null;
  if (timers !== null && !((args.entry === true || unchanged) && Number.isInteger(args.began) && timers.began >= args.began - 5)) {
    timers.end();
    timers = null;
  }
  if (timers !== null) {
    timers.open = false;
    if (timers.timer) timers.timer.cancel();
  }
  let changeSeq = 0; // the watch's count at the page's last change
  const changedNow = () => {
    if (timers !== null) changeSeq = timers.seq;
  };
  const timerPending = () => timers !== null && timers.set > timers.clear && (unchanged ? mutations === 0 :
    !(timers.pre > timers.set && timers.post >= timers.pre && changeSeq >= timers.pre));
  let heldMs = 0, heldAt = -1, timerLeft = false;
  // frames counts the animation frames seen; settledFrame is when the timers of the
  // last frame that began after the last change had run (-1: none yet).
  let frames = 0;
  let settledFrame = -1;
  // A change made in an animation frame (by a frame callback, or in the tasks right
  // after the frame's, before its first timer turn here) may be one step of a
  // script-driven animation (jQuery's fades and slides change a style in every frame
  // until the thing is hidden): quiet then also needs a frame that began after it and
  // changed nothing, however long the next frame takes to come (a loaded machine drew
  // jQuery UI's calendar's fade frames more than longMs apart, and a wait by time alone
  // ended with its days still shown), at most FRAME_WAIT_MS (a document that stopped
  // showing frames). frameAt: the latest frame's time; frameOpen: its first timer turn
  // has not come yet; frameChangeAt: the last change found made in a frame.
  const FRAME_WAIT_MS = 1000;
  let frameAt = Infinity;
  let frameOpen = false;
  let frameChangeAt = -1;
  let frameChanges = 0;
  const frameDriven = () => last > start && (frameChangeAt === last || (frameOpen && last >= frameAt));
  const markFrameChange = () => {
    if (last > start && last >= frameAt && frameChangeAt !== last) {
      frameChangeAt = last;
      frameChanges++;
    }
  };
  let raf = 0;
  let done = false;
  // ownTimer sets a 0 ms timer on the page's window (to run after the page's own), kept
  // out of the watch of the page's timers (timers, above).
  const ownTimer = (f) => {
    if (timers !== null) timers.own++;
    try {
      win.setTimeout(() => {
        if (timers !== null && timers.pre === timers.seq) timers.pre = timers.prePrev;
        try {
          f();
        } finally {
          if (timers !== null) timers.skip++;
        }
      }, 0);
    } finally {
      if (timers !== null) timers.own--;
    }
  };
  const onFrame = (ts) => {
    raf = 0;
    if (done) return;
    frames++;
    // The frame's own time (every callback of one frame gets it), not now: a page's
    // frame callback that ran before this one in the same frame and changed the page
    // (a script-driven animation, jQuery's fades and slides: a style change every
    // frame) changed it after the frame began, so this frame settles nothing (measured:
    // jQuery UI's datepicker fading out for 200 ms after a day was picked was taken
    // for quiet after one frame, its days still listed).
    // (Strictly later than the last change: times are in whole milliseconds here, so a
    // change in the frame's first millisecond reads as the frame's time.)
    const at = typeof ts === "number" && ts > 0 && ts <= now() ? ts : now();
    frameAt = at;
    frameOpen = true;
    markFrameChange();
    // Two timer turns: what the page's own frame callbacks deferred by a timer (Preact
    // runs its effects so, and they start requests) has run by the second, whichever
    // frame callback was queued first.
    ownTimer(() => {
      if (done) return;
      if (frameAt === at) {
        markFrameChange();
        frameOpen = false;
      }
      ownTimer(() => {
        if (done) return;
        poll();
        if (at > last) {
          settledFrame = now();
          if (wake) wake();
        }
      });
    });
    raf = win.requestAnimationFrame(onFrame);
  };
  if (framed) {
    try {
      raf = win.requestAnimationFrame(onFrame);
    } catch (e) {
      raf = 0;
    }
  }
  let timer = null;
  if (env.realm === "isolated") timer = env.Cc["@mozilla.org/timer;1"].createInstance(env.Ci.nsITimer);
  const sleep = (ms) => new Promise((resolve) => {
    wake = resolve;
    if (timer) timer.initWithCallback({notify: () => resolve()}, ms, env.Ci.nsITimer.TYPE_ONE_SHOT);
    else win.setTimeout(resolve, ms);
  });
  const tick = Math.max(5, Math.min(15, Math.floor(quiet / 3)));
  // Properties that change only how a thing looks, not whether or where it shows.
  const LOOKS = /^(color|background(-color|-image|-position(-x|-y)?|-size)?|border(-(top|right|bottom|left))?-color|box-shadow|outline(-color|-width|-offset|-style)?|text-decoration(-color|-thickness)?|text-underline-offset|text-shadow|fill|stroke|stroke-width|filter|backdrop-filter|caret-color|accent-color|column-rule-color|text-emphasis-color|font-weight|letter-spacing|--.*)$/;
  // A visible document shows frames: until its first one comes (a loaded machine's can
  // come later than longMs: a settle that began between two of a fade's frames saw
  // neither a change nor a frame for 55 ms), quiet is not judged by time alone, at most
  // FRAME_WAIT_MS. A hidden one shows none, and is quiet after longMs.
  const visible = () => {
    try {
      return doc.visibilityState === "visible";
    } catch (e) {
      return false;
    }
  };
  const isQuiet = (t) => {
    if (!framed) return t - last >= quiet;
    if (frames === 0 && t - start < FRAME_WAIT_MS && visible()) return false;
    if (frameDriven() && settledFrame < last && t - last < FRAME_WAIT_MS) return false;
    return t - last >= args.longMs || (t - last >= quiet && bursts <= 1 && settledFrame >= last);
  };
  const gap = Number.isInteger(args.gapMs) && args.gapMs > 0 ? args.gapMs : 0;
  let animatingMs = 0;
  const ANIMATION_GRACE = 20;
  const ANIMATION_FAR = 5000;
  const judged = new WeakMap(); // animation → whether animationLeft leaves it out
  const ACTIONABLE = "a[href],button,input,select,textarea,[role],[tabindex],[contenteditable]";
  let met = false;
  let changed = -1; // when the first change was seen
  let before = -1;
  try {
    for (;;) {
      const seen = last;
      poll();
      if (change) {
        if (changed < 0 && (mutations > 0 || seen !== last || (before >= 0 && pending < before))) changed = now();
        before = pending;
        if (changed >= 0 && (quiet <= 1 || now() - last >= quiet || now() - changed >= gap)) {
          met = true;
          break;
        }
      }
      const t = now();
      const held = !change && isQuiet(t) && timerPending();
      if (held && heldAt < 0) heldAt = t;
      else if (!held && heldAt >= 0) {
        heldMs += t - heldAt;
        heldAt = -1;
      }
      if (!change && !held && isQuiet(t)) {
        // (Not in a document that shows no frames: its animations stand still.)
        const [within, beyond] = framed && frames > 0 ? animationLeft(start + capMs - t - ANIMATION_GRACE - args.longMs) : [0, 0];
        if (within > 0) {
          // Quiet once they have ended and a little more (the page's own end of a fade, a
          // timer of the transition's length, can come a few ms after it: Bootstrap's), and
          // a frame after that.
          last = t + within + ANIMATION_GRACE;
        } else {
          animatingMs = Math.round(beyond);
          met = true;
          break;
        }
      }
      if (t - start >= capMs) {
        if (held) met = timerLeft = true;
        break;
      }
      let left = tick;
      if (change && changed >= 0) left = Math.min(quiet - (t - last), changed + gap - t);
      else if (!change && t - last < quiet) left = quiet - (t - last);
      await sleep(Math.max(1, Math.min(tick, left, capMs - (t - start))));
      wake = null;
      if (timer) timer.cancel();
      if (ownRecords(mo.takeRecords()) > 0) {
        mutations++;
        last = now();
        changedNow();
        if (last - lastMutation > 2) bursts++;
        lastMutation = last;
      }
    }
  } finally {
    done = true;
    mo.disconnect();
    if (live !== null && !change) watchLive();
    if (timers !== null) {
      if (heldAt >= 0) heldMs += now() - heldAt;
      timers.end();
    }
    if (timer) timer.cancel();
    if (raf) {
      try {
        win.cancelAnimationFrame(raf);
      } catch (e) {}
    }
  }
  // The address when the wait ended: the action's caller reads it anyway.
  return {quiet: met, startedMs: start, waitedMs: Math.round(now() - start), mutations, pending, requests: group !== null, frames, frameChanges, animatingMs, heldMs: Math.round(heldMs), ignored: leftOut, liveMutations, timerLeft, timerUnchanged: timerLeft && unchanged, url: String(win.location.href)};

  // animationLeft tells how long (ms) until the last of the page's running transitions
  // and animations that can show or hide something ends, of those that end within
  // budget ms, and of the others that end within ANIMATION_FAR (0: none). Left out:
  // endless ones (a spinner) and longer ones (a slow hero, a toast's progress bar);
  // those of properties that change only how a thing looks (LOOKS: the hover and focus
  // transitions of buttons); those of pseudo-elements, and of decorative elements (a
  // click's ripple). In the document and its shadow roots; a reversed one ends at its
  // start.
  function animationLeft(budget) {
    let within = 0, beyond = 0;
    for (const t of trees) {
      let list;
      try {
        list = typeof t.getAnimations === "function" ? t.getAnimations() : [];
      } catch (e) {
        list = [];
      }
      for (const a of list) {
        try {
          const rate = a.playbackRate;
          if (a.playState !== "running" || !rate || !a.effect) continue;
          const ct = a.effect.getComputedTiming();
          // (One the page just started is pending, without a time yet, until the next
          // frame: all of it is left.)
          const lt = ct.localTime === null && a.pending ? (rate > 0 ? 0 : ct.endTime) : ct.localTime;
          if (!Number.isFinite(ct.endTime) || lt === null) continue;
          const left = rate > 0 ? (ct.endTime - lt) / rate : lt / -rate;
          if (!(left > 0) || left > ANIMATION_FAR || ignored(a)) continue;
          if (left <= budget) within = Math.max(within, left);
          else beyond = Math.max(beyond, left);
        } catch (e) {}
      }
    }
    return [within, beyond];
  }

  function ignored(a) {
    let v = judged.get(a);
    if (v === undefined) {
      v = a.effect.pseudoElement != null || looksOnly(a) || decorative(a.effect.target);
      judged.set(a, v);
    }
    return v;
  }

  function looksOnly(a) {
    if (typeof a.transitionProperty === "string") return LOOKS.test(a.transitionProperty);
    const frames = a.effect.getKeyframes();
    for (const f of frames) {
      for (const k of Object.keys(f)) {
        if (k !== "offset" && k !== "easing" && k !== "composite" && k !== "computedOffset" && !LOOKS.test(k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()))) return false;
      }
    }
    return true;
  }

  // decorative: an element that takes no pointer, with no text and nothing actionable in
  // it: a click's ripple. (A backdrop takes the pointer: its fade's end can show a modal,
  // Bootstrap's.)
  function decorative(el) {
    if (!el || el.nodeType !== 1) return true;
    if (String(el.textContent).trim() !== "" || el.querySelector(ACTIONABLE)) return false;
    return win.getComputedStyle(el).pointerEvents === "none";
  }

  // pendingOf tells whether a request of the load group is in flight. An image's
  // (imgRequestProxy) implements no isPending: it is in the group while it loads. (It
  // threw, which turned the watch of requests off for the whole wait.)
  function pendingOf(r) {
    try {
      return r.isPending();
    } catch (e) {
      return true;
    }
  }

  // ownRecords counts the records that are not the page's own live changes (liveSet).
  function ownRecords(recs) {
    if (liveSet === null) return recs.length;
    const own = recs.filter((r) => !liveSet.has(r.target)).length;
    liveMutations += recs.length - own;
    return own;
  }

  // requestRow is the first row of REQUESTS that request r matches (null: none; it
  // counts).
  function requestRow(r) {
    const q = requestFacts(r);
    for (const row of REQUESTS) {
      if (row.test(q)) return row;
    }
    return null;
  }

  // requestFacts is what the rows read of a request: whether it is a WebSocket, its
  // content policy type and content type, its address (origin and path) and query, when
  // it opened and when its answer began (ms since the epoch, 0: not known or not yet),
  // and whether it opened before the action (old).
  function requestFacts(r) {
    const q = {r, ws: false, type: -1, contentType: "", path: "", query: "", opened: 0, answered: 0, old: old.has(r), at: Date.now()};
    try {
      r.QueryInterface(env.Ci.nsIWebSocketChannel);
      q.ws = true;
    } catch (e) {
      try {
        q.ws = /^wss?:/i.test(r.name);
      } catch (e2) {}
    }
    let ch = null;
    try {
      ch = r.QueryInterface(env.Ci.nsIChannel);
      q.type = ch.loadInfo.internalContentPolicyType;
      q.path = ch.URI.prePath + ch.URI.filePath;
      q.query = String(ch.URI.query || "");
    } catch (e) {}
    try {
      // (An HTTP channel throws until its answer begins.)
      if (ch !== null) q.contentType = String(ch.contentType || "").toLowerCase();
    } catch (e) {}
    try {
      const tc = r.QueryInterface(env.Ci.nsITimedChannel);
      q.opened = tc.asyncOpenTime / 1000;
      q.answered = tc.responseStartTime / 1000;
    } catch (e) {}
    return q;
  }

  // liveState is this document's record of its live traffic and changes, kept in this
  // sandbox's global (fxmcpLive, per inner window; at most LIVE_WINDOWS, the oldest
  // dropped): paths, the addresses of requests found long-lived; ring, the page's
  // recent changes made on its own (watchLive).
  function liveState() {
    let reg = globalThis.fxmcpLive;
    if (!reg) {
      reg = new Map();
      Object.defineProperty(globalThis, "fxmcpLive", {value: reg});
    }
    let st = reg.get(env.innerWindowID);
    if (!st) {
      while (reg.size >= LIVE_WINDOWS) {
        const [k, v] = reg.entries().next().value;
        if (v.mo) v.mo.disconnect();
        reg.delete(k);
      }
      st = {paths: new Set(), ring: [], mo: null, paused: false};
      reg.set(env.innerWindowID, st);
    }
    return st;
  }

  function remember(path) {
    if (live.paths.has(path)) return;
    if (live.paths.size >= LIVE_PATHS) live.paths.delete(live.paths.values().next().value);
    live.paths.add(path);
  }

  // longEnds maps the addresses of the page's finished fetches and XHRs (its last
  // LEARN_ENTRIES resource timing entries) whose answer took LONG_MS or more to begin to
  // when the last such one ended (ms since the epoch), read again when entries came.
  function longEnds() {
    let list;
    try {
      list = perf.getEntriesByType("resource");
    } catch (e) {
      return ends;
    }
    if (list.length === endsSeen) return ends;
    endsSeen = list.length;
    ends = new Map();
    for (let i = Math.max(0, list.length - LEARN_ENTRIES); i < list.length; i++) {
      const e = list[i];
      if ((e.initiatorType !== "fetch" && e.initiatorType !== "xmlhttprequest") || e.responseStart - e.startTime < LONG_MS) continue;
      try {
        const u = new win.URL(e.name);
        ends.set(u.origin + u.pathname, perf.timeOrigin + e.responseEnd);
      } catch (err) {}
    }
    return ends;
  }

  // chained tells whether a request opened at most CHAIN_MS after a request to the same
  // address that had no answer for LONG_MS ended: a long poll's next round, which the
  // page asks at once. (A slow API asked again by a later action comes later; once it
  // is seen, the address is remembered for the document: live.paths.)
  function chained(q) {
    if (q.path === "" || q.opened <= 0) return false;
    const end = longEnds().get(q.path);
    if (end === undefined || q.opened < end - 100 || q.opened - end > CHAIN_MS) return false;
    if (live !== null) remember(q.path);
    return true;
  }

  // liveNodes is the set of nodes the page changed on its own: in two tasks or more
  // (distinct times) between waits, before the action began and within LIVE_WINDOW_MS
  // of it (a ticking clock's, a live counter's). The record spans the gaps between
  // earlier waits too (it is not cleared when a wait ends), so a clock is known as live
  // even when the action follows the last wait at once. A node that changed once
  // before the action (a previous action's late result, "5 jobs loaded") and then
  // again after it began is the action's doing, not live: its changes are waited for.
  // The watch pauses until this wait ends (what changes during a wait is no evidence).
  function liveNodes(began) {
    if (live === null || live.mo === null) return null;
    try {
      live.mo.takeRecords(); // (changes of this very task: the action's own, not evidence)
    } catch (e) {}
    live.paused = true;
    const seen = new Map(); // node → [distinct times, last time]
    for (const [node, t] of live.ring) {
      if (t < began - LIVE_WINDOW_MS || t >= began) continue;
      const v = seen.get(node);
      if (!v) seen.set(node, [1, t]);
      else if (v[1] !== t) seen.set(node, [v[0] + 1, t]);
    }
    live.ring = live.ring.filter(([, t]) => t >= began - LIVE_WINDOW_MS && t < began);
    const out = new Set();
    for (const [node, v] of seen) if (v[0] >= 2) out.add(node);
    return out;
  }

  // watchLive (re)starts the watch of the changes the page makes on its own, between
  // this wait's end and the next action's start (at most LIVE_RING of them kept, with
  // those recorded between earlier waits).
  function watchLive() {
    live.paused = false;
    if (live.mo !== null) return;
    try {
      live.mo = new win.MutationObserver((recs) => {
        if (live.paused) return;
        const t = Date.now();
        for (const r of recs) live.ring.push([r.target, t]);
        if (live.ring.length > LIVE_RING) live.ring.splice(0, live.ring.length - LIVE_RING);
      });
      live.mo.observe(doc, {subtree: true, childList: true, attributes: true, characterData: true});
    } catch (e) {
      live.mo = null;
    }
  }

  // requestsBefore is the set of the load group's requests in flight whose channel opened
  // before began (ms since the epoch), or none when the clock here disagrees with began.
  function requestsBefore(began) {
    const out = new Set();
    if (!(began <= Date.now() && began > Date.now() - 600000)) return out;
    try {
      const from = began * 1000;
      for (const r of group.requests) {
        if (!pendingOf(r)) continue;
        let at = 0;
        try {
          at = r.QueryInterface(env.Ci.nsITimedChannel).asyncOpenTime;
        } catch (e) {
          at = 0;
        }
        if (at > 0 && at < from) out.add(r);
      }
    } catch (e) {
      out.clear();
    }
    return out;
  }
}
