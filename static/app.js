// Progressive enhancement: hide controls that do not apply and show a live preview.
// Every number shown comes from the JSON API; nothing is computed here.
"use strict";
document.documentElement.classList.add("js");

// Offline support where the browser allows a service worker (localhost or https).
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

(function () {
  const lang = document.documentElement.lang === "en" ? "en" : "de";

  function val(form, name) {
    const checked = form.querySelector(`input[name="${name}"]:checked`);
    if (checked) return checked.value;
    const el = form.querySelector(`[name="${name}"]:not([type=radio]):not([type=checkbox])`);
    return el ? el.value.trim() : "";
  }
  function on(form, name) {
    const el = form.querySelector(`input[type=checkbox][name="${name}"]`);
    return !!(el && el.checked);
  }
  function all(form, name) {
    return Array.from(form.querySelectorAll(`input[type=checkbox][name="${name}"]:checked`)).map((e) => e.value);
  }
  function int(s) {
    return /^-?\d+$/.test(s) ? parseInt(s, 10) : null;
  }
  function show(form, sel, visible) {
    form.querySelectorAll(sel).forEach((el) => { el.hidden = !visible; });
  }

  // Texts of the page's language, rendered by the server next to the fields.
  function label(form, key, fallback) {
    const el = form.querySelector(".i18n");
    return (el && el.dataset[key]) || fallback;
  }
  // A number field holding something that is not a whole number: the same message the
  // server gives on saving, instead of a preview that pretends the field is empty.
  function notInt(form, names) {
    return names.some((n) => {
      const v = val(form, n);
      return v !== "" && int(v) === null;
    });
  }

  function skatBody(form) {
    const game = val(form, "game");
    if (!game) return null;
    const body = { game: game };
    const cards = all(form, "cards");
    const won = val(form, "won");
    if (game !== "null") {
      if (cards.length === 10 || cards.length === 12) body.cards = cards;
      else {
        const sp = val(form, "spitzen");
        if (/^[wo]\d{1,2}$/.test(sp)) {
          body["with"] = sp[0] === "w";
          body.matadors = parseInt(sp.slice(1), 10);
        }
      }
      ["schneider_announced", "schwarz_announced"].forEach((f) => { if (on(form, f)) body[f] = true; });
      // typed card points decide; else the buttons (the server does the same on saving)
      const p = int(val(form, "declarer_points"));
      const at = val(form, "all_tricks");
      if (at) body.all_tricks = at;
      if (p !== null) {
        body.declarer_points = p;
        if (on(form, "schwarz") && !at) body.all_tricks = (won ? won === "true" : p > 60) ? "declarer" : "opponents";
      } else if (won) {
        body.won = won === "true";
        if (on(form, "schneider")) body.schneider = true;
        if (on(form, "schwarz") && !at) body.all_tricks = body.won ? "declarer" : "opponents";
      }
    } else if (won) {
      body.won = won === "true";
    }
    // Not complete yet (no Spitzen, no outcome): nothing to ask; a half-tapped deal is no
    // error and must not be answered with one.
    if (game !== "null" && body.matadors === undefined && !body.cards) return null;
    if (body.won === undefined && body.declarer_points === undefined && !body.all_tricks) return null;
    ["hand", "ouvert", "kontra", "re"].forEach((f) => { if (on(form, f)) body[f] = true; });
    const bid = int(val(form, "bid"));
    if (bid !== null) body.bid = bid;
    return body;
  }

  function schafkopfBody(form) {
    const game = val(form, "game");
    if (!game) return null;
    const body = { game: game, declarers: all(form, "declarers") };
    // the declarer (two in a Sauspiel or Hochzeit) not tapped yet: not complete, nothing to ask
    if (body.declarers.length < (["sauspiel", "hochzeit"].includes(game) ? 2 : 1)) return null;
    const suit = val(form, "suit");
    if (suit && ["sauspiel", "solo", "farbwenz", "farbgeier"].includes(game)) body.suit = suit;
    const players = form.dataset.players ? JSON.parse(form.dataset.players)
      : ["p1", "p2", "p3", "p4"].map((n) => val(form, n));
    body.players = players;
    const outcome = val(form, "outcome");
    const pts = int(val(form, "player_points"));
    if (outcome === "won" || outcome === "lost") body.won = outcome === "won";
    else if (pts !== null) body.player_points = pts;
    else return null;
    const bettel = game === "bettel";
    ["schneider", "schwarz", "tout", "sie"].forEach((f) => {
      if (on(form, f) && !(bettel && (f === "schneider" || f === "schwarz"))) body[f] = true;
    });
    ["laufende", "gestellt", "kontra"].forEach((f) => {
      const v = int(val(form, f));
      if (v && !(bettel && f === "laufende")) body[f] = v;
    });
    if (form.dataset.rules) {
      const r = JSON.parse(form.dataset.rules);
      body.tariffs = r.tariffs;
      body.laufende_min = r.laufende_min;
      body.tout_counts_schneider_schwarz = r.tout_counts_schneider_schwarz;
    } else {
      const t = {};
      ["sauspiel", "solo", "bettel", "extra"].forEach((k) => {
        const v = int(val(form, "t_" + k));
        if (v !== null) t[k] = v;
      });
      body.tariffs = t;
      body.tout_counts_schneider_schwarz = on(form, "tout_counts");
    }
    return body;
  }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }
  // A score as the pages write it (rules.common.number): a real minus, "+" for a gain, and
  // from 10,000 on grouped as the page's language does. Formatting only: the numbers come
  // from the API.
  const GROUP = document.documentElement.lang === "en" ? "," : ".";
  function signed(n) {
    let digits = String(Math.abs(n));
    if (Math.abs(n) >= 10000) digits = digits.replace(/\B(?=(\d{3})+(?!\d))/g, GROUP);
    return n > 0 ? "+" + digits : n < 0 ? "\u2212" + digits : "0";
  }

  // The calculators' sticky bar repeats the result's first line (the verdict) so the value
  // is in sight at the bottom of the screen while the result below the form is not.
  function mirror(form) {
    const live = form.querySelector("#live");
    const result = document.getElementById("result");
    if (!live || !result) return;
    const verdict = result.querySelector(".verdict");
    live.innerHTML = verdict ? verdict.outerHTML : "";
  }

  function render(form, target, data, ok) {
    renderInto(form, target, data, ok);
    mirror(form);
  }

  function renderInto(form, target, data, ok) {
    if (ok === "message") {
      // one message the compact preview must show (the points field holds no number)
      target.innerHTML = `<div class="verdict lost"><span class="err">${esc(data)}</span></div>`;
      return;
    }
    if (!ok) {
      const msgs = Object.values(data.errors || {}).flat();
      target.innerHTML = '<ul class="hint">' + msgs.map((m) => "<li>" + esc(m) + "</li>").join("") + "</ul>";
      return;
    }
    const won = data.won;
    let head;
    if (form.dataset.kind === "skat") {
      // the same words as the saved result: "verloren — überreizt" for an overbid game
      const verdict = won ? label(form, "won", "gewonnen")
        : data.overbid ? label(form, "overbid", "verloren — überreizt") : label(form, "lost", "verloren");
      head = `<span class="big">${esc(signed(data.score))}</span><span>${esc(verdict)} · ${esc(label(form, "value", "Spielwert"))} ${esc(data.value)}</span>`;
      if (data.matadors !== null && all(form, "cards").length) {
        const v = (data["with"] ? "w" : "o") + data.matadors;
        const radio = form.querySelector(`input[name="spitzen"][value="${v}"]`);
        if (radio) {
          radio.checked = true;
          const more = radio.closest("details");
          if (more) more.open = true;
        }
      }
    } else {
      // seat order, not the alphabetical order of the JSON object
      const seats = form.dataset.players ? JSON.parse(form.dataset.players)
        : ["p1", "p2", "p3", "p4"].map((n) => val(form, n));
      const cells = seats.filter((p) => p in data.deltas).map((p) => [p, data.deltas[p]]).map(([p, d]) => `<td class="${d < 0 ? "neg" : d > 0 ? "pos" : ""}">${esc(p)}<br>${esc(signed(d))}</td>`).join("");
      head = `<span class="big">${esc(data.value)}</span><span>${esc(won ? label(form, "won", "gewonnen") : label(form, "lost", "verloren"))}</span></div><table class="deltas"><tr>${cells}</tr></table><div>`;
    }
    target.innerHTML = `<div class="verdict ${won ? "won" : "lost"}">${head}</div><ol class="steps">` +
      data.explanation.map((s) => "<li>" + esc(s) + "</li>").join("") + "</ol>";
  }

  // Who plays this deal: the ticked seats, else (no seat list at 3) everybody.
  function playing(form) {
    const act = all(form, "active");
    return act.length === 3 || act.length === 4 ? act : null;
  }

  function toggles(form) {
    const kind = val(form, "kind") || "game";
    show(form, ".kind-game", kind === "game");
    show(form, ".kind-ramsch", kind === "ramsch");
    // Ramsch: points, Jungfrau and Durchmarsch only for those who play (not the dealer at 4)
    const who = playing(form);
    if (who) {
      form.querySelectorAll(".kind-ramsch [data-player]").forEach((l) => {
        const out = !who.includes(l.dataset.player);
        l.hidden = out;
        l.querySelectorAll("input").forEach((i) => { i.disabled = out; });
      });
    }
    const game = val(form, "game");
    if (form.dataset.kind === "skat") {
      show(form, ".suitonly", game !== "null");
      show(form, ".nullonly", game === "null");
      // Ouvert (suit and grand) is a hand game with schwarz announced: shown ticked and fixed.
      const ouvert = on(form, "ouvert") && game !== "null";
      form.querySelectorAll("[data-implied-by=ouvert]").forEach((w) => {
        const box = w.querySelector("input");
        if (ouvert && !w.classList.contains("implied")) {
          w.dataset.was = box.checked ? "1" : "";
          box.checked = true;
          box.disabled = true;
          w.classList.add("implied");
        } else if (!ouvert && w.classList.contains("implied")) {
          box.checked = w.dataset.was === "1";
          box.disabled = false;
          w.classList.remove("implied");
        }
      });
      show(form, ".implied-note", ouvert);
      const hand = on(form, "hand") || on(form, "ouvert");
      form.querySelectorAll(".handonly input").forEach((i) => {
        if (!i.closest(".implied")) i.disabled = !hand || game === "null";
      });
      show(form, ".more-spitzen", game !== "grand");
      // Only those who play this deal can be declarer (the dealer sits out at 4 and 5).
      const playing = all(form, "active");
      if (playing.length === 3) {
        form.querySelectorAll("#f-declarer label[data-player]").forEach((l) => {
          l.hidden = !playing.includes(l.dataset.player);
        });
      }
    } else {
      const solo = !["sauspiel", "hochzeit", "bettel", ""].includes(game);
      show(form, ".soloonly", solo);
      show(form, ".sieonly", game === "solo");
      show(form, ".suitgame", ["sauspiel", "solo", "farbwenz", "farbgeier"].includes(game));
      // Laufende above the game's maximum are not offered (the server checks them anyway)
      const most = { wenz: 4, geier: 4, farbwenz: 11, farbgeier: 11 }[game] || 14;
      form.querySelectorAll('#f-laufende input').forEach((i) => {
        i.closest("label").hidden = parseInt(i.value, 10) > most;
      });
      // the Herz Sau cannot be called: Herz is trump in a Sauspiel
      form.querySelectorAll('.suitgame input[value="herz"]').forEach((i) => {
        i.closest("label").hidden = game === "sauspiel";
      });
      show(form, ".nobettel", game !== "bettel");
    }
  }

  // Ramsch has no value route: the sheet's preview route counts it as the next deal would be.
  function ramschPreview(form, target) {
    const meta = form.querySelector(".deal-preview");
    if (!meta) { target.innerHTML = ""; return; }
    const names = JSON.parse(form.dataset.players || "[]");
    const points = {};
    let bad = false;
    let typed = 0;
    names.forEach((p, i) => {
      const el = form.querySelector(`input[name="r${i}"]`);
      if (!el || el.disabled || el.closest("[hidden]")) return;
      const v = el.value.trim();
      if (v === "") return;
      typed += 1;
      if (int(v) === null) bad = true;
      else points[p] = int(v);
    });
    if (bad) {
      render(form, target, meta.dataset.int, "message");
      return;
    }
    if (!typed) { target.innerHTML = ""; return; }
    const ramsch = { points: points, jungfrau: all(form, "jungfrau"), durchmarsch: val(form, "durchmarsch") || null };
    const body = form.dataset.kind === "skat" ? { ramsch: ramsch } : Object.assign({ game: "ramsch" }, ramsch);
    const dealer = val(form, "dealer");
    const shown = val(form, "dealer_shown");
    if (dealer && dealer !== shown) body.dealer = dealer;
    const who = playing(form);
    if (who && form.dataset.kind === "skat" && names.length > 3) body.active = who;
    if (meta.dataset.n) body.n = parseInt(meta.dataset.n, 10);  // a correction of deal n
    const mine = ++seq;
    fetch(meta.dataset.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": lang },
      body: JSON.stringify(body),
    }).then((r) => r.json().then((d) => ({ ok: r.ok, d: d })))
      .then(({ ok, d }) => {
        if (mine !== seq) return;
        if (!ok) { render(form, target, d, false); return; }
        const row = d.deal;
        const cells = names.map((p) => [p, row.deltas[p]]).map(([p, v]) => `<td class="${v < 0 ? "neg" : v > 0 ? "pos" : ""}">${esc(p)}<br>${esc(signed(v))}</td>`).join("");
        // the line that matters in one glance: who pays (or, Durchmarsch, who gets) how much
        const who = row.party.length ? row.party : names.filter((p) => row.deltas[p] > 0);
        const big = who.map((p) => `${p} ${signed(row.deltas[p])}`).join(", ");
        target.innerHTML = `<div class="verdict ${row.party.length ? "lost" : "won"}"><span class="big">${esc(big)}</span><span>${esc(row.explanation[0] || row.title)}</span></div><table class="deltas"><tr>${cells}</tr></table><ol class="steps">` +
          row.explanation.map((s) => "<li>" + esc(s) + "</li>").join("") + "</ol>";
      })
      .catch(() => {});
  }

  let timer = null;
  let seq = 0;
  function preview(form) {
    const target = document.getElementById("preview") || document.getElementById("result");
    if (!target || !form.dataset.preview) return;
    const kind = val(form, "kind") || "game";
    if (kind === "ramsch") { ramschPreview(form, target); return; }
    if (kind !== "game") { target.innerHTML = ""; return; }
    if (notInt(form, ["declarer_points", "player_points"])) {
      render(form, target, label(form, "int", "Bitte eine ganze Zahl eingeben."), "message");
      return;
    }
    const body = form.dataset.kind === "skat" ? skatBody(form) : schafkopfBody(form);
    if (!body) {
      // incomplete: an answer still on its way and a value shown before no longer apply
      seq += 1;
      target.innerHTML = "";
      mirror(form);
      return;
    }
    const mine = ++seq;
    const ask = (b) => fetch(form.dataset.preview, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": lang },
      body: JSON.stringify(b),
    }).then((r) => r.json().then((d) => ({ ok: r.ok, d: d })));
    // Typed points decide; if "gewonnen"/"verloren" or "Schneider" is tapped as well, the
    // server is asked both ways, and where the answers differ the preview says so (saving
    // would be refused with the same words next to the points).
    const tapped = buttonsBody(form, body);
    Promise.all([ask(body), tapped ? ask(tapped) : null])
      .then(([a, b]) => {
        if (mine !== seq) return;
        if (a.ok && b && b.ok && (a.d.won !== b.d.won || a.d.value !== b.d.value)) {
          render(form, target, label(form, "conflict", "Augen und Knöpfe passen nicht zusammen."), "message");
          return;
        }
        render(form, target, a.d, a.ok);
      })
      .catch(() => {});
  }

  // The same Skat deal as the buttons alone say it, when points were typed too.
  function buttonsBody(form, body) {
    if (form.dataset.kind !== "skat" || body.declarer_points === undefined) return null;
    const won = val(form, "won");
    if (!won && !on(form, "schneider")) return null;
    const alt = Object.assign({}, body);
    delete alt.declarer_points;
    alt.won = won ? won === "true" : body.declarer_points > 60;
    if (on(form, "schneider")) alt.schneider = true;
    if (on(form, "schwarz") && !val(form, "all_tricks")) alt.all_tricks = alt.won ? "declarer" : "opponents";
    return alt;
  }

  document.querySelectorAll("form.deal").forEach((form) => {
    toggles(form);
    mirror(form);
    const update = () => {
      toggles(form);
      clearTimeout(timer);
      timer = setTimeout(() => preview(form), 120);
    };
    form.addEventListener("change", update);
    form.addEventListener("input", update);
  });

  // Live sheet: poll the revision (one small JSON); a change reloads a read-only view, and
  // on the entry page it reloads too unless a deal is being typed in, which gets a notice.
  const head = document.getElementById("sheethead");
  if (head && head.dataset.revUrl) {
    let dirty = false;
    document.querySelectorAll("form").forEach((f) => {
      f.addEventListener("input", () => { dirty = true; });
      f.addEventListener("change", () => { dirty = true; });
    });
    const check = () => {
      if (document.hidden) return;
      fetch(head.dataset.revUrl, { cache: "no-cache" })
        .then((r) => r.json())
        .then((d) => {
          if (String(d.rev) === head.dataset.rev) return;
          if (head.dataset.live === "reload" || !dirty) window.location.reload();
          else document.getElementById("newdeal").hidden = false;
        })
        .catch(() => {});
    };
    setInterval(check, 1500);
    document.addEventListener("visibilitychange", check);
  }

  // Sheet page: the panes (entry, list, standing, sheet) become tabs. The entry shows after
  // a save (?saved=n) so the next deal can be typed at once; "#deal-7" opens the list there.
  const panes = document.querySelector(".panes");
  if (panes) {
    const tabs = Array.from(document.querySelectorAll(".tabs a[data-pane]"));
    const ids = tabs.map((a) => a.dataset.pane);
    const fallback = (panes.querySelector(".pane.default") || panes.querySelector(".pane")).id;
    const open = (id, push) => {
      panes.querySelectorAll(".pane").forEach((p) => p.classList.toggle("on", p.id === id));
      tabs.forEach((a) => {
        if (a.dataset.pane === id) a.setAttribute("aria-current", "page");
        else a.removeAttribute("aria-current");
      });
      if (push) history.replaceState(null, "", id === fallback ? location.pathname + location.search : "#" + id);
    };
    const fromHash = () => {
      const h = decodeURIComponent(location.hash.slice(1));
      if (ids.includes(h)) {
        open(h, false);
        window.scrollTo(0, 0);
        return;
      }
      const el = h && document.getElementById(h);
      const pane = el && el.closest(".pane");
      open(pane ? pane.id : fallback, false);
      if (pane && el !== pane) el.scrollIntoView({ block: "center" });
    };
    tabs.forEach((a) => a.addEventListener("click", (e) => {
      e.preventDefault();
      open(a.dataset.pane, true);
      window.scrollTo(0, 0);
    }));
    window.addEventListener("hashchange", fromHash);
    fromHash();
    // A tab named in the address opens at its top, not where the browser's jump to the
    // anchor would put it (below the strip and the tabs).
    // A deal in the address (after a correction) is scrolled to again once the page has
    // loaded: the browser's own jump to the anchor comes late and would leave it under the strip.
    window.addEventListener("load", () => {
      if (ids.includes(location.hash.slice(1))) setTimeout(() => window.scrollTo(0, 0), 0);
      else if (location.hash) setTimeout(fromHash, 0);
    });
  }

  document.querySelectorAll("form.newsheet").forEach((form) => {
    const t = () => {
      const g = val(form, "game");
      show(form, ".skatonly", g === "skat");
      show(form, ".schafkopfonly", g === "schafkopf");
      // what is hidden is not sent: a Platz 5 or a Skat stake typed before switching to
      // Schafkopf must not turn into a fifth player or a Schafkopf factor
      form.querySelectorAll(".skatonly, .schafkopfonly").forEach((el) => {
        el.querySelectorAll("input, select").forEach((i) => { i.disabled = el.hidden; });
      });
    };
    t();
    form.addEventListener("change", t);
  });
})();
