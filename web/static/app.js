// Tessera's game page. The page works without this script (links and
// forms); the script adds: live updates (Server-Sent Events), scrubbing
// with the arrow keys without reloading, the clock counting down, and
// moves sent without leaving the page. No inline script: CSP forbids it.
"use strict";
(function () {
  const game = document.getElementById("game");
  if (!game) return;
  const address = game.dataset.address;

  // The position shown, as the server last drew it.
  function shown() { return game.querySelector(".position"); }
  function atLast() { const p = shown(); return p && p.dataset.live === "1"; }

  // load replaces the position with the server's fragment for ?move=n
  // ("" for the last), and names it in the address bar.
  // A newer load aborts an older one (a live update during a scrub, or
  // the answer to a move racing its own live event); the message of the
  // player's last action waits in said for whichever load shows the page.
  let loading = null;
  let said = null;
  async function load(n, push) {
    const q = n === "" ? "" : "?move=" + n;
    const ctl = new AbortController();
    if (loading) loading.abort();
    loading = ctl;
    const sep = q ? "&" : "?";
    let html;
    try {
      const res = await fetch(address + q + sep + "part=position", { signal: ctl.signal, credentials: "same-origin" });
      if (!res.ok) return;
      html = await res.text();
    } catch (e) {
      return; // aborted by a newer load, or offline: the next event or key tries again
    }
    if (loading !== ctl) return;
    loading = null;
    const old = shown();
    const tmp = document.createElement("div");
    tmp.innerHTML = html; // the server's own template: escaped
    const next = tmp.querySelector(".position");
    if (!old || !next) return;
    // Focus inside the old position (a scrub button) moves to its
    // counterpart in the new one, so a keyboard user stays in place.
    const focused = document.activeElement && old.contains(document.activeElement) ? focusKey(document.activeElement) : null;
    old.replaceWith(next);
    game.dataset.version = next.dataset.version;
    if (focused) {
      const again = next.querySelector(focused);
      if (again) again.focus();
    }
    // The live region (outside the position, changed in place) says
    // what the new position is: the move that made it, whose turn.
    const announce = document.getElementById("announce");
    if (announce && next.dataset.said) announce.textContent = next.dataset.said;
    if (push) history.pushState({ move: n }, "", address + q);
    countdown();
    if (window.TesseraPlay) window.TesseraPlay.attach();
    const box = said && document.getElementById("said");
    if (box) {
      box.textContent = said.message;
      box.classList.toggle("ok", !!said.ok);
      box.classList.remove("hidden");
      said = null;
    }
  }

  // Scrubbing: the links carry data-move; the script loads the fragment
  // instead of the whole page.
  document.addEventListener("click", function (e) {
    const a = e.target.closest("a[data-move]");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    const n = a.getAttribute("data-move");
    const p = shown();
    load(p && n === p.dataset.total ? "" : n, true);
  });
  // focusKey names a focused element of a position so that the next
  // position's counterpart can take the focus.
  function focusKey(el) {
    if (el.getAttribute("aria-label")) return '[aria-label="' + el.getAttribute("aria-label").replace(/"/g, "") + '"]';
    if (el.dataset && el.dataset.move) return '[data-move="' + el.dataset.move + '"]';
    return null;
  }
  document.addEventListener("keydown", function (e) {
    // Typing, choosing or moving among the board's cells, not scrubbing.
    if (e.target.closest && e.target.closest("input, select, textarea, .targets, .choose, #playbar")) return;
    const p = shown();
    if (!p) return;
    const at = +p.dataset.moves, total = +p.dataset.total;
    let n = null;
    if (e.key === "ArrowLeft") n = Math.max(0, at - 1);
    else if (e.key === "ArrowRight") n = Math.min(total, at + 1);
    else if (e.key === "Home") n = 0;
    else if (e.key === "End") n = total;
    if (n === null || n === at) return;
    e.preventDefault();
    load(n === total ? "" : n, true);
  });
  window.addEventListener("popstate", function () {
    const n = new URLSearchParams(location.search).get("move");
    load(n === null ? "" : n, false);
  });

  // Live: a change event names the game's new version; a page at the last
  // position fetches it, a page looking back only updates its count.
  if (window.EventSource) {
    const es = new EventSource(address + "/events?v=" + game.dataset.version);
    es.addEventListener("change", function (e) {
      const c = JSON.parse(e.data);
      if (String(c.version) === game.dataset.version) return;
      if (atLast()) load("", false);
      else {
        game.dataset.version = String(c.version);
        const at = shown().querySelector(".at");
        if (at) at.textContent = at.textContent.replace(/of \d+$/, "of " + c.moves).replace(/· (\d+|no) moves?( yet)?$/, "· " + c.moves + (c.moves === 1 ? " move" : " moves"));
        const announce = document.getElementById("announce");
        if (announce) announce.textContent = "A new move was made: " + c.moves + " moves now. Press End to see it.";
      }
    });
  }

  // The clock: the time left, counted down every second.
  function countdown() {
    for (const t of document.querySelectorAll("time.countdown")) {
      const end = Date.parse(t.getAttribute("datetime"));
      if (isNaN(end)) continue;
      const left = Math.max(0, Math.floor((end - Date.now()) / 1000));
      const d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      t.textContent = (d ? d + "d " : "") + (d || h ? h + "h " : "") + m + "m " + (d ? "" : s + "s");
    }
  }
  countdown();
  setInterval(countdown, 1000);

  window.TesseraPage = { load: load, game: game, say: function (answer) { said = answer; } };
})();

