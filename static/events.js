// Club night pages: the live ranking swaps in the server's newest HTML when the event or any
// table's list changes; the big screen pages through a long ranking. Nothing is computed here.
"use strict";
(function () {
  const box = document.getElementById("live");
  const screen = document.body.classList.contains("screen");

  function paginate() {
    if (!screen || !box) return;
    const list = box.querySelector(".scrrank");
    const rows = list ? Array.from(list.children) : [];
    rows.forEach((r) => { r.hidden = false; });
    if (!rows.length) return;
    const room = window.innerHeight - list.getBoundingClientRect().top - 8;
    const cols = parseInt(getComputedStyle(list).columnCount, 10) || 1;
    const per = Math.max(1, Math.floor(room / rows[0].offsetHeight)) * cols;
    const pages = Math.ceil(rows.length / per);
    box.dataset.pages = String(pages);
    const page = (parseInt(box.dataset.page || "0", 10) || 0) % pages;
    rows.forEach((r, i) => { r.hidden = Math.floor(i / per) !== page; });
  }

  if (box && box.dataset.liveUrl) {
    let token = box.dataset.token || null;
    let busy = false;
    const check = () => {
      if (document.hidden || busy) return;
      busy = true;
      fetch(box.dataset.liveUrl, { cache: "no-store" })
        .then((r) => r.json())
        .then((d) => {
          if (token === null) { token = d.live; return null; }
          if (d.live === token) return null;
          token = d.live;
          return fetch(box.dataset.partUrl, { cache: "no-store" })
            .then((r) => (r.ok ? r.text() : null))
            .then((html) => {
              if (html === null) return;
              box.innerHTML = html;
              box.dataset.updated = String(Date.now());
              paginate();
            });
        })
        .catch(() => {})
        .finally(() => { busy = false; });
    };
    setInterval(check, screen ? 3000 : 2000);
    document.addEventListener("visibilitychange", check);
  }

  if (screen) {
    paginate();
    window.addEventListener("resize", paginate);
    setInterval(() => {
      const pages = parseInt(box.dataset.pages || "1", 10);
      if (pages > 1) {
        box.dataset.page = String(((parseInt(box.dataset.page || "0", 10) || 0) + 1) % pages);
        paginate();
      }
    }, 8000);
  }

  // New event: show what applies to the chosen game; the deal counts follow the game until edited.
  document.querySelectorAll("form.newevent").forEach((form) => {
    const deals4 = form.querySelector("input[name=deals4]");
    let touched = false;
    if (deals4) deals4.addEventListener("input", () => { touched = true; });
    const toggle = () => {
      const checked = form.querySelector("input[name=game]:checked");
      const first = form.querySelector("input[name=game]");
      const game = checked ? checked.value : first ? first.value : "";
      form.querySelectorAll("input[name=game]").forEach((i) => {
        form.querySelectorAll(`.${i.value}only`).forEach((el) => { el.hidden = game !== i.value; });
      });
      if (deals4 && !touched) deals4.value = deals4.dataset[game] || deals4.value;
    };
    toggle();
    form.addEventListener("change", toggle);
    // The scale's figures: an empty field counts as the chosen preset's, shown as its
    // placeholder (the server's figures, kept on the page; nothing is computed here).
    const scale = form.querySelector("#f-scale");
    if (scale) {
      const figures = JSON.parse(scale.dataset.figures || "{}");
      const shown = () => {
        const picked = form.querySelector("input[name=scoring]:checked");
        const preset = figures[picked ? picked.value : ""] || figures["default"] || {};
        scale.querySelectorAll("input[data-figure]").forEach((i) => {
          if (preset[i.dataset.figure] !== undefined) i.placeholder = preset[i.dataset.figure];
        });
      };
      shown();
      form.addEventListener("change", shown);
    }
  });
})();
