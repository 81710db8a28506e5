// The desk's paper lists: while a table's foot is typed, the server computes the scores
// (no scoring here) and they are shown beside the names; the page works without this file.
(function () {
  "use strict";
  function preview(form) {
    var body = new FormData(form);
    fetch(form.dataset.preview, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) {
        if (!answer) { return; }
        form.querySelectorAll("output[data-seat]").forEach(function (out) {
          out.textContent = answer.scores[out.dataset.seat] || "";
        });
        var check = form.querySelector("output[data-check]");
        if (check) {
          check.textContent = answer.check;
          check.classList.toggle("error", !answer.ok && answer.check !== "");
        }
      })
      .catch(function () { /* offline: the save shows the figures */ });
  }
  document.querySelectorAll("form[data-preview]").forEach(function (form) {
    var timer = null;
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { preview(form); }, 120);
    });
  });
  // Browsers skip autofocus when the address names a part of the page (#paper-2): the
  // table's first field takes the focus all the same.
  var first = document.querySelector("form[data-preview] [autofocus]");
  function focusFirst() {
    if (first && (!document.activeElement || document.activeElement === document.body)) {
      first.focus();
    }
  }
  focusFirst();
  window.addEventListener("load", function () { setTimeout(focusFirst, 0); });
})();