// Moving by clicking, tapping or the keyboard. The player's page holds
// their legal moves placed on the board (the placements: each move's
// piece, the cells tapped in order in the board's own units, its turn or
// flip, what it gains), inline or fetched when long. The player picks a
// piece from the bar under the board, taps the marked cells (buttons laid
// over the board: at least 24 CSS px, 44 where the cells allow, reached
// by Tab and moved among by the arrow keys), turns the piece through its
// legal variants with a preview of the board after the move, and plays.
// One move is chosen at a time: the choice fills the move form's field
// (the list, or the typed move), a choice from the list is drawn on the
// board, and every Play button submits that one form. The server checks
// the move again.
(function () {
  const page = window.TesseraPage;
  if (!page) return;

  // post sends a form's move with the page's CSRF token and shows the
  // answer; the page then loads the new position.
  async function post(form) {
    let res;
    try {
      res = await fetch(form.action || form.getAttribute("action"), {
        method: "POST", credentials: "same-origin",
        headers: { "Accept": "application/json", "X-CSRF-Token": page.game.dataset.csrf || "" },
        body: new URLSearchParams(new FormData(form)),
      });
    } catch (e) {
      page.say({ ok: false, message: "The move did not reach the server; check the connection and try again." });
      page.load("", false);
      return;
    }
    let answer = { ok: false, message: "The server did not answer; reload the page." };
    try { answer = await res.json(); } catch (e) { /* not JSON: keep the generic words */ }
    page.say(answer); // shown by the load that draws the new position
    page.load("", false);
  }
  document.addEventListener("submit", function (e) {
    const form = e.target.closest("form.post");
    if (!form || !page.game.dataset.csrf) return;
    e.preventDefault();
    post(form);
  });

  // The smallest a target may be (WCAG 2.2's 2.5.8) and the size it
  // aims for (2.5.5), in CSS px.
  const MIN = 24, AIM = 44;

  // cellNames are the coordinates a move's notation names, in order
  // ("a1 a2 a3" → a1, a2, a3; "13 m13" → m13; "flip a5" → a5): the
  // targets' names for whoever cannot see where they are.
  function cellNames(text) {
    return text.split(/\s+/).filter(function (w) { return /^[a-z]{1,2}\d{1,2}$/i.test(w); });
  }

  function attach() {
    const bar = document.getElementById("playbar");
    const picker = bar && bar.querySelector(".picker");
    const fig = document.querySelector("figure.board");
    const img = fig && fig.querySelector(".board-img");
    const form = document.getElementById("moveform");
    const field = form && form.elements.move;
    if (!picker || !img || !img.querySelector("svg") || !form || !field) return;
    const src = picker.querySelector(".placements");
    let data;
    if (src && src.dataset.src) {
      // A long list is not in the page: fetch it once, then attach.
      if (!src.dataset.loaded) {
        src.dataset.loaded = "1";
        fetch(src.dataset.src, { credentials: "same-origin", headers: { "Accept": "application/json" } }).then(function (res) {
          return res.ok ? res.json() : null;
        }).then(function (d) {
          if (!d || !document.body.contains(src)) return;
          src.data = d;
          attach();
        }).catch(function () { /* offline: the form still takes a typed move */ });
      }
      if (!src.data) return;
      data = src.data;
    } else {
      try { data = JSON.parse(src.textContent); } catch (e) { return; }
    }
    const moves = data.m.map(function (r) {
      return { move: r[0], piece: data.k[r[1]], variant: data.v[r[2]], gain: data.g[r[3]], at: r[4], names: cellNames(r[0]) };
    });
    picker.hidden = false;
    picker.dataset.moves = String(moves.length);
    const original = img.innerHTML;
    const choose = picker.querySelector(".choose");
    const chosen = picker.querySelector(".chosen");
    const turn = picker.querySelector('[data-act="turn"]');
    const cancel = picker.querySelector('[data-act="cancel"]');
    const plays = Array.from(document.querySelectorAll('[form="moveform"][type="submit"], #moveform [type="submit"]'));
    let targets = fig.querySelector(".targets");
    if (!targets) {
      targets = document.createElement("div");
      targets.className = "targets";
      targets.setAttribute("role", "group");
      fig.appendChild(targets);
    }
    let piece = null, taps = [], variants = [], vi = 0, more = false, previewed = false;
    let zoom = null; // the viewBox zoomed into, or null
    const vb0 = (function () { // the board's own viewBox
      const svg = img.querySelector("svg"), v = svg && svg.viewBox && svg.viewBox.baseVal;
      return v && v.width > 0 ? { x: v.x, y: v.y, width: v.width, height: v.height } : null;
    })();

    // The pitch of the board's cells: the distance between the two
    // nearest distinct points of any move, in the board's units.
    let pitch = Infinity;
    const pts = data.p;
    for (let i = 0; i < pts.length && i < 600; i++)
      for (let j = i + 1; j < pts.length && j < 600; j++) {
        const d = Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]);
        if (d > 1e-6 && d < pitch) pitch = d;
      }

    const names = data.k.filter(function (k) { return k !== ""; });
    if (names.length === 0) piece = ""; // nothing to pick: the cells say all

    function candidates() {
      return moves.filter(function (m) {
        if (piece !== null && m.piece !== piece) return false;
        for (let i = 0; i < taps.length; i++) if (m.at[i] !== taps[i]) return false;
        return true;
      });
    }

    function drawPieces() {
      choose.textContent = "";
      for (const n of names) {
        const b = document.createElement("button");
        b.type = "button"; b.className = "btn piece"; b.textContent = n;
        b.setAttribute("aria-pressed", String(n === piece));
        b.addEventListener("click", function (e) { piece = n; taps = []; show(); if (e.detail === 0) focusTarget(); });
        choose.appendChild(b);
      }
    }

    // place lays the targets over the board where the SVG draws it (its
    // viewBox scaled to fit its box, centred).
    function place() {
      applyZoom();
      const svg = img.querySelector("svg");
      if (!svg || !svg.viewBox || !svg.viewBox.baseVal) return;
      const vb = svg.viewBox.baseVal;
      const box = svg.getBoundingClientRect(), f = fig.getBoundingClientRect();
      const scale = Math.min(box.width / vb.width, box.height / vb.height);
      const ox = box.left - f.left + (box.width - vb.width * scale) / 2;
      const oy = box.top - f.top + (box.height - vb.height * scale) / 2;
      const size = Math.max(MIN, Math.min(AIM, isFinite(pitch) ? pitch * scale : AIM));
      const hit = Math.max(size, isFinite(pitch) ? Math.min(pitch * scale, 2 * AIM) * 0.9 : size);
      for (const b of targets.children) {
        const p = pts[+b.dataset.point];
        b.style.width = b.style.height = hit + "px";
        b.style.left = (ox + (p[0] - vb.x) * scale - hit / 2) + "px";
        b.style.top = (oy + (p[1] - vb.y) * scale - hit / 2) + "px";
        b.style.setProperty("--mark", Math.min(hit, AIM) * 0.7 + "px");
      }
    }

    function drawTargets() {
      targets.textContent = "";
      if (piece === null || !more) return;
      const seen = new Set();
      const list = [];
      for (const m of candidates()) {
        const p = m.at[taps.length];
        if (p === undefined || seen.has(p) || !inZoom(pts[p])) continue;
        seen.add(p);
        list.push({ p: p, name: m.names[taps.length] || "cell " + (list.length + 1) });
      }
      // Reading order: top to bottom, then left to right.
      list.sort(function (a, b) { return pts[a.p][1] - pts[b.p][1] || pts[a.p][0] - pts[b.p][0]; });
      targets.setAttribute("aria-label", (taps.length ? "Next cell" : "Cells") + " for " + (piece || "your move") + ": " + list.length);
      list.forEach(function (t, i) {
        const b = document.createElement("button");
        b.type = "button"; b.className = "target";
        b.dataset.point = String(t.p);
        b.tabIndex = i === 0 ? 0 : -1; // one stop for Tab; the arrows move inside
        b.setAttribute("aria-label", t.name);
        b.addEventListener("click", function (e) {
          if (e.detail !== 0 && needsZoom()) zoomAt(e.clientX, e.clientY);
          else tapCell(t.p, e.detail === 0);
        });
        targets.appendChild(b);
      });
      place();
    }

    // tapCell takes a tap on the cell at point p (by a key: the focus
    // follows to the next step).
    function tapCell(p, byKey) {
      taps.push(p); show();
      if (byKey) focusTarget();
    }

    // The zoom: where the marked cells are drawn closer than AIM CSS px
    // apart (Glorieta's on a phone: about 28), a tap on the board (on a
    // marked cell or near one) first zooms in around the tap, by changing
    // the SVG's viewBox, until the cells are AIM apart; the marked cells
    // in view are then taken by a tap, and only they are listed. The
    // board zooms out when the move is named (its preview shows the whole
    // board), on Cancel, or on a tap away from the marked cells. A key
    // takes a cell at once, zoomed or not.
    function needsZoom() {
      return !zoom && isFinite(pitch) && pitch * shownScale() < AIM;
    }
    function shownScale() {
      const svg = img.querySelector("svg");
      if (!svg || !vb0) return 1;
      const box = svg.getBoundingClientRect();
      return Math.min(box.width / vb0.width, box.height / vb0.height);
    }
    function zoomAt(x, y) {
      const svg = img.querySelector("svg");
      if (!svg || !vb0) return;
      const box = svg.getBoundingClientRect();
      const scale = shownScale();
      const k = Math.min(8, AIM * 1.1 / (pitch * scale));
      // The tap in the board's units.
      const bx = vb0.x + (x - box.left - (box.width - vb0.width * scale) / 2) / scale;
      const by = vb0.y + (y - box.top - (box.height - vb0.height * scale) / 2) / scale;
      const w = vb0.width / k, h = vb0.height / k;
      zoom = {
        x: Math.max(vb0.x, Math.min(vb0.x + vb0.width - w, bx - w / 2)),
        y: Math.max(vb0.y, Math.min(vb0.y + vb0.height - h, by - h / 2)),
        width: w, height: h,
      };
      drawTargets();
    }
    function zoomOut() {
      if (!zoom) return;
      zoom = null;
      applyZoom();
    }
    // applyZoom sets the board's viewBox (the SVG may have been drawn
    // again: a preview, the position before it).
    function applyZoom() {
      const svg = img.querySelector("svg");
      if (!svg || !vb0) return;
      const v = zoom || vb0;
      svg.setAttribute("viewBox", v.x + " " + v.y + " " + v.width + " " + v.height);
      fig.classList.toggle("zoomed", !!zoom);
    }
    function inZoom(p) {
      if (!zoom) return true;
      const m = pitch / 2;
      return p[0] >= zoom.x + m && p[0] <= zoom.x + zoom.width - m && p[1] >= zoom.y + m && p[1] <= zoom.y + zoom.height - m;
    }
    fig.onclick = function (e) {
      if (!e.target.closest || e.target.closest(".target, a, button, input, select")) return;
      if (!targets.children.length) return;
      if (needsZoom()) zoomAt(e.clientX, e.clientY);
      else if (zoom) { zoomOut(); drawTargets(); }
    };

    // The arrow keys move among the targets: to the nearest one in that
    // direction (roving tabindex).
    targets.onkeydown = function (e) {
      const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      const d = dirs[e.key];
      const cur = e.target.closest(".target");
      if (!cur) return;
      let next = null;
      if (d) {
        const a = pts[+cur.dataset.point];
        let best = Infinity;
        for (const b of targets.children) {
          if (b === cur) continue;
          const q = pts[+b.dataset.point];
          const dx = q[0] - a[0], dy = q[1] - a[1];
          const along = dx * d[0] + dy * d[1];
          if (along <= 1e-6) continue;
          const across = Math.abs(dx * d[1]) + Math.abs(dy * d[0]);
          const cost = along + 2 * across;
          if (cost < best) { best = cost; next = b; }
        }
      } else if (e.key === "Home") next = targets.firstElementChild;
      else if (e.key === "End") next = targets.lastElementChild;
      if (!d && e.key !== "Home" && e.key !== "End") return;
      e.preventDefault();
      if (!next) return;
      cur.tabIndex = -1; next.tabIndex = 0; next.focus();
    };

    // focusTarget moves the keyboard's focus where the next step is:
    // the first target, or Play once the move is named (after a key
    // pressed a button: e.detail is 0; a tap leaves the focus alone).
    function focusTarget() {
      const t = targets.querySelector('.target[tabindex="0"]');
      if (t) t.focus();
      else if (variants.length && plays[0]) plays[0].focus();
    }

    // label names the chosen move; preview shows the board after it
    // (not while more cells may still be tapped, so that the targets
    // stay on the board).
    function label() {
      const m = variants[vi];
      chosen.textContent = m.move + (m.variant ? " · " + m.variant : "") + (m.gain ? " (" + m.gain + ")" : "");
      turn.hidden = variants.length < 2;
      turn.textContent = variants.length > 1 ? "Turn (" + (vi + 1) + "/" + variants.length + ")" : "Turn";
      turn.setAttribute("aria-label", "Turn the piece: " + (vi + 1) + " of " + variants.length);
    }
    async function preview() {
      const m = variants[vi];
      label();
      field.value = m.move;
      for (const b of plays) b.disabled = false;
      if (more) return;
      let res;
      try {
        res = await fetch(page.game.dataset.address + "/preview?move=" + encodeURIComponent(m.move), { credentials: "same-origin" });
      } catch (e) { return; }
      if (res.ok && variants[vi] === m) { img.innerHTML = await res.text(); previewed = true; place(); } // our own renderer's SVG
    }

    // show draws the step the player is at: the pieces, the targets of
    // the next cell, and the chosen move once the taps name one (a move
    // of fewer cells, Glorieta's single stone, may be played while the
    // targets of a longer one stay).
    function show(keepField) {
      if (previewed) { img.innerHTML = original; previewed = false; } // the board before the move, parsed again only when changed

      drawPieces();
      picker.dataset.taps = taps.join(" "); // the cells tapped so far (the tests read it)
      const c = piece === null ? [] : candidates();
      const done = c.filter(function (m) { return m.at.length === taps.length; });
      more = done.length < c.length;
      if (!more || piece === null) zoomOut();
      drawTargets();
      cancel.disabled = piece === null || (taps.length === 0 && names.length === 0);
      if (piece !== null && taps.length > 0 && done.length > 0) {
        if (!(variants.length && done.indexOf(variants[vi]) >= 0)) { variants = done; vi = 0; }
        else variants = done;
        preview();
        return;
      }
      variants = []; vi = 0;
      turn.hidden = true;
      if (keepField && field.value.trim() !== "") { // a move not on the board, from the list or typed
        chosen.textContent = field.value;
        for (const b of plays) b.disabled = false;
        return;
      }
      field.value = "";
      for (const b of plays) b.disabled = true;
      chosen.textContent = piece === null ? "Pick a piece, then tap where it goes." :
        (taps.length === 0 ? "Tap a marked cell" + (piece ? " for " + piece : "") + "." : "Tap the next marked cell.");
    }

    // A move chosen from the list is the board's choice too.
    field.onchange = field.oninput = function () {
      const m = moves.find(function (x) { return x.move === field.value.trim(); });
      if (!m) { // not a placement: the board shows no choice
        taps = []; variants = [];
        if (names.length) piece = null;
        show(true);
        return;
      }
      piece = names.length ? m.piece : "";
      taps = m.at.slice();
      const c = candidates().filter(function (x) { return x.at.length === taps.length; });
      variants = c; vi = Math.max(0, c.indexOf(m));
      show();
    };

    cancel.onclick = function () { taps = []; variants = []; if (names.length) piece = null; show(); };
    turn.onclick = function () { vi = (vi + 1) % variants.length; preview(); };
    new ResizeObserver(place).observe(fig);
    show();
  }
  window.TesseraPlay = { attach: attach };
  attach();
})();
