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
  let loading = null;
  async function load(n, push) {
    const q = n === "" ? "" : "?move=" + n;
    const ctl = new AbortController();
    if (loading) loading.abort();
    loading = ctl;
    const sep = q ? "&" : "?";
    const res = await fetch(address + q + sep + "part=position", { signal: ctl.signal, credentials: "same-origin" });
    if (!res.ok) return;
    const html = await res.text();
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
    if (e.target.closest("input, select, textarea")) return;
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

  window.TesseraPage = { load: load, game: game };
})();
