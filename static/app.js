// Progressive enhancement: hide controls that do not apply and show a live preview.
// Every preview is drawn by the server (numbers, words); nothing is computed or formatted here.
"use strict";
document.documentElement.classList.add("js");
// "Größere Schrift": every text 125 %, kept per browser; first of all, before the page shows.
try {
  if (localStorage.getItem("bigtext") === "1") document.documentElement.classList.add("big");
} catch (e) { /* storage off: the normal size */ }
document.addEventListener("click", (ev) => {
  const btn = ev.target instanceof Element && ev.target.closest(".bigtext");
  if (!btn) return;
  const big = document.documentElement.classList.toggle("big");
  try { localStorage.setItem("bigtext", big ? "1" : "0"); } catch (e) { /* kept for this page only */ }
  document.querySelectorAll(".bigtext").forEach((b) => b.setAttribute("aria-pressed", String(big)));
});
document.addEventListener("DOMContentLoaded", () => {
  const big = document.documentElement.classList.contains("big");
  document.querySelectorAll(".bigtext").forEach((b) => b.setAttribute("aria-pressed", String(big)));
  // A form sent back with its messages: the first of them in sight, where a long form (a new
  // sheet with its house rules) had it below the screen. The deal's entry is one screen and
  // keeps its place.
  const said = document.querySelector("form:not(.deal) p.err, form:not(.deal) [aria-invalid=true]");
  if (said) said.scrollIntoView({ block: "center" });
});

// Offline support where the browser allows a service worker (localhost or https).
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

