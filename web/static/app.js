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
    old.replaceWith(next);
    game.dataset.version = next.dataset.version;
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
  document.addEventListener("keydown", function (e) {
    if (e.target.closest && e.target.closest("input, select, textarea")) return; // typing, not scrubbing
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
        if (at) at.textContent = at.textContent.replace(/of \d+$/, "of " + c.moves);
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

// Moving by clicking. The player's page lists their legal moves that are
// placed on the board (ul.placements: each move's piece, the cells tapped
// in order in the board's own units, and its turn or flip). The player
// picks a piece, taps the cells (targets drawn over the board's SVG, whose
// viewBox is in those units), turns the piece through its legal variants
// with a preview of the board after the move, and confirms. Only listed
// moves can be chosen; the server checks the move again.
(function () {
  const page = window.TesseraPage;
  if (!page) return;
  const SVGNS = "http://www.w3.org/2000/svg";

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

  function attach() {
    const picker = document.querySelector("#play .picker");
    const board = document.querySelector("figure.board");
    const svg = board && board.querySelector("svg");
    if (!picker || !svg || !svg.viewBox || !svg.viewBox.baseVal) return;
    // A long list of moves is not in the page: fetch it once, then attach.
    const list = picker.querySelector(".placements");
    if (list && list.dataset.src && !list.dataset.loaded) {
      list.dataset.loaded = "1";
      fetch(list.dataset.src, { credentials: "same-origin" }).then(function (res) {
        return res.ok ? res.text() : "";
      }).then(function (html) {
        if (!html || !document.body.contains(list)) return;
        list.innerHTML = html; // the server's own template: escaped
        attach();
      }).catch(function () { /* offline: the form still takes a typed move */ });
      return;
    }
    picker.hidden = false;
    const moves = Array.from(picker.querySelectorAll(".placements li")).map(function (li) {
      return {
        move: li.dataset.move, piece: li.dataset.piece, variant: li.dataset.variant, gain: li.dataset.gain,
        at: li.dataset.at.split(";").filter(Boolean).map(function (p) { const xy = p.split(","); return [+xy[0], +xy[1]]; }),
      };
    });
    const original = board.innerHTML;
    const choose = picker.querySelector(".choose");
    const confirm = picker.querySelector(".confirm");
    const chosen = picker.querySelector(".chosen");
    const turn = picker.querySelector('[data-act="turn"]');
    let piece = null, taps = [], variants = [], vi = 0;

    // The targets' radius: half the distance between the two nearest
    // distinct points of any move, so that neighbouring targets never
    // overlap.
    const all = [];
    for (const m of moves) for (const p of m.at) all.push(p);
    let near = Infinity;
    for (let i = 0; i < all.length && i < 400; i++)
      for (let j = i + 1; j < all.length && j < 400; j++) {
        const d = Math.hypot(all[i][0] - all[j][0], all[i][1] - all[j][1]);
        if (d > 1e-6 && d < near) near = d;
      }
    const vb = svg.viewBox.baseVal;
    const radius = isFinite(near) ? near * 0.45 : Math.min(vb.width, vb.height) / 30;

    const same = (a, b) => Math.abs(a[0] - b[0]) < 1e-6 && Math.abs(a[1] - b[1]) < 1e-6;
    function candidates() {
      return moves.filter(function (m) {
        if (piece !== null && m.piece !== piece) return false;
        for (let i = 0; i < taps.length; i++) if (!m.at[i] || !same(m.at[i], taps[i])) return false;
        return true;
      });
    }

    function pieces() {
      choose.textContent = "";
      const names = [];
      for (const m of moves) if (m.piece && names.indexOf(m.piece) < 0) names.push(m.piece);
      if (names.length === 0) { // nothing to pick: the cells say all
        piece = "";
        picker.querySelector(".hint").textContent = "Tap a marked cell.";
        return;
      }
      for (const n of names) {
        const b = document.createElement("button");
        b.type = "button"; b.className = "btn"; b.textContent = n;
        b.setAttribute("aria-pressed", String(n === piece));
        b.addEventListener("click", function () { piece = n; taps = []; show(); });
        choose.appendChild(b);
      }
    }

    function targets() {
      const live = board.querySelector("svg");
      const old = live.querySelector("g.hits");
      if (old) old.remove();
      if (piece === null) return;
      const g = document.createElementNS(SVGNS, "g");
      g.setAttribute("class", "hits");
      const seen = [];
      for (const m of candidates()) {
        const p = m.at[taps.length];
        if (!p || seen.some(function (q) { return same(p, q); })) continue;
        seen.push(p);
        // The mark is a circle; the target is the whole cell around it
        // (a transparent square), so that a finger finds it.
        const cell = document.createElementNS(SVGNS, "rect");
        cell.setAttribute("class", "cell");
        cell.setAttribute("x", p[0] - radius / 0.9); cell.setAttribute("y", p[1] - radius / 0.9);
        cell.setAttribute("width", 2 * radius / 0.9); cell.setAttribute("height", 2 * radius / 0.9);
        cell.addEventListener("click", function () { taps.push(p); show(); });
        const c = document.createElementNS(SVGNS, "circle");
        c.setAttribute("class", "hit");
        c.setAttribute("cx", p[0]); c.setAttribute("cy", p[1]); c.setAttribute("r", radius * 0.8);
        c.setAttribute("stroke-width", radius / 8);
        g.appendChild(c);
        g.appendChild(cell);
      }
      live.appendChild(g);
    }

    // label names the chosen move and its variants; preview shows the
    // board after it (draw: false while more cells may still be tapped,
    // so that the targets stay on the board).
    function label() {
      const m = variants[vi];
      chosen.textContent = m.move + (m.variant ? " · " + m.variant : "") + (m.gain ? " (" + m.gain + ")" : "");
      turn.classList.toggle("hidden", variants.length < 2);
      turn.textContent = variants.length > 1 ? "Turn (" + (vi + 1) + "/" + variants.length + ")" : "Turn";
    }
    async function preview() {
      const m = variants[vi];
      label();
      if (more) return;
      const res = await fetch(page.game.dataset.address + "/preview?move=" + encodeURIComponent(m.move), { credentials: "same-origin" });
      if (res.ok && variants[vi] === m) board.innerHTML = await res.text(); // our own renderer's SVG
    }

    // show draws the step the player is at: the pieces, the targets of
    // the next cell, and the confirm once the taps name a move (a move of
    // fewer cells, Glorieta's single stone, may be confirmed while the
    // targets of a longer one stay).
    let more = false;
    function show() {
      board.innerHTML = original;
      pieces();
      const c = piece === null ? [] : candidates();
      const done = c.filter(function (m) { return m.at.length === taps.length; });
      more = done.length < c.length;
      if (piece !== null && taps.length > 0 && done.length > 0) {
        variants = done; vi = 0;
        confirm.classList.remove("hidden");
        preview();
      } else {
        confirm.classList.add("hidden");
      }
      if (more) targets();
    }

    picker.querySelector('[data-act="cancel"]').onclick = function () { taps = []; show(); };
    turn.onclick = function () { vi = (vi + 1) % variants.length; preview(); };
    picker.querySelector('[data-act="play"]').onclick = function () {
      const f = document.querySelector("#play form.moveform");
      if (!f) return;
      f.querySelector('[name="move"]').value = variants[vi].move;
      post(f);
    };
    show();
  }
  window.TesseraPlay = { attach: attach };
  attach();
})();
