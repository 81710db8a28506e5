// skatcalc service worker: the app keeps opening when the connection to the laptop drops.
// Pages: network first, the last copy when offline. Static files: cache first.
// The API, revision polls and every write go to the network only: nothing is faked offline.
// Never kept: an answer the server marks no-store (an editor's page holds the edit link) and
// any address with a token in it.{# A template (pwa.py): the downloads let pass are the exports registry's. #}
"use strict";
const CACHE = "skatcalc-v2"; // v1 may hold editors' pages: dropped at activation
const PRECACHE = ["/", "/offline", "/skat", "/schafkopf", "/bids", {{ static_urls }}];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function keepable(req, res) {
  if (!res.ok) return false;
  if (/no-store/i.test(res.headers.get("Cache-Control") || "")) return false;
  const url = new URL(req.url);
  return !/\/edit\//.test(url.pathname) && !url.searchParams.has("token");
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.endsWith("/rev")) return;
  // a live preview (?part=…) answers one state of a form: never kept, never the offline page
  if (url.searchParams.has("part")) return;
  if (/\/export\.({{ export_pattern }})$/.test(url.pathname)) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(req).then((hit) => hit || fetch(req).then((res) => {
      const copy = res.clone();
      if (keepable(req, res)) caches.open(CACHE).then((c) => c.put(req, copy));
      return res;
    })));
    return;
  }
  event.respondWith(
    fetch(req).then((res) => {
      const copy = res.clone();
      if (keepable(req, res)) caches.open(CACHE).then((c) => c.put(req, copy));
      return res;
    }).catch(() => caches.match(req).then((hit) => hit || caches.match("/offline"))),
  );
});
