// The Mini App table: draws the reader's page of a table (sent by the server, already in
// his language) and turns taps into presses. The server decides everything; the page
// only picks which of the offered actions a tap means.
"use strict";

const app = (() => {
  const query = new URLSearchParams(location.search);
  const table = telegram.startParam || query.get("table") || "";
  const auth = "initData=" + encodeURIComponent(telegram.initData) +
    "&table=" + encodeURIComponent(table);
  const $ = (id) => document.getElementById(id);
  const state = { page: null, tab: "felt", picked: [], chooser: null, busy: false, skew: 0,
    sheet: null, sheetVersion: null };

  const { html, element, toast } = dom;

  // -- the table -----------------------------------------------------------------------------

  function place(seat, count, me) {
    // Where a seat sits, seen from the reader's chair (the next seat is on his left).
    const turn = (seat - (me === null ? 0 : me) + count) % count;
    const spots = { 2: ["south", "north"], 3: ["south", "west", "east"],
      4: ["south", "west", "north", "east"] };
    return (spots[count] || spots[4])[turn];
  }

  function actions() {
    return (state.page.drawing && state.page.drawing.actions) || [];
  }

  function tappable() {
    // card -> the actions a tap on it may mean
    const found = new Map();
    for (const action of actions()) {
      for (const code of action.cards) {
        if (!found.has(code)) found.set(code, []);
        found.get(code).push(action);
      }
    }
    return found;
  }

  function drawCards(codes, legal) {
    const row = element("div", "cards");
    for (const code of codes) {
      const card = cards.face(code);
      if (legal.has(code)) {
        card.classList.add("legal");
        card.addEventListener("click", () => tap(code));
      }
      if (state.picked.includes(code)) card.classList.add("picked");
      row.append(card);
    }
    return row;
  }

  function drawSeats(drawing, legal) {
    const box = $("seats");
    box.replaceChildren();
    const me = state.page.seat;
    for (const seat of drawing.seats) {
      const spot = element("div", "seat " + place(seat.seat, drawing.seats.length, me));
      spot.dataset.seat = seat.seat;
      if (seat.turn) spot.classList.add("turn");
      if (seat.team !== null) spot.classList.add("team" + seat.team);
      const name = element("div", "name", seat.name);
      if (seat.dealer) name.append(element("span", "dealer", state.page.texts.dealer));
      spot.append(name);
      if (seat.note) spot.append(element("div", "note", seat.note));
      if (seat.taken) spot.append(element("div", "taken", seat.taken));
      if (seat.shown && seat.seat !== me) {  // an exposed hand (his own is the hand below)
        spot.append(drawCards(seat.shown, legal));
      } else if (seat.seat !== me && seat.count) {
        const backs = element("div", "backs");
        for (let i = 0; i < Math.min(seat.count, 12); i++) backs.append(cards.back());
        backs.append(element("span", "count", String(seat.count)));
        spot.append(backs);
      }
      box.append(spot);
    }
  }

  function drawTrick(target, plays, count) {
    target.replaceChildren();
    for (const play of plays) {
      const spot = element("div", "play " + place(play.seat, count, state.page.seat));
      spot.dataset.trickSeat = play.seat;
      spot.append(cards.face(play.card));
      if (play.label && play.card === "JK") spot.append(element("div", "label", play.label));
      target.append(spot);
    }
  }

  function drawAreas(drawing, legal) {
    $("floor").replaceChildren();
    $("side").replaceChildren();
    for (const area of drawing.areas) {
      const shown = element("div", "area");
      shown.append(element("div", "label", area.label));
      for (const group of area.groups) {
        if (!group.cards.length) continue;
        const part = element("div", "group");
        if (group.label) part.append(element("div", "label", group.label));
        part.append(drawCards(group.cards, legal));
        shown.append(part);
      }
      $(area.middle ? "floor" : "side").append(shown);
    }
  }

  function button(label, onClick, action) {
    const made = element("button", "action", label);
    if (action) made.dataset.action = action.action;
    made.disabled = state.busy;
    made.addEventListener("click", onClick);
    return made;
  }

  function drawActions() {
    const box = $("actions");
    box.replaceChildren();
    const page = state.page;
    if (page.robot) {
      box.append(button(page.texts.i_am_back, () => send({ kind: "r" })));
    }
    if (state.chooser) {  // a card with several moves: which one
      for (const action of state.chooser) box.append(button(action.label, () => act(action), action));
      box.append(button(page.texts.back, () => { state.chooser = null; render(); }));
      return;
    }
    for (const action of actions()) {
      if (!action.cards.length) box.append(button(action.label, () => act(action), action));
    }
    if (state.picked.length === 2) {
      const chosen = actions().find((a) => a.cards.length === 2 &&
        a.cards.every((c) => state.picked.includes(c)));
      if (chosen) box.append(button(chosen.label, () => act(chosen), chosen));
    }
  }

  function drawClock() {
    const clock = $("clock");
    const deadline = state.page && state.page.deadline;
    if (!deadline) {
      clock.textContent = "";
      return;
    }
    const left = Math.max(0, Math.round(deadline - (Date.now() / 1000 + state.skew)));
    const h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, s = left % 60;
    const time = (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" +
      String(s).padStart(2, "0");
    clock.textContent = "⏳ " + state.page.texts.left.replace("{time}", time);
  }

  function drawTabs() {
    const page = state.page;
    const tabs = $("tabs");
    tabs.replaceChildren();
    const names = [["felt", page.texts.table], ["score", page.texts.score],
      ["rules", page.texts.rules]];
    if (page.analysis) names.push(["analysis", page.texts.analysis]);
    for (const [name, label] of names) {
      const tab = element("button", name === state.tab ? "tab on" : "tab", label);
      tab.dataset.tab = name;
      tab.addEventListener("click", () => { state.tab = name; render(); });
      tabs.append(tab);
    }
    for (const pane of ["felt", "score", "rules", "analysis"]) $(pane).hidden = pane !== state.tab;
    $("play").hidden = state.tab !== "felt";
  }

  async function loadSheet() {
    // The score, settlement and rules: fetched when their tab shows, again after a move.
    const version = state.page.version;
    if (state.tab === "felt" || state.sheetVersion === version) return;
    state.sheetVersion = version;
    const answer = await fetch("api/sheet?" + auth).catch(() => null);
    // The last finished deal's analysis, with the sheet (its tab may be the one open).
    const found = state.page.analysis ?
      await fetch("api/analysis?" + auth).catch(() => null) : null;
    if (found && found.ok) state.analysis = await found.json();
    if (answer && answer.ok) {
      state.sheet = await answer.json();
      render();
    } else if (state.sheetVersion === version) {
      state.sheetVersion = null; // asked again at the next redraw
      if (!answer || answer.status >= 500) setTimeout(render, 3000); // or soon, if it was the network
    }
  }

  function drawSheet() {
    const page = state.page, sheet = state.sheet;
    const box = $("score");
    box.replaceChildren();
    html($("rules"), sheet ? sheet.rules : "");
    html($("analysis"), state.analysis ? state.analysis.text : "");
    if (!sheet) return;
    if (sheet.score) box.append(element("div", "sheet-text", sheet.score));
    if (sheet.settlement) {
      box.append(element("h3", "", page.texts.settlement));
      box.append(element("div", "", sheet.settlement));
    }
    if (state.tab === "score" && page.drawing) {
      const picture = element("img", "sheet");
      picture.alt = page.texts.sheet;
      picture.src = "api/sheet.png?" + auth + "&v=" + page.version;
      box.append(picture);
    }
  }

  function render() {
    const page = state.page;
    if (!page) return;
    $("app").dataset.version = page.version;
    $("app").dataset.game = page.game;
    html($("title"), page.title);
    drawTabs();
    drawSheet();
    loadSheet();
    html($("note"), [page.note, page.robot].filter(Boolean).join("\n"));
    html($("info"), page.info);
    $("app").classList.toggle("kept", "keep" in page);  // a scorekept game: no cards
    keep.draw($("keep"), page.keep, state.busy, (action) => send({ kind: "k", action }));
    const drawing = page.drawing;
    if (!drawing) {
      for (const id of ["seats", "trick", "floor", "side", "actions", "hand", "last-trick"]) {
        $(id).replaceChildren();
      }
      html($("prompt-text"), "");
      return;
    }
    const legal = tappable();
    drawSeats(drawing, legal);
    drawTrick($("trick"), drawing.trick, drawing.seats.length);
    drawAreas(drawing, legal);
    html($("prompt-text"), page.seat === null ? page.texts.watching : page.prompt);
    drawClock();
    drawActions();
    const hand = $("hand");
    const row = drawCards(drawing.hand, legal);
    // A fan that fits the width: the cards overlap as much as they must, no more.
    const width = 58, room = hand.clientWidth - 16, n = drawing.hand.length;
    const step = n > 1 ? Math.min(width + 3, (room - width) / (n - 1)) : width;
    row.style.setProperty("--overlap", Math.round(step - width) + "px");
    hand.replaceChildren(row);
    $("last").hidden = !drawing.last_trick.length;
    html($("last").querySelector("summary"), page.texts.last_trick);
    drawTrick($("last-trick"), drawing.last_trick, drawing.seats.length);
  }

  // -- taps --------------------------------------------------------------------------------

  function tap(code) {
    const meant = tappable().get(code) || [];
    if (meant.some((a) => a.cards.length === 2)) {  // the discard: pick two, then confirm
      state.picked = state.picked.includes(code) ? state.picked.filter((c) => c !== code)
        : [...state.picked, code].slice(-2);
      render();
    } else if (meant.length === 1) {
      act(meant[0]);
    } else if (meant.length > 1) {
      state.chooser = meant;
      render();
    }
  }

  function act(action) {
    send({ kind: "a", version: state.page.version, seat: action.seat, action: action.action });
  }

  async function send(press) {
    if (state.busy) return;
    state.busy = true;
    render();
    try {
      const answer = await fetch("api/press", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ initData: telegram.initData, table, nonce: nonce(), ...press }),
      });
      const said = await answer.json().catch(() => ({}));
      if (answer.status === 401) {
        expired(said.text);
      } else if (said.text) {
        toast(said.text);
      }
    } catch (error) {
      toast(state.page ? state.page.texts.offline : String(error));
    } finally {
      state.busy = false;
      state.picked = [];
      state.chooser = null;
      render();
    }
  }

  function nonce() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // -- live updates ------------------------------------------------------------------------

  function show(page) {
    const moved = !state.page || state.page.version !== page.version;
    state.page = page;
    state.skew = page.now - Date.now() / 1000;
    if (moved) {
      state.picked = [];
      state.chooser = null;
    }
    render();
  }

  function expired(text) {
    document.body.classList.add("expired");
    html($("note"), "⚠ " + (text || "401"));
  }

  const RETRY_FIRST_MS = 1000;
  const RETRY_MOST_MS = 15000;
  let retryMs = RETRY_FIRST_MS;

  function later(again) {
    // A server that answered with an error (a worker restarting, the database away): the
    // browser does not try again by itself, so the page does, less often each time.
    setTimeout(again, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
  }

  function listen() {
    const events = new EventSource("api/events?" + auth);
    events.onopen = () => { retryMs = RETRY_FIRST_MS; };
    events.onmessage = (event) => {
      $("toast").hidden = true;
      show(JSON.parse(event.data));
    };
    events.onerror = () => {
      toast(state.page.texts.offline);
      if (events.readyState === EventSource.CLOSED) later(listen);
    };
    events.addEventListener("expired", (event) => {
      events.close();
      expired(JSON.parse(event.data).text);
    });
  }

  async function start() {
    let said = {};
    let first = null;
    try {
      first = await fetch("api/page?" + auth);
      said = await first.json().catch(() => ({}));
    } catch (error) {
      said = { text: String(error) };
    }
    if (first && first.status === 401) return expired(said.text);
    if (!first || !first.ok) {
      html($("note"), said.text || String(first ? first.status : ""));
      // A refusal (no such table, not yours to watch) stands; a server in trouble is asked again.
      const refused = first && first.status < 500 && first.status !== 429;
      return refused ? undefined : later(start);
    }
    retryMs = RETRY_FIRST_MS;
    show(said);
    listen();
    setInterval(drawClock, 1000);
  }

  telegram.ready();
  start();
  return { state };
})();
