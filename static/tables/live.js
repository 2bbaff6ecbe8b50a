/* Live table: one WebSocket per open table page (server side: tables/consumers.py).
 *
 * The server sends JSON: {type: "event", seq, prev, html} |
 * {type: "ready", seq} | {type: "pong", seq} | {type: "presence", html} |
 * {type: "layer", state: "down" | "up"}.
 * `html` is a string of hx-swap-oob fragments that htmx applies. `prev` is the
 * event this one follows for this page: the events between are not for this
 * viewer (a GM's secret), and nothing about them is sent when they happen.
 *
 * Order and catch-up: `last` is the highest sequence number this page has.
 * An event with seq <= last is a duplicate and ignored; one whose prev <= last
 * is applied; anything else is a gap, and the page asks the server to send
 * everything after `last` again ({type: "resync", after: last}).
 * On every (re)connect the socket URL carries ?after=<last>, and the server
 * replays what the page missed before going live.
 *
 * Delayed: while the server's channel layer (Redis) is away ("layer" down), others'
 * moves reach it only through heartbeats: the page says so and beats every
 * DELAYED_HEARTBEAT. When it is back ("up") the page catches up once and is live.
 *
 * Reconnect: on every close, whatever the code, with exponential backoff
 * (capped at 5 s). htmx's ws extension is not used: it reconnects only on
 * some close codes and never replays. window.momentaLive is the handle.
 */