(function () {
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
  function show(form, sel, visible) {
    form.querySelectorAll(sel).forEach((el) => { el.hidden = !visible; });
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
    // What each of the game's contracts shows comes from the server, made from the game's
    // table of contracts (data-contracts): no contract is named here.
    const info = gameData(form);
    const chosen = info.contracts[game];
    const shows = chosen ? chosen.shows : info.none;
    info.controls.forEach((sel) => show(form, sel, shows.includes(sel)));
    // Ouvert (suit and grand) is a hand game with schwarz announced: shown ticked and fixed.
    const suited = shows.includes(".suitonly");
    const ouvert = on(form, "ouvert") && suited;
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
      if (!i.closest(".implied")) i.disabled = !hand || !suited;
    });
    // Only those who play this deal can be declarer (the dealer sits out at 4 and 5).
    const seated = all(form, "active");
    if (seated.length === info.perDeal) {
      form.querySelectorAll("#f-declarer label[data-player], #f-declarers label[data-player]").forEach((l) => {
        l.hidden = !seated.includes(l.dataset.player);
      });
    }
    // Laufende above the contract's most are not offered (the server checks them anyway)
    const most = (chosen && chosen.laufende) || info.laufende;
    form.querySelectorAll("#f-laufende input").forEach((i) => {
      i.closest("label").hidden = parseInt(i.value, 10) > most;
    });
    // a suit that cannot be named with the contract (the Herz Sau: Herz is trump)
    const barred = chosen ? chosen.barred : [];
    form.querySelectorAll('input[name="suit"]').forEach((i) => {
      i.closest("label").hidden = barred.includes(i.value);
    });
    // at the table the points field shows with "Augen" (Schneider then comes from them)
    if (form.closest("#entry") && form.querySelector('input[name="outcome"]')) {
      const pts = val(form, "outcome") === "points";
      show(form, ".pts", pts);
      form.querySelectorAll(".nopts").forEach((el) => { if (pts) el.hidden = true; });
    }
  }

  const NO_GAME_DATA = { controls: [], none: [], contracts: {}, perDeal: 0, laufende: 0 };
  function gameData(form) {
    if (!form.gameData) {
      try {
        form.gameData = form.dataset.contracts ? JSON.parse(form.dataset.contracts) : NO_GAME_DATA;
      } catch (e) {
        form.gameData = NO_GAME_DATA;
      }
    }
    return form.gameData;
  }

  // The live preview is drawn by the server: the form goes as the button would send it (its
  // fields, the CSRF token of a POST form) to the URL in data-preview, and the HTML fragment
  // that comes back (the result or the row the deal would become, or its messages) is put in
  // place. An unfinished form gets an empty answer; an answer overtaken by a newer tap is
  // dropped; no answer (offline) leaves the preview as it was.
  let timer = null;
  let seq = 0;
  function preview(form) {
    const target = document.getElementById("preview") || document.getElementById("result");
    const url = form.dataset.preview;
    if (!target || !url) return;
    const mine = ++seq;
    const fields = new FormData(form);
    const post = form.method.toLowerCase() === "post";
    const ask = post
      ? fetch(url, { method: "POST", body: fields, headers: { Accept: "text/html" } })
      : fetch(url + (url.includes("?") ? "&" : "?") + new URLSearchParams(fields), { headers: { Accept: "text/html" } });
    ask.then((r) => r.text().then((html) => ({ shown: r.ok || r.status === 422, html: html })))
      .then(({ shown, html }) => {
        if (mine !== seq || !shown) return;
        target.innerHTML = html;
        pickSpitzen(form, target);
        mirror(form);
      })
      .catch(() => {
        // no answer: the value is worked out by the server only; say so instead of a number
        if (mine === seq && target.dataset.offline) target.textContent = target.dataset.offline;
      });
  }

  // Cards tapped: the Spitzen the server found in them are ticked (data-spitzen of the result).
  function pickSpitzen(form, target) {
    const found = target.querySelector("[data-spitzen]");
    if (!found || !all(form, "cards").length) return;
    const radio = form.querySelector(`input[name="spitzen"][value="${found.dataset.spitzen}"]`);
    if (radio) {
      radio.checked = true;
      const more = radio.closest("details");
      if (more) more.open = true;
    }
  }

  // The sheet's entry in two screens: the typical deal (declarer, game, Spitzen, outcome) and,
  // one tap on "Mehr" away, the less common controls in its place. The button counts what is
  // set there, so a ticked Hand or a typed bid is never out of mind; a form that comes back
  // with a message on such a control, or for Ramsch, opens there.
  function extras(form) {
    const button = form.querySelector(".more-toggle");
    if (!button) return null;
    button.hidden = false;
    // On a phone of 375×667 or taller Schafkopf's Laufende and Kontra (.x1t) are on the first
    // screen as well (style.css, the same media query): what is set there is in sight and not
    // counted; a choice only the second screen offers (its label marked "second") is.
    const tall = window.matchMedia("(min-height: 640px) and (min-width: 360px)");
    const inSight = (i) => tall.matches && i.closest(".x1t") !== null
      && i.closest("label.second") === null;
    const count = () => {
      let n = 0;
      form.querySelectorAll(".x2").forEach((box) => {
        box.querySelectorAll("input, select").forEach((i) => {
          // the seats and the kind have their own line; a choice's first value is "none"
          if (i.disabled || i.closest("[hidden]") || ["kind", "dealer", "active"].includes(i.name)) return;
          if (inSight(i)) return;
          if (i.type === "checkbox" || i.type === "radio") n += i.checked && i.value !== "" && i.value !== "0" ? 1 : 0;
          else if (i.tagName === "SELECT") n += i.selectedIndex > 0 ? 1 : 0;
          else if (i.type !== "hidden") n += i.value.trim() ? 1 : 0;
        });
      });
      const mark = button.querySelector(".set");
      mark.hidden = n === 0;
      mark.textContent = n ? String(n) : "";
    };
    const set = (open) => {
      form.classList.toggle("more", open);
      button.setAttribute("aria-expanded", String(open));
      count();
    };
    button.addEventListener("click", () => set(!form.classList.contains("more")));
    tall.addEventListener("change", () => count());
    const wrong = Array.from(form.querySelectorAll(".x2 .err, .x2 [aria-invalid=true]")).length > 0;
    set(wrong || (val(form, "kind") || "game") !== "game");
    return count;
  }

  // Ramsch: the card points make 120 (three at Skat, four at Schafkopf), so once all but one
  // are typed the last is filled in (input completion, as a person would write it; the
  // server checks and counts everything).
  function ramschFill(form, typed) {
    if (!typed || !/^r\d$/.test(typed.name)) return;
    const boxes = Array.from(form.querySelectorAll(".kind-ramsch input[name^=r]"))
      .filter((i) => !i.disabled && !i.closest("[hidden]"));
    if (boxes.length < 3) return;
    const empty = boxes.filter((i) => i.value.trim() === "" || i.dataset.filled === "1");
    const given = boxes.filter((i) => !empty.includes(i)).map((i) => i.value.trim());
    if (empty.length !== 1 || !given.every((v) => /^\d+$/.test(v))) return;
    const rest = 120 - given.reduce((a, v) => a + parseInt(v, 10), 0);
    if (rest < 0) return;
    empty[0].value = String(rest);
    empty[0].dataset.filled = "1";
  }

  document.querySelectorAll("form.deal").forEach((form) => {
    toggles(form);
    mirror(form);
    form.addEventListener("input", (e) => {
      if (e.target.dataset) delete e.target.dataset.filled;  // typed by hand: it stays
      ramschFill(form, e.target);
    });
    const count = extras(form);
    if (count) form.addEventListener("change", count);
    const update = () => {
      toggles(form);
      clearTimeout(timer);
      timer = setTimeout(() => preview(form), 120);
    };
    form.addEventListener("change", update);
    form.addEventListener("input", update);
  });

  // Nothing lost when the connection drops (plain http too, no service worker): a save that
  // cannot reach the server is kept on the phone (localStorage, per sheet) and sent by
  // itself, in order, when the server answers again; the key makes a repeated send safe.
  // A queued deal keeps only what was tapped (with its number, key and CSRF token): the
  // dealer and who plays are the rotation's at the server unless they were set by hand. The
  // next entry form follows the sheet as it will be after the waiting deals: its number, its
  // dealer and who sits out, from the server's rotation table (data-rotation; no scoring
  // here). A refusal stops the queue: the refused deal stays in it with the server's message,
  // to be taken into the form or thrown away; the deals behind it wait to be checked.
  // Whether the server answered the last look at the sheet's revision (below, every 1.5 s).
  let reachable = true;
  const queueBox = document.getElementById("queue");
  const entry = queueBox && document.querySelector("#entry form.deal");
  if (entry) {
    const action = entry.getAttribute("action");
    const key = "skatcalc-queue:" + action;
    const toldKey = "skatcalc-told:" + action;
    // what the page proposed before anything waited: the sheet's next deal, its dealer
    const field = (name) => entry.querySelector(`input[type=hidden][name="${name}"]`);
    const pageN = field("n") ? parseInt(field("n").value, 10) : NaN;
    const pageDealer = field("dealer_shown") ? field("dealer_shown").value : "";
    let rotation = {};
    try {
      rotation = JSON.parse(entry.dataset.rotation || "{}");
    } catch (e) {
      rotation = {};
    }
    // Only what was tapped goes into a waiting deal; these the page sets for each deal.
    const PLACED = ["dealer", "dealer_shown", "active", "n", "version"];
    // A deal: { n, d (its dealer, for the rotation shown here), f (its fields), why (the
    // server's refusal) }. Stored as JSON; a queue of an older page (lines of URL-encoded
    // forms) is read as well.
    const load = () => {
      const raw = localStorage.getItem(key) || "";
      if (raw.startsWith("{")) {
        try {
          const q = JSON.parse(raw);
          return { deals: Array.isArray(q.deals) ? q.deals : [], held: !!q.held };
        } catch (e) {
          return { deals: [], held: false };
        }
      }
      const lines = raw.split("\n");
      const deals = lines.slice(1).filter((l) => l).map((l) => {
        const f = Array.from(new URLSearchParams(l).entries());
        const get = (k) => (f.find((kv) => kv[0] === k) || [null, ""])[1];
        return { n: parseInt(get("n"), 10), d: get("dealer") || get("dealer_shown"), f: f.filter((kv) => kv[0] !== "n") };
      });
      return { deals: deals, held: lines[0] === "held" };
    };
    const keep = (q) => {
      if (q.deals.length) localStorage.setItem(key, JSON.stringify({ held: q.held, deals: q.deals }));
      else localStorage.removeItem(key);
    };
    const freshKey = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
    const explicit = (deal) => (deal.f.find((kv) => kv[0] === "dealer") || [null, ""])[1];
    // numbers and dealers of the waiting deals from the sheet as this page shows it
    const place = (q) => {
      let dealer = pageDealer;
      q.deals.forEach((deal, i) => {
        deal.n = pageN + i;
        deal.d = explicit(deal) || dealer;
        dealer = rotation[deal.d] ? rotation[deal.d].next : dealer;
      });
    };
    // The form as the deal after the waiting ones: its number, a key of its own, its dealer
    // and who plays, as the defaults a reset goes back to.
    const nextEntry = (q) => {
      const last = q.deals[q.deals.length - 1];
      if (!last || !field("n") || isNaN(parseInt(last.n, 10))) return;
      const n = parseInt(last.n, 10) + 1;
      field("n").value = String(n);
      if (field("idem")) field("idem").value = freshKey();
      document.querySelectorAll("#entry h2.next, .tabs a[data-pane=entry]").forEach((el) => {
        if (el.firstChild) el.firstChild.textContent = el.firstChild.textContent.replace(/\d+/, String(n));
      });
      const seat = rotation[last.d];
      const dealer = seat && seat.next;
      const turn = dealer && rotation[dealer];
      if (!turn) return;
      if (field("dealer_shown")) field("dealer_shown").value = dealer;
      const pick = entry.querySelector('select[name="dealer"]');
      if (pick) {
        Array.from(pick.options).forEach((o) => { o.defaultSelected = o.value === dealer; });
        pick.value = dealer;
      }
      entry.querySelectorAll('input[type=checkbox][name="active"]').forEach((box) => {
        box.defaultChecked = turn.active.includes(box.value);
        box.checked = box.defaultChecked;
      });
      const head = document.querySelector("#entry h2.next .muted");
      if (head) head.textContent = head.textContent.replace(/:\s.*$/, ": " + dealer);
      // "Geber: <b>X</b> · Vorhand: <b>Y</b> · es spielen: A, B, C" (who plays, from forehand on)
      const summary = entry.querySelector("details.seats summary");
      const bold = summary ? summary.querySelectorAll("b") : [];
      if (bold.length >= 2) {
        bold[0].textContent = dealer;
        bold[1].textContent = turn.active[0] || "";
        const rest = bold[1].nextSibling;
        if (rest && rest.nodeType === Node.TEXT_NODE && rest.textContent.includes(":")) {
          rest.textContent = rest.textContent.replace(/:\s[^:]*$/, ": " + turn.active.join(", "));
        }
      }
    };
    const refusedBox = queueBox.querySelector(".refused");
    const showQueue = () => {
      const q = load();
      queueBox.hidden = !q.deals.length;
      const head = q.deals[0];
      const refused = !!(head && head.why);
      refusedBox.hidden = !refused;
      if (refused) {
        refusedBox.querySelector(".which").textContent =
          queueBox.dataset.deal + " " + head.n + " " + queueBox.dataset.refused + ":";
        refusedBox.querySelector(".why").textContent = head.why;
      }
      const behind = refused ? q.deals.slice(1) : q.deals;
      const nums = behind.map((d) => d.n).join(", ");
      const what = queueBox.querySelector(".what");
      what.hidden = !behind.length;
      what.textContent = (q.held ? queueBox.dataset.held : queueBox.dataset.wait) + ": " + nums;
      queueBox.classList.toggle("held", q.held);
      // the deals behind a refused one go only once it is dealt with (into the form or away)
      queueBox.querySelector(".send").hidden = !q.held || refused || !behind.length;
      queueBox.querySelector(".drop").hidden = !q.held || refused || !behind.length;
    };
    // What the server said to a save that was refused: its messages on the answer page.
    const refusal = (html, status) => {
      const page = new DOMParser().parseFromString(html, "text/html");
      const said = [];
      page.querySelectorAll("#entry .err, #sheethead .flash.error, main .err").forEach((el) => {
        const t = el.textContent.trim();
        if (t && !said.includes(t)) said.push(t);
      });
      if (!said.length) said.push(((page.querySelector("h1") || {}).textContent || "").trim() || "HTTP " + status);
      return said.join(" ");
    };
    // Messages of the pages a send was answered with ("Spiel 10 war schon gespeichert."):
    // the answer pages are fetched, so the page shown afterwards would not have them.
    const told = (html) => {
      const page = new DOMParser().parseFromString(html, "text/html");
      return Array.from(page.querySelectorAll("#sheethead .flash")).map((el) => el.textContent.trim()).filter((t) => t);
    };
    const showTold = () => {
      let said = [];
      try {
        said = JSON.parse(sessionStorage.getItem(toldKey) || "[]");
      } catch (e) {
        said = [];
      }
      sessionStorage.removeItem(toldKey);
      const head = document.getElementById("sheethead");
      const title = head && head.querySelector("h1");
      if (!title) return;
      const here = Array.from(head.querySelectorAll(".flash")).map((el) => el.textContent.trim());
      said.filter((t) => !here.includes(t)).reverse().forEach((t) => {
        const p = document.createElement("p");
        p.className = "flash told";
        p.setAttribute("role", "status");
        p.textContent = t;
        title.after(p);
      });
    };
    let sending = false;
    let timer = null;
    const every = () => parseInt(entry.dataset.retry || "3000", 10);
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(flush, every());
    };
    async function flush() {
      if (sending) return;
      let q = load();
      if (!q.deals.length || q.held) return;
      sending = true;
      let shown = null;
      const said = [];
      try {
        while (q.deals.length) {
          const deal = q.deals[0];
          const fields = new FormData();
          deal.f.forEach(([k, v]) => fields.append(k, v));
          fields.append("n", String(deal.n));
          let r;
          let html;
          try {
            r = await fetch(action, { method: "POST", body: fields, redirect: "follow" });
            html = await r.text();
          } catch (e) {
            later();  // still no connection, or the answer was lost: the key makes it safe
            return;
          }
          if (r.status >= 500) {  // a proxy in front while the app is away
            later();
            return;
          }
          q = load();
          if (r.ok && r.redirected) {
            q.deals.shift();
            keep(q);
            told(html).forEach((t) => said.push(t));
            shown = r.url;
            continue;
          }
          // refused (the number taken, the form expired …): it stays, with the server's
          // words, and the sheet as it is now comes first
          q.deals[0].why = refusal(html, r.status);
          q.held = true;
          keep(q);
          sessionStorage.setItem(toldKey, JSON.stringify(said));
          // (the sheet's own address: this page may be the answer to a post, /deals)
          window.location.assign(action.replace(/\/deals$/, ""));
          return;
        }
        if (shown) {
          sessionStorage.setItem(toldKey, JSON.stringify(said));
          window.location.assign(shown);
        }
      } finally {
        sending = false;
      }
    }
    // A look at the server just before a save posts: the last revision look (every 1.5 s)
    // may be old and the server gone since (a plain post to it ends on the browser's error
    // page, the deal lost). It starts as the finger touches Save, so its answer is mostly in
    // by the time the tap is complete; no answer within 2 s, or a 5xx from a proxy: down.
    let look = null;
    const lookNow = () => {
      const probe = document.getElementById("sheethead");
      const url = probe && probe.dataset.revUrl;
      if (!url || !window.fetch) return null;
      const stop = new AbortController();
      const slow = setTimeout(() => stop.abort(), 2000);
      const mine = { at: Date.now(), state: "pending" };
      mine.wait = fetch(url, { cache: "no-store", signal: stop.signal })
        .then((r) => r.ok, () => false)
        .then((up) => {
          clearTimeout(slow);
          mine.state = up ? "up" : "down";
          if (!up) reachable = false;
          return up;
        });
      look = mine;
      return mine;
    };
    const saveButton = entry.querySelector(".actions.save button[type=submit]");
    if (saveButton) saveButton.addEventListener("pointerdown", () => { lookNow(); });
    let looking = false;
    entry.addEventListener("submit", (e) => {
      if (e.defaultPrevented) return;
      const q0 = load();
      // deals held for checking do not hold back a save made now (it may be the refused
      // one, taken into the form and put right)
      const waiting = (q0.deals.length && !q0.held) || navigator.onLine === false || !reachable;
      // this tap's look (started at its touch, a moment ago)
      const fresh = look && Date.now() - look.at < 1000 ? look : null;
      // Answered already: the form goes as a plain post at once (Save's navigation, its
      // answer page, messages and all).
      if (!waiting && fresh && fresh.state === "up") return;
      e.preventDefault();
      if (looking) return;  // a second tap while the first one's look is under way
      const typed = Array.from(new FormData(entry).entries()).filter((kv) => typeof kv[1] === "string");
      const get = (k) => (typed.find((kv) => kv[0] === k) || [null, ""])[1];
      const shownDealer = get("dealer_shown");
      const dealer = get("dealer") || shownDealer;
      const seats = typed.filter((kv) => kv[0] === "active").map((kv) => kv[1]);
      const turn = rotation[dealer];
      const seatsTapped = seats.length > 0 && !(turn && turn.active.length === seats.length
        && seats.every((p) => turn.active.includes(p)));
      const deal = {
        n: parseInt(get("n"), 10),
        d: dealer,
        f: typed.filter((kv) => !PLACED.includes(kv[0])
          || (kv[0] === "dealer" && dealer !== shownDealer)
          || (kv[0] === "active" && seatsTapped)),
      };
      const enqueue = () => {
        const q = load();
        if (q.held) {
          // saved while others wait to be checked: it goes first, and waits with them
          q.deals.unshift(deal);
          place(q);
        } else {
          q.deals.push(deal);
        }
        keep(q);
        if (!q.held) nextEntry(q);
        // the next deal starts from a fresh form (the number and key set above stay)
        const n = field("n") && field("n").value;
        const idem = field("idem") && field("idem").value;
        entry.reset();
        if (n) field("n").value = n;
        if (idem) field("idem").value = idem;
        entry.dispatchEvent(new Event("change"));
        const preview = document.getElementById("preview");
        if (preview) preview.innerHTML = "";
        showQueue();
        later();
      };
      if (waiting) {
        enqueue();
        return;
      }
      const mine = fresh || lookNow();
      if (!mine) {
        entry.submit();
        return;
      }
      // Its answer is still coming: the post waits for it, or the deal waits on the phone.
      looking = true;
      mine.wait.then((up) => {
        looking = false;
        if (up) entry.submit();
        else enqueue();
      });
    });
    // every waiting deal thrown away
    queueBox.querySelector(".drop").addEventListener("click", () => {
      keep({ deals: [], held: false });
      window.location.reload();
    });
    // the deals behind, checked: they follow the sheet as this page shows it
    queueBox.querySelector(".send").addEventListener("click", () => {
      const q = load();
      q.held = false;
      place(q);
      keep(q);
      nextEntry(q);
      showQueue();
      flush();
    });
    // the refused deal thrown away; the deals behind it stay to be checked
    refusedBox.querySelector(".drop-one").addEventListener("click", () => {
      const q = load();
      q.deals.shift();
      q.held = q.deals.length > 0;
      keep(q);
      showQueue();
    });
    // the refused deal into the entry form, as tapped, with the server's message above it,
    // to be put right and saved as the sheet's next deal
    refusedBox.querySelector(".take").addEventListener("click", () => {
      const q = load();
      const deal = q.deals.shift();
      if (!deal) return;
      q.held = q.deals.length > 0;
      keep(q);
      entry.reset();
      const names = new Set(deal.f.map((kv) => kv[0]));
      names.forEach((name) => {
        if (["csrf_token", "idem", "n"].includes(name)) return;
        const values = deal.f.filter((kv) => kv[0] === name).map((kv) => kv[1]);
        entry.querySelectorAll(`[name="${name}"]`).forEach((el) => {
          if (el.type === "checkbox" || el.type === "radio") el.checked = values.includes(el.value);
          else if (el.type !== "hidden") el.value = values[0];
        });
      });
      const note = document.createElement("p");
      note.className = "err box";
      note.setAttribute("role", "alert");
      note.textContent = deal.why || "";
      entry.before(note);
      entry.dispatchEvent(new Event("change"));
      showQueue();
    });
    window.addEventListener("online", flush);
    showTold();
    const q = load();
    if (q.deals.length) {
      // (held: the form is the sheet's next deal as the server drew it, left as it is)
      if (!q.held) nextEntry(q);
      showQueue();
      if (!q.held) flush();
    }
  }

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
      const seen = (up) => {
        reachable = up;
        if (queueBox) queueBox.dataset.server = up ? "up" : "down";
      };
      // a 5xx is a proxy in front answering for an app that is away
      fetch(head.dataset.revUrl, { cache: "no-cache" })
        .then((r) => { seen(r.status < 500); return r.json(); }, (e) => { seen(false); throw e; })
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
      // each game's own controls carry the class "<game>only" (the game choices name them)
      const g = val(form, "game");
      const only = Array.from(form.querySelectorAll('input[name="game"]')).map((i) => `.${i.value}only`);
      only.forEach((sel) => show(form, sel, sel === `.${g}only`));
      // what is hidden is not sent: a Platz 5 or a Skat stake typed before switching to
      // Schafkopf must not turn into a fifth player or a Schafkopf factor
      if (only.length) {
        form.querySelectorAll(only.join(", ")).forEach((el) => {
          el.querySelectorAll("input, select").forEach((i) => { i.disabled = el.hidden; });
        });
      }
    };
    t();
    form.addEventListener("change", t);
  });
})();