(function () {
  "use strict";

  var root = document.getElementById("table");
  if (!root || !window.WebSocket || !window.htmx) return;

  var BACKOFF_FIRST = 250;
  var BACKOFF_CAP = 5000;
  var HEARTBEAT = 25000;
  var DELAYED_HEARTBEAT = 5000; // while the layer is away, heartbeats bring the moves
  var REFUSED = 4403;
  var HOLD_CAP = 2000; // longest a socket message waits for this page's own htmx request

  var live = {
    last: parseInt(root.getAttribute("data-last-seq") || "0", 10),
    socket: null,
    attempts: 0,
    retryTimer: null,
    heartbeat: null,
    resyncing: false,
    delayed: false, // the server's channel layer is away ("layer" messages)
    lastHeard: 0,
    state: "connecting",
    held: [], // socket messages waiting for an htmx request in flight (see hold)
    heldSince: 0,
    holdTimer: null,
  };
  window.momentaLive = live;

  // The words come from the page, in the reader's language (live_status.html).
  function setState(state) {
    live.state = state;
    root.setAttribute("data-live", state);
    var el = document.getElementById("live-status");
    if (el) {
      el.setAttribute("data-state", state);
      el.textContent = el.getAttribute("data-label-" + state) || "";
    }
  }

  // Live, or delayed while the server's channel layer is away.
  function settled() {
    setState(live.delayed ? "delayed" : "live");
  }

  function socketUrl() {
    var scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return scheme + "//" + location.host + root.getAttribute("data-ws-path") + "?after=" + live.last;
  }

  function send(message) {
    if (live.socket && live.socket.readyState === WebSocket.OPEN) {
      live.socket.send(JSON.stringify(message));
    }
  }

  // Keep #roll-log newest first with one entry per seq, whoever inserted it
  // (a socket push, or the fragment in an HTTP answer to one's own action).
  function normalizeLog() {
    var log = document.getElementById("roll-log");
    if (!log) return;
    var seen = {};
    var previous = Infinity;
    var sorted = true;
    Array.prototype.slice.call(log.children).forEach(function (item) {
      var seq = parseInt(item.getAttribute("data-seq"), 10);
      if (seen[seq]) {
        item.remove();
        return;
      }
      seen[seq] = true;
      if (seq > previous) sorted = false;
      previous = seq;
    });
    if (!sorted) {
      Array.prototype.slice
        .call(log.children)
        .sort(function (a, b) {
          return b.getAttribute("data-seq") - a.getAttribute("data-seq");
        })
        .forEach(function (item) {
          log.appendChild(item);
        });
    }
  }

  function apply(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    // An entry the page already shows (from an HTTP answer) is not inserted twice.
    var entries = template.content.querySelectorAll("[hx-swap-oob^='afterbegin:#roll-log'] > [data-seq]");
    var fresh = [];
    Array.prototype.forEach.call(entries, function (item) {
      if (document.getElementById(item.id)) item.remove();
      else fresh.push(item.id);
    });
    htmx.swap(document.body, template.innerHTML, { swapStyle: "none" });
    normalizeLog();
    // New entries while live go on the roll stage and are announced (stage.js);
    // a catch-up replay after a reconnect is not a moment at the table.
    // Delayed entries are moments too: late by a heartbeat at most.
    var playing = live.state === "live" || live.state === "delayed";
    if (fresh.length && playing && window.momentaStage) window.momentaStage.landed(fresh);
  }

  function resync() {
    if (live.resyncing) return;
    live.resyncing = true;
    send({ type: "resync", after: live.last });
  }

  function take(message) {
    if (message.seq <= live.last) return; // duplicate
    var prev = typeof message.prev === "number" ? message.prev : message.seq - 1;
    if (prev > live.last) {
      resync(); // gap: the server sends everything after `last` again, in order
      return;
    }
    if (message.html) apply(message.html);
    live.last = message.seq;
    root.setAttribute("data-last-seq", String(live.last));
  }

  function receive(message) {
    switch (message.type) {
      case "event":
        take(message);
        break;
      case "presence":
        htmx.swap(document.body, message.html, { swapStyle: "none" });
        break;
      case "ready":
        live.resyncing = false;
        if (message.seq < live.last) {
          // The server knows less than this page: its database was reset.
          location.reload();
          return;
        }
        if (message.seq > live.last) resync();
        else settled();
        break;
      case "pong":
        if (message.seq > live.last) resync();
        break;
      case "layer":
        layer(message.state === "down");
        break;
    }
  }

  function layer(away) {
    if (away === live.delayed) return;
    live.delayed = away;
    beat(away ? DELAYED_HEARTBEAT : HEARTBEAT);
    if (!away) send({ type: "ping", seq: live.last }); // back: catch up once
    if (!live.resyncing) settled(); // else its "ready" settles the state
  }

  function beat(period) {
    clearInterval(live.heartbeat);
    live.heartbeat = setInterval(function () {
      // Every ping is answered: a socket silent for two beats is dead
      // (a sleeping laptop, a dropped route) even if it still looks open.
      if (Date.now() - live.lastHeard > 2 * HEARTBEAT + 5000) live.drop();
      else send({ type: "ping", seq: live.last });
    }, period);
  }

  // An htmx request in flight is answered with the fragments of the event it
  // caused: the same ones the socket brings, often first. Applying the socket's
  // copy first can replace the element that made the request (a button on a log
  // card, the spend panel), and htmx then drops the answer. So socket messages
  // wait, in order, while a request is in flight (htmx marks its element with
  // .htmx-request), at most HOLD_CAP; the answer lands, then the copy.
  function hold(message) {
    if (message) live.held.push(message);
    clearTimeout(live.holdTimer);
    if (live.held.length && document.querySelector(".htmx-request")) {
      if (!live.heldSince) live.heldSince = Date.now();
      if (Date.now() - live.heldSince < HOLD_CAP) {
        live.holdTimer = setTimeout(hold, 50);
        return;
      }
    }
    live.heldSince = 0;
    while (live.held.length) receive(live.held.shift());
  }

  function scheduleReconnect() {
    setState("offline");
    var delay = Math.min(BACKOFF_CAP, BACKOFF_FIRST * Math.pow(2, live.attempts));
    live.attempts += 1;
    // Jitter, so a table's worth of pages does not come back in lockstep.
    delay = delay / 2 + (Math.random() * delay) / 2;
    clearTimeout(live.retryTimer);
    live.retryTimer = setTimeout(live.connect, delay);
  }

  function closed(socket) {
    if (socket !== live.socket) return;
    live.socket = null;
    live.resyncing = false;
    live.delayed = false; // the next socket is told again
    // What the old socket left waiting is replayed by the next one (?after=last).
    live.held = [];
    clearTimeout(live.holdTimer);
    clearInterval(live.heartbeat);
    scheduleReconnect();
  }

  live.connect = function () {
    clearTimeout(live.retryTimer);
    live.retryTimer = null;
    if (live.socket) return;
    var socket = new WebSocket(socketUrl());
    live.socket = socket;
    setState(live.attempts ? "offline" : "connecting");
    socket.onopen = function () {
      live.attempts = 0;
      live.lastHeard = Date.now();
      setState("syncing");
      beat(HEARTBEAT);
    };
    socket.onmessage = function (e) {
      if (socket !== live.socket) return;
      live.lastHeard = Date.now();
      hold(JSON.parse(e.data));
    };
    socket.onclose = function (e) {
      if (socket === live.socket && e.code === REFUSED) {
        live.socket = null;
        clearInterval(live.heartbeat);
        setState("refused");
        return;
      }
      closed(socket);
    };
  };

  // Drop the socket now and reconnect with backoff. Used when the browser
  // says it went offline (a dead connection may take long to close by itself).
  live.drop = function () {
    var socket = live.socket;
    if (!socket) return;
    socket.onclose = socket.onmessage = null;
    try {
      socket.close();
    } catch (e) {
      /* already closing */
    }
    closed(socket);
  };

  window.addEventListener("offline", live.drop);
  window.addEventListener("online", function () {
    if (!live.socket) {
      live.attempts = 0;
      live.connect();
    }
  });
  document.body.addEventListener("htmx:afterRequest", function () {
    setTimeout(hold, 0); // the answer is swapped: let the held socket messages in
  });
  document.body.addEventListener("htmx:afterSwap", normalizeLog);
  document.body.addEventListener("htmx:oobAfterSwap", normalizeLog);

  live.connect();
})();
