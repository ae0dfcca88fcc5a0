// The studio: draws the board, the sequence diagram of one phase, and the message details.
// Plain script over the JSON in #trace-data; nothing is loaded from the network.
"use strict";
(function () {
  const started = performance.now();
  const data = JSON.parse(document.getElementById("trace-data").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const GLYPHS = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
  const ROLE_FIELDS = {
    from: ["start", "origin"], to: ["end", "target", "to"], path: ["traversed", "crossed", "between"],
    king: ["king_square"], blocker: ["blocker"],
    attacker: ["candidates", "check_candidates", "king_candidates", "checkers", "exposers", "check"],
  };
  const state = { game: 0, phase: 0, msg: 0, hiddenActors: new Set(), hiddenKinds: new Set(), search: "",
    unfolded: false, expanded: new Set() };
  const $ = (id) => document.getElementById(id);
  const live = { socket: null, from: null, events: 0, pending: [], stepping: false, inFlight: false, verbs: [],
    base: 0, asking: false };

  function el(name, attrs, parent, text) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }
  const game = () => data.games[state.game];
  const phase = () => game().phases[state.phase];
  const current = () => (state.msg > 0 ? phase().events[state.msg - 1] : null);

  // --- filters -------------------------------------------------------------------------
  function shownByFilters(event) {
    return !(state.hiddenActors.has(event.from) || state.hiddenActors.has(event.to) || state.hiddenKinds.has(event.kind));
  }
  function found(event) {
    const text = [event.kind, event.from, event.to, event.summary, event.reply_summary || "",
      JSON.stringify(event.payload), JSON.stringify(event.reply_payload || {})].join(" ").toLowerCase();
    return text.includes(state.search);
  }
  function visible(event) {
    return shownByFilters(event) && (!state.search || found(event));
  }
  // Every message of the game the search finds, as [phase, msg] places, in order.
  function matches() {
    const places = [];
    if (!state.search) return places;
    game().phases.forEach((q, p) => q.events.forEach((e, i) => { if (visible(e)) places.push([p, i + 1]); }));
    return places;
  }
  // Go to the next (or previous) message the search finds, across the whole game, wrapping round.
  function jumpToMatch(delta) {
    const places = matches();
    if (!places.length) { render(); return; }
    const here = [state.phase, state.msg];
    const after = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
    let target;
    if (delta > 0) target = places.find((place) => after(place, here)) || places[0];
    else target = [...places].reverse().find((place) => after(here, place)) || places[places.length - 1];
    go(target[0], target[1]);
  }
  function searchStatus() {
    const box = $("search-status");
    if (!state.search) { box.textContent = ""; return; }
    const places = matches();
    const phases = new Set(places.map(([p]) => p)).size;
    const index = places.findIndex(([p, m]) => p === state.phase && m === state.msg);
    box.textContent = places.length
      ? `${index >= 0 ? index + 1 + " of " : ""}${places.length} match${places.length === 1 ? "" : "es"} in ${phases} phase${phases === 1 ? "" : "s"} (Enter: next)`
      : "no match in this game";
  }

  function buildFilters() {
    for (const [box, items, hidden, attr] of [
      [$("actor-filters"), game().actors, state.hiddenActors, "data-actor"],
      [$("kind-filters"), game().kinds, state.hiddenKinds, "data-kind"]]) {
      box.textContent = "";
      for (const item of items) {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = "checkbox"; input.checked = !hidden.has(item); input.setAttribute(attr, item);
        input.addEventListener("change", () => {
          if (input.checked) hidden.delete(item); else hidden.add(item);
          render();
        });
        label.append(input, " " + item);
        box.appendChild(label);
      }
    }
  }

  // --- causality -----------------------------------------------------------------------
  function causal(selected) {
    const marks = new Map();
    if (!selected) return marks;
    const byId = new Map(), children = new Map();
    for (const p of game().phases) for (const e of p.events) {
      byId.set(e.id, e);
      if (e.parent !== null) { if (!children.has(e.parent)) children.set(e.parent, []); children.get(e.parent).push(e.id); }
    }
    let up = selected.parent;
    while (up !== null && byId.has(up)) { marks.set(up, "cause"); up = byId.get(up).parent; }
    const stack = [...(children.get(selected.id) || [])];
    while (stack.length) {
      const id = stack.pop();
      marks.set(id, "effect");
      stack.push(...(children.get(id) || []));
    }
    marks.set(selected.id, "selected");
    return marks;
  }

  // --- the board -----------------------------------------------------------------------
  function squaresOf(value, out) {
    if (value === null || value === undefined) return;
    if (typeof value === "string" && /^[a-h][1-8]$/.test(value)) out.push(value);
    else if (Array.isArray(value)) value.forEach((item) => squaresOf(item, out));
    else if (typeof value === "object" && value.square) squaresOf(value.square, out);
  }
  // Lists of every move a piece has (a Targets' reach, a yes's onward reach) would light the whole
  // board; what a message is about is in its other fields, at any depth.
  // A square can play several parts (a traversed square where a blocker was found): the finding wins.
  const PRIORITY = { path: 1, from: 2, to: 3, king: 4, attacker: 5, blocker: 6 };
  const SKIPPED_FIELDS = new Set(["reach", "rook_reach", "paths", "onward", "entries", "changes", "placement"]);
  function collect(payload, marks) {
    if (Array.isArray(payload)) { payload.forEach((item) => collect(item, marks)); return; }
    if (!payload || typeof payload !== "object") return;
    for (const [role, fields] of Object.entries(ROLE_FIELDS)) {
      for (const field of fields) {
        const found = [];
        squaresOf(payload[field], found);
        for (const square of found) {
          if (!marks.has(square) || PRIORITY[role] > PRIORITY[marks.get(square)]) marks.set(square, role);
        }
      }
    }
    for (const [field, value] of Object.entries(payload)) {
      if (!SKIPPED_FIELDS.has(field) && value && typeof value === "object") collect(value, marks);
    }
  }
  function highlights(event) {
    const marks = new Map();
    if (!event) return marks;
    for (const payload of [event.payload, event.reply_payload || {}]) {
      collect(payload, marks);
      if (typeof payload.square === "string" && !marks.has(payload.square)) marks.set(payload.square, "from");
    }
    return marks;
  }
  function drawBoard() {
    const board = $("board");
    board.textContent = "";
    const p = phase(), event = current();
    const after = p.applied_at !== null && state.msg - 1 > p.applied_at;
    const placement = parsePlacement(after ? p.after : p.before);
    const marks = highlights(event);
    const size = 40, margin = 10;
    for (let rank = 8; rank >= 1; rank--) {
      for (let file = 0; file < 8; file++) {
        const name = "abcdefgh"[file] + rank;
        const x = margin + file * size, y = margin + (8 - rank) * size;
        el("rect", { x, y, width: size, height: size, class: (file + rank) % 2 === 0 ? "sq-light" : "sq-dark",
          "data-square": name }, board);
        if (marks.has(name)) el("rect", { x, y, width: size, height: size, class: "hl-" + marks.get(name),
          "data-highlight": marks.get(name), "data-square-highlight": name }, board);
        if (live.from === name) el("rect", { x, y, width: size, height: size, class: "hl-selected", "data-selected": name }, board);
        const piece = placement[(rank - 1) * 8 + file];
        if (piece) el("text", { x: x + size / 2, y: y + size / 2 + 1, class: "piece", "data-piece": piece, "data-on": name }, board, GLYPHS[piece]);
      }
    }
    for (let i = 0; i < 8; i++) {
      el("text", { x: margin + i * size + size / 2, y: margin + 8 * size + 6, class: "coord" }, board, "abcdefgh"[i]);
      el("text", { x: 4, y: margin + i * size + size / 2, class: "coord" }, board, String(8 - i));
    }
    if (data.live) {
      board.classList.add("live");
      board.querySelectorAll("rect[data-square]").forEach((square) => {
        square.addEventListener("click", () => pick(square.getAttribute("data-square"), placement));
      });
    }
    const move = p.move ? ` — ${p.move.san || p.move.uci} ${after ? "made" : "to come"}` : "";
    $("position-caption").textContent = `${p.label}${move}`;
    if (!data.live) {
      board.querySelectorAll("rect[data-square]").forEach((square) => {
        square.addEventListener("click", () => { state.focus = square.getAttribute("data-square"); drawLesson(placement); });
      });
    }
    drawLesson(placement);
  }

  // --- a taught piece's moves: its lesson and where it can go from its square -------------
  // The piece in focus is the one selected (live), clicked (a saved page), or taught by the
  // current message; what it moves as is read from the trace, from the last answer in which a
  // piece on that square declared its reach (Learned on a lesson, Targets after each move).
  const KIND_LABELS = new Set(["pawn", "knight", "bishop", "rook", "queen", "king"]);
  function focusSquare() {
    if (live.from) return live.from;
    const taught = phase().events.slice(0, state.msg).filter(
      (event) => event.kind === "Learn" && event.reply_payload && event.reply_payload.square);
    if (taught.length) return taught[taught.length - 1].reply_payload.square;
    return state.focus || null;
  }
  function lessonOf(square) {
    let found = null, actor = null;
    const phases = game().phases;
    for (let i = 0; i <= state.phase && i < phases.length; i++) {
      const events = i === state.phase ? phases[i].events.slice(0, state.msg) : phases[i].events;
      for (const event of events) {
        const reply = event.reply_payload;
        if (reply && reply.square === square && typeof reply.label === "string" && Array.isArray(reply.reach)) {
          found = reply; actor = event.to;
        }
      }
    }
    if (!found || KIND_LABELS.has(found.label)) return null;
    let betza = /[A-Z]/.test(found.label) ? found.label : null;
    for (const p of phases.slice(0, state.phase + 1)) {
      for (const event of p.events) {
        const geometry = event.kind === "Learn" && event.to === actor && event.payload && event.payload.geometry;
        if (geometry && geometry.name === found.label && geometry.betza) betza = geometry.betza;
      }
    }
    return { label: found.label, betza, reach: found.reach, actor };
  }
  function drawLesson(placement) {
    const panel = $("lesson-panel"), svg = $("lesson-diagram");
    const square = focusSquare();
    const index = square ? (Number(square[1]) - 1) * 8 + "abcdefgh".indexOf(square[0]) : -1;
    const lesson = square && placement[index] ? lessonOf(square) : null;
    panel.hidden = !lesson;
    svg.textContent = "";
    if (!lesson) { panel.removeAttribute("data-square"); return; }
    panel.setAttribute("data-square", square);
    panel.setAttribute("data-betza", lesson.betza || "");
    const named = lesson.betza && lesson.betza !== lesson.label ? ` (Betza ${lesson.betza})` : "";
    $("lesson-title").textContent = lesson.betza === lesson.label
      ? `${lesson.actor} on ${square} moves as Betza ${lesson.label}`
      : `${lesson.actor} on ${square} moves as ${lesson.label}${named}`;
    const cell = 12, edge = 2;
    const rules = new Map(lesson.reach.map((entry) => [entry.target, entry.rule]));
    for (let rank = 8; rank >= 1; rank--) {
      for (let file = 0; file < 8; file++) {
        const name = "abcdefgh"[file] + rank, x = edge + file * cell, y = edge + (8 - rank) * cell;
        el("rect", { x, y, width: cell, height: cell, class: (file + rank) % 2 === 0 ? "sq-light" : "sq-dark" }, svg);
        if (name === square) el("text", { x: x + cell / 2, y: y + cell / 2 + 1, class: "piece lesson-piece" }, svg, GLYPHS[placement[index]]);
        else if (rules.has(name)) el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell / 4,
          class: `reach-${rules.get(name)}`, "data-reach": name, "data-rule": rules.get(name) }, svg);
      }
    }
  }
  function parsePlacement(text) {
    const squares = [];
    for (const rank of text.split("/").reverse()) {
      for (const ch of rank) {
        if (/\d/.test(ch)) for (let i = 0; i < Number(ch); i++) squares.push("");
        else squares.push(ch);
      }
    }
    return squares;
  }

  // --- the sequence diagram ------------------------------------------------------------
  // The start-up (every actor started and seated: dozens of arrows) is one line until asked for.
  const folded = () => phase().kind === "startup" && !state.unfolded && state.msg === 0;
  function drawFolded(svg, p) {
    const width = Math.max(300, $("diagram-scroll").clientWidth - 4), height = 60;
    svg.setAttribute("width", width); svg.setAttribute("height", height);
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const title = $("phase-title");
    title.className = "phase-" + p.kind;
    title.textContent = `${p.label} · folded`;
    const actors = new Set(p.events.flatMap((e) => [e.from, e.to])).size;
    const g = el("g", { class: "folded-startup", role: "button", tabindex: "0" }, svg);
    el("rect", { x: 2, y: 8, width: width - 4, height: 34, rx: 5 }, g);
    el("text", { x: 12, y: 29 }, g, `▸ start-up: ${actors} actors started and seated, ${p.events.length} messages — click to open`);
    g.addEventListener("click", () => { state.unfolded = true; render(); });
  }
  // Short lane names when lanes are narrow: a piece by its glyph and square (♘g1), the full name on hover.
  const KIND_LETTERS = { pawn: "P", knight: "N", bishop: "B", rook: "R", queen: "Q", king: "K" };
  function shortName(name) {
    const piece = /^(white|black)-([a-z]+)-([a-h][1-8])$/.exec(name);
    if (piece && KIND_LETTERS[piece[2]]) {
      const letter = KIND_LETTERS[piece[2]];
      return GLYPHS[piece[1] === "white" ? letter : letter.toLowerCase()] + piece[3];
    }
    return name.length > 8 ? name.slice(0, 7) + "…" : name;
  }
  // --- fan-outs: one sender asking many actors the same thing at once -------------------------
  // A run of messages of one kind from one sender to at least FAN_OUT actors, sent while handling one
  // message (or each a root request, as the supervisor's pings), is drawn as one arrow until clicked.
  const FAN_OUT = 4;
  const isPiece = (name) => /^(white|black)-[a-z-]+-[a-h][1-8]$/.test(name);
  function fanOuts(p, shown) {
    const groups = [];
    let run = [];
    const plain = (e) => !(e.fault || e.reask || e.restart || e.link || e.open || e.cancelled);
    const close = () => {  // many receivers, not one asked many times (as proposals in flight are)
      if (new Set(run.map((i) => p.events[i].to)).size >= FAN_OUT) groups.push(run);
      run = [];
    };
    p.events.forEach((e, i) => {
      if (!shown[i]) return;
      const head = run.length ? p.events[run[0]] : null;
      if (head && plain(e) && e.from === head.from && e.kind === head.kind && e.parent === head.parent) { run.push(i); return; }
      close();
      if (plain(e)) run.push(i);
    });
    close();
    return groups.map((members) => {
      const first = p.events[members[0]];
      const receivers = [...new Set(members.map((i) => p.events[i].to))];
      const pieces = receivers.every(isPiece);
      const replies = members.map((i) => p.events[i]).filter((e) => e.reply !== null);
      const kinds = [...new Set(replies.map((e) => e.reply))];
      return { id: first.id, members, from: first.from, kind: first.kind, receivers,
        lane: pieces ? "⋯pieces" : "⋯" + receivers.join(","), head: pieces ? `pieces ×${receivers.length}` : `${receivers.length} actors`,
        label: `${first.kind} ×${members.length}` + (kinds.length ? ` · replies: ${kinds.join(", ")}` : " (tells)") };
    });
  }

  // --- label layout: a label takes the room its text needs, never cut at the gap between two lanes ---
  const LINE = 13;
  const measure = (() => {
    const context = document.createElement("canvas").getContext("2d");
    return (text) => {
      context.font = "600 11px system-ui, sans-serif";
      return context.measureText(text).width + 2;
    };
  })();
  function wrap(text, room) {
    const lines = [];
    let line = "";
    for (const word of text.split(" ")) {
      let rest = word;
      while (measure(rest) > room && rest.length > 1) {  // a word longer than the room is broken
        let cut = rest.length - 1;
        while (cut > 1 && measure(rest.slice(0, cut)) > room) cut--;
        if (line) { lines.push(line); line = ""; }
        lines.push(rest.slice(0, cut)); rest = rest.slice(cut);
      }
      const joined = line ? line + " " + rest : rest;
      if (line && measure(joined) > room) { lines.push(line); line = rest; } else line = joined;
    }
    if (line) lines.push(line);
    return lines;
  }
  // Where a label goes: centred over its arrow when it fits there, else from the arrow's left end on
  // (moved left so that it ends inside the diagram), else wrapped over as many lines as it needs.
  function placeLabel(text, left, right, width) {
    const wide = measure(text);
    if (right > left && wide <= right - left - 6) return { x: (left + right) / 2, anchor: "middle", lines: [text] };
    const room = width - 8;
    if (wide <= room) return { x: Math.max(4, Math.min(left + 4, width - 4 - wide)), anchor: "start", lines: [text] };
    return { x: 4, anchor: "start", lines: wrap(text, room) };
  }

  function drawDiagram() {
    const svg = $("diagram");
    svg.textContent = "";
    const p = phase();
    if (folded()) { drawFolded(svg, p); return; }
    const shown = p.events.map(visible);
    const selected = current();
    // Fan-outs are folded unless opened (or the message looked at is one of them).
    const fans = fanOuts(p, shown);
    const groups = fans.filter((group) => !state.expanded.has(group.id) &&
      !(selected && group.members.includes(state.msg - 1)));
    const opened = fans.filter((group) => !groups.includes(group));
    const groupOf = new Map();
    for (const group of groups) for (const index of group.members) groupOf.set(index, group);
    const lanes = [];
    const addLane = (name) => { if (!lanes.includes(name)) lanes.push(name); };
    p.events.forEach((e, i) => {
      if (!shown[i]) return;
      const group = groupOf.get(i);
      if (group) { addLane(e.from); return; }
      addLane(e.from); addLane(e.to);
    });
    for (const group of groups) addLane(group.lane);
    const heads = new Map(groups.map((group) => [group.lane, group.head]));
    const grouped = (name) => heads.has(name);
    lanes.sort((a, b) => grouped(a) - grouped(b) || nodeRank(a) - nodeRank(b) || laneRank(a) - laneRank(b));
    // Lanes share the width there is (down to 40 px each, with short names) so the rightmost is not cut
    // off; the outer margins leave room for half the first and the last lane's name (bold 11 px text).
    const room = Math.max(300, $("diagram-scroll").clientWidth - 4);
    const layout = (short) => {
      const half = (name) => Math.max(36, measure(heads.get(name) || (short ? shortName(name) : name)) / 2 + 4);
      const left = lanes.length ? half(lanes[0]) : 36, right = lanes.length ? half(lanes[lanes.length - 1]) : 36;
      const lane = lanes.length > 1 ? Math.max(40, Math.min(130, (room - left - right) / (lanes.length - 1))) : 130;
      return { left, right, lane };
    };
    let fit = layout(false);
    const abbreviate = lanes.some((name) => !heads.has(name) && measure(name) > fit.lane - 6);
    if (abbreviate) fit = layout(true);
    const laneWidth = fit.lane, margin = fit.left;
    // Narrow lanes carry short names, but a name that fits its lane is written whole (the outer
    // lanes' names are as the margins were made for).
    const outer = (name) => name === lanes[0] || name === lanes[lanes.length - 1];
    const headName = (name) => heads.get(name) ||
      (abbreviate && (outer(name) || measure(name) > laneWidth - 6) ? shortName(name) : name);
    // Names wider than their lane take two staggered rows, so that no two run into each other.
    const stagger = lanes.some((name) => measure(headName(name)) > laneWidth - 4);
    const top = stagger ? 44 : 30;
    const x = (name) => margin + lanes.indexOf(name) * laneWidth;
    const width = Math.max(room, fit.left + fit.right + (lanes.length - 1) * laneWidth);
    // The rows: a folded fan-out is one row, where its first message was sent.
    const rows = [];
    const drawnGroups = new Set();
    for (const [index, isReply] of p.rows) {
      if (!shown[index]) continue;
      const group = groupOf.get(index);
      if (group) {
        if (!drawnGroups.has(group)) { drawnGroups.add(group); rows.push({ group }); }
        continue;
      }
      const opening = opened.find((g) => !drawnGroups.has(g) && g.members.includes(index));
      if (opening) { drawnGroups.add(opening); rows.push({ fold: opening }); }  // above its first row
      rows.push({ index, isReply });
    }
    const marks = causal(selected);
    const laid = rows.map((row) => {
      let a, b, text;
      if (row.fold) {
        return { row, place: { x: 4, anchor: "start", lines: [`▾ fold the ${row.fold.members.length} ${row.fold.kind} of ${row.fold.from} into one arrow`] } };
      }
      if (row.group) { a = row.group.from; b = row.group.lane; text = "▸ " + row.group.label; }
      else {
        const e = p.events[row.index];
        [a, b] = row.isReply ? [e.to, e.from] : [e.from, e.to];
        const label = row.isReply ? (e.reply_summary || e.reply || "") : e.summary;
        text = (e.fault && !row.isReply ? "⚡ " : "") + (e.reask && !row.isReply ? "↻ " : "") + (e.restart ? "⟳ " : "") +
          (e.cancelled && !row.isReply ? "⊘ " : "") + (LINK_MARKS[e.link] || "") + label +
          (e.open ? " · delivered, reply awaited" : "");
      }
      const x1 = x(a), x2 = x(b);
      const place = x1 === x2 ? placeLabel(text, x1 + 34, x1 + 34, width) : placeLabel(text, Math.min(x1, x2), Math.max(x1, x2), width);
      return { row, a, b, x1, x2, place };
    });
    let y = top;
    for (const item of laid) { item.y = y; y += item.row.fold ? 18 : item.place.lines.length * LINE + 13 + (item.x1 === item.x2 || item.row.group ? 6 : 0); }
    const height = y + 14;
    svg.setAttribute("width", width); svg.setAttribute("height", height);
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const title = $("phase-title");
    title.className = "phase-" + p.kind;
    const arrows = p.rows.filter(([index]) => shown[index]).length;
    const what = p.move ? " · " + (p.move.san || p.move.uci) : p.refused ? " · refused" : "";
    const cancelled = p.cancelled ? ` · ${p.cancelled} proposal${p.cancelled === 1 ? "" : "s"} sent behind it cancelled` : "";
    const folds = groups.length ? ` (${groups.length} fan-out${groups.length === 1 ? "" : "s"} folded: click to open)` : "";
    title.textContent = `${p.label}${what}${cancelled} · ${arrows} of ${p.rows.length} arrows shown${folds}`;
    title.setAttribute("data-label", p.label);
    if (p.kind === "heal") el("rect", { x: 0, y: top - 8, width, height: height - top, class: "row-band heal" }, svg);
    const nodes = game().nodes || {};
    lanes.forEach((name, i) => {  // a game on nodes: a band under each node's lanes, named at its foot
      const node = nodes[name];
      if (node === undefined || (i > 0 && nodes[lanes[i - 1]] === node)) return;
      let last = i;
      while (last + 1 < lanes.length && nodes[lanes[last + 1]] === node) last++;
      const x1 = x(name) - laneWidth / 2 + 3, x2 = x(lanes[last]) + laneWidth / 2 - 3;
      el("rect", { x: x1, y: 2, width: x2 - x1, height: height - 4, rx: 6, class: "node-band", "data-node": node }, svg);
      el("text", { x: (x1 + x2) / 2, y: height - 6, class: "node-name" }, svg, node);
    });
    for (const name of lanes) {
      el("line", { x1: x(name), y1: top - 10, x2: x(name), y2: height - 6, class: heads.has(name) ? "lifeline group" : "lifeline" }, svg);
    }
    laid.forEach((item) => {
      const { row, place } = item;
      const baseline = (g, cls) => {
        const text = el("text", { x: place.x, y: item.y + 10, "text-anchor": place.anchor, class: cls || "label" }, g);
        text.setAttribute("data-label", place.lines.join(" "));
        place.lines.forEach((line, k) => el("tspan", { x: place.x, y: item.y + 10 + k * LINE }, text, line));
        return text;
      };
      if (row.fold) {
        const g = el("g", { class: "fold-group", role: "button", "data-group": row.fold.id }, svg);
        baseline(g, "label fold");
        g.addEventListener("click", () => { state.expanded.delete(row.fold.id); if (row.fold.members.includes(state.msg - 1)) state.msg = 0; render(); });
        return;
      }
      const ay = item.y + place.lines.length * LINE + 1;
      const { x1, x2 } = item;
      let g;
      if (row.group) {
        const group = row.group;
        const classes = ["arrow", "request", "fan-out"];
        if (selected && group.members.includes(state.msg - 1)) classes.push("current");
        g = el("g", { class: classes.join(" "), "data-group": group.id, "data-kind": group.kind, "data-members": group.members.length,
          "data-reply": "0", "data-index": group.members[0] + 1, role: "button" }, svg);
        for (const offset of [1, 4, 7]) el("line", { x1, y1: ay + offset, x2, y2: ay + offset, "marker-end": offset === 4 ? "url(#head)" : "" }, g);
        el("line", { x1, y1: ay, x2, y2: ay, class: "hit" }, g);
        el("title", {}, g, `${group.from} → ${group.receivers.join(", ")}: ${group.label} (click to draw each)`);
        g.addEventListener("click", () => { state.expanded.add(group.id); render(); });
      } else {
        const e = p.events[row.index], isReply = row.isReply;
        const classes = ["arrow", isReply ? "reply" : "request"];
        if (e.fault) classes.push("fault");
        if (e.reask) classes.push("reask");
        if (e.restart) classes.push("restart");
        if (e.cancelled) classes.push("cancelled");
        if (e.open) classes.push("open");
        if (e.link) classes.push("link", "link-" + e.link);
        if (e.crossed) classes.push("crossing");
        if (p.kind === "heal") classes.push("heal");
        if (selected && selected.id === e.id) classes.push("current");
        g = el("g", { class: classes.join(" "), "data-msg-id": e.id, "data-kind": e.kind,
          "data-reply": isReply ? "1" : "0", "data-index": row.index + 1 }, svg);
        if (marks.has(e.id) && marks.get(e.id) !== "selected") g.setAttribute("data-causal", marks.get(e.id));
        if (x1 === x2) {
          el("path", { d: `M${x1},${ay} h30 v8 h-30`, fill: "none", stroke: "#555" }, g);
        } else {
          el("line", { x1, y1: ay, x2, y2: ay, class: "hit" }, g);
          el("line", { x1, y1: ay, x2, y2: ay, "marker-end": e.link === "dropped" ? "url(#cross)" : "url(#head)" }, g);
        }
        el("title", {}, g, `${item.a} → ${item.b}: ${isReply ? (e.reply_summary || e.reply || "") : e.summary}`);
        g.addEventListener("click", () => select(row.index + 1));
      }
      baseline(g);
    });
    // The lanes' names stay in view while the diagram scrolls (moved with the scroll, over a band).
    const header = el("g", { class: "lane-heads" }, svg);
    el("rect", { x: 0, y: 0, width, height: top - 10, class: "lane-band" }, header);
    lanes.forEach((name, i) => {
      const low = stagger && i % 2 === 1;
      const head = el("text", { x: x(name), y: low ? 30 : 14, class: heads.has(name) ? "lane-head group" : "lane-head", "data-lane": name }, header, headName(name));
      el("title", {}, head, heads.has(name) ? `${heads.get(name)}: ${[...new Set(groups.filter((group) => group.lane === name).flatMap((group) => group.receivers))].join(", ")}`
        : nodes[name] ? `${name} on ${nodes[name]}` : name);
      if (low) el("line", { x1: x(name), y1: 18, x2: x(name), y2: 21, class: "lifeline" }, header);
    });
    stickHeads();
    const defs = el("defs", {}, svg);
    const marker = el("marker", { id: "head", markerWidth: 8, markerHeight: 8, refX: 7, refY: 4, orient: "auto", markerUnits: "userSpaceOnUse" }, defs);
    el("path", { d: "M0,0 L8,4 L0,8 z", fill: "#555" }, marker);
    // A message lost on its link: its arrow ends in a cross.
    const cross = el("marker", { id: "cross", markerWidth: 10, markerHeight: 10, refX: 5, refY: 5, orient: "auto", markerUnits: "userSpaceOnUse" }, defs);
    el("path", { d: "M0,0 L10,10 M0,10 L10,0", stroke: "#c62828", "stroke-width": 2, fill: "none" }, cross);
    const chosen = svg.querySelector(".arrow.current");
    if (chosen && chosen.scrollIntoView) chosen.scrollIntoView({ block: "nearest" });
  }
  function stickHeads() {
    const header = $("diagram").querySelector(".lane-heads");
    if (header) header.setAttribute("transform", `translate(0, ${$("diagram-scroll").scrollTop})`);
  }
  $("diagram-scroll").addEventListener("scroll", stickHeads);
  const LINK_MARKS = { dropped: "✗ ", duplicated: "×2 ", delayed: "⏱ ", retried: "↻ " };
  const FIRST_LANES = ["client", "supervisor", "referee", "board"];
  function nodeRank(name) {  // a game on nodes: the driver's lanes, then node-1's, node-2's, ...
    const node = (game().nodes || {})[name];
    return node === undefined || node === "driver" ? 0 : 1 + (parseInt(node.replace(/\D+/g, ""), 10) || 0);
  }
  function laneRank(name) {
    const index = FIRST_LANES.indexOf(name);
    return index >= 0 ? index : FIRST_LANES.length + game().actors.indexOf(name);
  }

  // --- details, statistics and the chart -----------------------------------------------
  const micros = (ns) => (ns / 1000).toFixed(1) + " µs";
  function drawDetails() {
    const e = current();
    const set = (id, text) => { $(id).textContent = text; };
    if (!e) {
      set("detail-summary", "Pick a message (click an arrow, or step with ← →)");
      for (const id of ["detail-route", "detail-timing", "detail-payload", "detail-reply", "detail-reply-payload", "detail-causes"]) set(id, "");
      return;
    }
    set("detail-summary", `#${e.id} ${e.summary}`);
    set("detail-route", `${e.from} → ${e.to} (${e.open ? "delivered, its reply awaited" : e.replied === null ? "tell" : "ask"})`);
    const waited = micros(e.handled - e.sent);
    set("detail-timing", e.replied === null ? `queued ${waited}` : `queued ${waited}, handled in ${micros(e.replied - e.handled)}`);
    set("detail-payload", JSON.stringify(e.payload, null, 1));
    set("detail-reply", e.open ? "— (not yet: its receiver is still handling it)"
      : e.reply === null ? "— (a tell has no reply)" : e.reply_summary || e.reply);
    set("detail-reply-payload", e.reply_payload ? JSON.stringify(e.reply_payload, null, 1) : "");
    const marks = causal(e);
    const causes = [...marks].filter(([, mark]) => mark === "cause").map(([id]) => "#" + id);
    const effects = [...marks].filter(([, mark]) => mark === "effect").length;
    set("detail-causes", `${causes.length ? "caused by " + causes.join(" ← ") : "a root request"}; caused ${effects} message${effects === 1 ? "" : "s"}`);
  }
  function drawStats() {
    const p = phase();
    const counts = new Map();
    for (const e of p.events) counts.set(e.kind, (counts.get(e.kind) || 0) + 1);
    const trips = p.events.filter((e) => e.replied !== null).length;
    const box = $("ply-stats");
    box.textContent = "";
    const head = document.createElement("h2");
    head.textContent = `${p.label}: ${p.events.length} messages, ${trips} round trips, ${micros(p.span)}`;
    const table = document.createElement("table");
    table.id = "kind-counts";
    for (const [kind, n] of [...counts].sort((a, b) => b[1] - a[1])) {
      const row = table.insertRow();
      row.insertCell().textContent = kind;
      const cell = row.insertCell(); cell.textContent = n; cell.className = "n"; cell.setAttribute("data-count-kind", kind);
    }
    box.append(head, table);
    const chart = $("chart");
    chart.textContent = "";
    const phases = game().phases;
    const most = Math.max(...phases.map((q) => q.events.length));
    const width = 300, height = 90, bar = width / phases.length;
    chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
    chart.setAttribute("preserveAspectRatio", "none");
    phases.forEach((q, i) => {
      const h = Math.max(1, (q.events.length / most) * (height - 4));
      const classes = ["phase-" + q.kind];
      if (q.events.some((e) => e.fault)) classes.push("has-fault");
      if (i === state.phase) classes.push("current");
      const r = el("rect", { x: i * bar, y: height - h, width: Math.max(0.5, bar - 0.5), height: h, class: classes.join(" "), "data-phase": i }, chart);
      el("title", {}, r, `${q.label}: ${q.events.length} messages`);
      r.addEventListener("click", () => go(i, 0));
    });
  }

  // --- navigation ----------------------------------------------------------------------
  function globalIndex() {
    let n = 0;
    for (let i = 0; i < state.phase; i++) n += game().phases[i].events.length;
    return n + state.msg;
  }
  function go(phaseIndex, msg) {
    const phases = game().phases;
    state.phase = Math.max(0, Math.min(phases.length - 1, phaseIndex));
    state.msg = Math.max(0, Math.min(phases[state.phase].events.length, msg));
    render();
  }
  function select(msg) { go(state.phase, msg); }
  function stepMessage(delta) {
    let p = state.phase, m = state.msg;
    const phases = game().phases;
    for (;;) {
      m += delta;
      if (m > phases[p].events.length) { if (p + 1 >= phases.length) return; p += 1; m = 1; }
      if (m < 1) { if (p === 0) { go(0, 0); return; } p -= 1; m = phases[p].events.length; }
      if (m >= 1 && visible(phases[p].events[m - 1])) break;
    }
    go(p, m);
  }
  function stepPhase(delta) { go(state.phase + delta, 0); }
  function fromSlider(value) {
    let rest = Number(value);
    const phases = game().phases;
    for (let i = 0; i < phases.length; i++) {
      if (rest <= phases[i].events.length) { go(i, rest); return; }
      rest -= phases[i].events.length;
    }
  }
  // A page in a notebook lives in a srcdoc frame: it has no address of its own to keep the place in
  // (and the browser refuses to change one), so only the deep link says where it is.
  const addressable = location.protocol !== "about:";
  function hash() {
    const p = phase();
    // A refusal shares its ply's number with the move played after it: it is named by its place (in
    // the whole game: a live page that joined late may not have the earliest phases yet).
    const where = p.kind === "ply" && p.ply !== null && !p.refused ? `ply=${p.ply}` : `phase=${live.base + state.phase + 1}`;
    return `#game=${game().number}&${where}&msg=${state.msg}`;
  }
  function readHash(fallback) {
    const params = new URLSearchParams((typeof fallback === "string" ? fallback : location.hash).slice(1));
    if (params.has("game")) {
      const index = data.games.findIndex((g) => String(g.number) === params.get("game"));
      if (index >= 0 && index !== state.game) { state.game = index; buildFilters(); fillPicker(); }
    }
    const phases = game().phases;
    let target = state.phase;
    if (params.has("ply")) {
      const ply = Number(params.get("ply"));
      let index = phases.findIndex((q) => q.label === `ply ${ply}` && !q.refused);
      if (index < 0) index = phases.findIndex((q) => q.label === `ply ${ply}`);
      if (index < 0) index = phases.findIndex((q) => q.ply === ply && q.kind !== "startup");
      if (index >= 0) target = index;
    } else if (params.has("phase")) target = Number(params.get("phase")) - 1 - live.base;
    go(target, params.has("msg") ? Number(params.get("msg")) : 0);
  }
  function fillPicker() {
    const picker = $("game-picker");
    picker.textContent = "";
    data.games.forEach((g, i) => {
      const option = document.createElement("option");
      option.value = String(i);
      const plies = g.phases.filter((q) => q.kind === "ply" && !q.refused).length;
      const refused = g.phases.some((q) => q.refused) ? ", then a refused move" : "";
      option.textContent = `game ${g.number} (${plies} plies${refused})`;
      picker.appendChild(option);
    });
    picker.value = String(state.game);
    $("game-picker-label").style.display = data.games.length > 1 ? "" : "none";
  }

  function render() {
    // The live page prompts for a move until something other than the start-up has happened.
    $("prompt").hidden = !data.live || (data.games.length > 0 && game().phases.some((q) => q.kind !== "startup"));
    if (!data.games.length) { $("where").textContent = "waiting for the game…"; return; }
    drawBoard(); drawDiagram(); drawDetails(); drawStats(); searchStatus();
    const total = game().phases.reduce((n, q) => n + q.events.length, 0);
    const slider = $("slider");
    slider.max = String(total); slider.value = String(globalIndex());
    const p = phase();
    $("where").textContent = `${p.label} · message ${state.msg} of ${p.events.length} · ${globalIndex()} of ${total} in game ${game().number}`;
    const link = hash();
    $("deep-link").setAttribute("href", link);
    if (addressable && location.hash !== link) history.replaceState(null, "", link);
    document.body.setAttribute("data-phase", String(state.phase));
    document.body.setAttribute("data-msg", String(state.msg));
  }

  $("title").textContent = data.title;
  $("prev-ply").addEventListener("click", () => stepPhase(-1));
  $("next-ply").addEventListener("click", () => stepPhase(1));
  $("prev-msg").addEventListener("click", () => stepMessage(-1));
  $("next-msg").addEventListener("click", () => stepMessage(1));
  $("slider").addEventListener("input", (event) => fromSlider(event.target.value));
  $("search").addEventListener("input", (event) => {
    state.search = event.target.value.trim().toLowerCase();
    // Nothing found in the phase on screen: go to the first place that has it, wherever it is.
    if (state.search && !phase().events.some(visible)) jumpToMatch(1); else render();
  });
  $("search").addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); jumpToMatch(event.shiftKey ? -1 : 1); }
  });
  $("next-match").addEventListener("click", () => jumpToMatch(1));
  $("game-picker").addEventListener("change", (event) => {
    state.game = Number(event.target.value); state.hiddenActors.clear(); state.hiddenKinds.clear();
    buildFilters(); firstPlace();
  });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range" && event.target.type !== "checkbox") return;
    const moves = { ArrowRight: () => stepMessage(1), ArrowLeft: () => stepMessage(-1),
      ArrowDown: () => stepPhase(1), ArrowUp: () => stepPhase(-1), PageDown: () => stepPhase(1), PageUp: () => stepPhase(-1) };
    if (moves[event.key]) { event.preventDefault(); moves[event.key](); }
  });
  window.addEventListener("hashchange", readHash);
  // Where a page opens with no place named: the first ply (the start-up stays one line above it).
  function firstPlace() {
    const index = game().phases.findIndex((q) => q.kind !== "startup");
    go(index >= 0 ? index : 0, 0);
  }
  if (data.games.length) {
    fillPicker();
    buildFilters();
    if (location.hash.length > 1) readHash();
    else if (data.opening) readHash("#" + data.opening);
    else firstPlace();
  } else render();
  // --- the live studio: a WebSocket to the server this page came from ---------------------
  function send(command) {
    if (!live.socket || live.socket.readyState !== WebSocket.OPEN) { log("not connected to the studio", "error"); return; }
    live.socket.send(command);
  }
  function log(text, kind) {
    const box = $("live-log");
    const line = document.createElement("div");
    line.textContent = text;
    if (kind) line.className = kind;
    box.appendChild(line);
    while (box.childNodes.length > 300) box.removeChild(box.firstChild);
    box.scrollTop = box.scrollHeight;
  }
  function status(text, kind) {
    const box = $("live-status");
    box.textContent = text;
    box.className = kind || "";
  }
  // A click on a piece picks it up, a click on another square plays the move (a pawn reaching the
  // last rank becomes a queen; type the move to choose another piece); the referee judges it.
  function pick(square, placement) {
    const index = (Number(square[1]) - 1) * 8 + "abcdefgh".indexOf(square[0]);
    if (live.from === null) {
      if (placement[index]) live.from = square;
    } else if (live.from === square) {
      live.from = null;
    } else {
      const from = live.from, moving = placement[(Number(from[1]) - 1) * 8 + "abcdefgh".indexOf(from[0])];
      const promotes = (moving === "P" && square[1] === "8") || (moving === "p" && square[1] === "1");
      live.from = null;
      send(from + square + (promotes ? "q" : ""));
    }
    drawBoard();
  }
  function describe(m) {
    if (m.type === "error") return [`${m.command}: ${m.error}`, "error"];
    if ("accepted" in m) {
      if (m.accepted) return [`ply ${m.ply}: ${m.san} accepted${m.outcome ? ", " + m.outcome : ""}`, "verdict"];
      return [`ply ${m.ply}: ${m.move} refused (${m.kind}): ${m.reason}`, "verdict error"];
    }
    if ("ok" in m) return [`${m.ok ? "✓" : "✗"} ${m.step}: ${m.got}`, m.ok ? "" : "error"];
    if ("targets" in m) return [`legal from ${m.square}: ${m.targets.join(" ") || "none"}`, ""];
    if ("fen" in m) return [`FEN ${m.fen}`, ""];
    if ("compare" in m) return [compareHeading(m.compare), ""];
    return [m.text, /supervisor/.test(m.text) ? "heal" : ""];
  }
  function fillSelect(select, options) {
    const chosen = select.value;
    select.textContent = "";
    for (const option of options) {
      const item = document.createElement("option");
      item.value = item.textContent = option;
      select.appendChild(item);
    }
    if (options.includes(chosen)) select.value = chosen;
  }
  // --- two delivery orders of one ply side by side, the first delivery where they part marked ---
  function compareHeading(c) {
    return c.first === null ? `${c.title}: the same ${c.left.rows.length} deliveries in the same order`
      : `${c.title}: the orders part at delivery ${c.first + 1}`;
  }
  function drawCompare(c) {
    $("compare").hidden = false;
    // Above the diagram, where it is seen; the page scrolls to it if the window was scrolled away.
    requestAnimationFrame(() => $("compare").scrollIntoView({ block: "nearest" }));
    $("compare-title").textContent = compareHeading(c);
    for (const side of ["left", "right"]) {
      $(`compare-${side}-label`).textContent = c[side].label;
      const list = $(`compare-${side}`);
      list.textContent = "";
      c[side].rows.forEach((text, index) => {
        const row = document.createElement("li");
        row.textContent = text;
        if (c.first !== null && index === c.first) row.className = "first-difference";
        else if (c.first !== null && index > c.first) row.className = "after";
        list.appendChild(row);
      });
    }
  }
  function drawPending() {
    $("pending-title").textContent = live.stepping
      ? (live.pending.length ? "Waiting to be delivered: choose one" : "Step mode: the next move waits for you")
      : "Deliveries run in arrival order (auto)";
    const list = $("pending-list");
    list.textContent = "";
    for (const item of live.pending) {
      const row = document.createElement("li");
      row.title = item.text;
      if (item.number === null) {
        row.className = "queued";
        // Behind a mailbox's head or a stalled actor; or on its way, sent again after a loss.
        const travelling = item.waits.includes("on its way");
        if (travelling) row.classList.add("travelling");
        row.textContent = `– ${item.actor} ← ${item.sender}: ${item.summary} (${travelling ? "on its way: sent again" : "waits its turn"})`;
      } else {
        // One button a verb the shell takes for a waiting delivery (deliver N, and any the game adds).
        for (const verb of live.verbs) {
          const button = document.createElement("button");
          button.type = "button";
          button.textContent = `${verb} ${item.number}`;
          button.setAttribute(`data-${verb}`, String(item.number));
          button.addEventListener("click", () => send(`${verb} ${item.number}`));
          row.append(button);
        }
        row.append(`${item.actor} ← ${item.sender}: ${item.summary}`);
      }
      list.appendChild(row);
    }
    $("mode-step").setAttribute("aria-pressed", String(live.stepping));
    $("mode-auto").setAttribute("aria-pressed", String(!live.stepping));
    $("step-one").disabled = $("run-rest").disabled = !live.inFlight;
  }
  function onState(message) {
    live.stepping = message.stepping; live.inFlight = message.in_flight; live.pending = message.pending;
    live.verbs = message.delivery_verbs;
    fillSelect($("actor-pick"), message.actors);
    fillSelect($("teach-geometries"), message.geometries);
    if (message.model) {
      // A page at the newest phase follows the game; one looking back stays where it is.
      const following = !data.games.length || game().phases.slice(state.phase + 1).every(
        (q) => q.kind === "heal" || q.kind === "other");
      const [fresh] = message.model.games;
      const from = message.model.from;
      if (data.games.length && !message.model.reset && from >= live.base) {  // the phases before "from" are unchanged
        const [kept] = data.games;
        kept.phases.splice(from - live.base, Infinity, ...fresh.phases);
        kept.actors = fresh.actors; kept.kinds = fresh.kinds;
      } else { data.games = message.model.games; live.base = from; }
      state.game = 0;
      fillPicker(); buildFilters();
      if (following) {
        // The newest ply or step, where the command's own messages are (a heal it caused is the
        // green bar beside it in the chart).
        const phases = game().phases;
        let last = phases.length - 1;
        while (last > 0 && (phases[last].kind === "heal" || phases[last].kind === "other")) last -= 1;
        // Nothing played yet: the start-up folded to one line, under the prompt to play.
        if (phases[last].kind === "startup" && last === 0) go(0, 0);
        else go(last, phases[last].events.length);
      }
      else go(state.phase, state.msg);
    }
    drawPending();
    askEarlier();
    document.body.setAttribute("data-plies", String(message.plies));
    document.body.setAttribute("data-restarts", String(message.restarts));
  }
  // A page that joined late has the newest phases (from live.base on): it asks for the earlier ones,
  // a page at a time, and puts each before what it has, staying where it is.
  function askEarlier() {
    document.body.setAttribute("data-base", String(live.base));
    if (live.base > 0 && !live.asking && live.socket && live.socket.readyState === WebSocket.OPEN) {
      live.asking = true;
      live.socket.send(JSON.stringify({ want: "phases", before: live.base }));
    }
  }
  function onEarlier(message) {
    live.asking = false;
    if (data.games.length && message.to === live.base && message.phases.length) {
      data.games[0].phases.unshift(...message.phases);
      live.base = message.from;
      go(state.phase + message.phases.length, state.msg);
    }
    askEarlier();
  }
  function connect() {
    const socket = new WebSocket(`ws://${location.host}/ws${location.search}`);
    live.socket = socket;
    socket.addEventListener("open", () => status("connected: the actors are live", "connected"));
    socket.addEventListener("close", () => status("disconnected: the studio has stopped (start it again and reload)", "lost"));
    socket.addEventListener("message", (incoming) => {
      const message = JSON.parse(incoming.data);
      if (message.type === "event") {
        live.events += 1;
        status(`connected: ${live.events} messages delivered while watching · last ${message.event.summary || message.event.kind}`, "connected");
      } else if (message.type === "state") onState(message);
      else if (message.type === "phases") onEarlier(message);
      else if (message.type === "shown" || message.type === "error") {
        if (message.compare) drawCompare(message.compare);
        const [text, kind] = describe(message);
        if (!/^\s*(\d+\.|-) /.test(text)) log(text, kind);  // the waiting list is drawn apart
      }
      else if (message.type === "done") document.body.setAttribute("data-done", String(message.seq));
    });
  }
  if (data.compare) drawCompare(data.compare);
  $("compare-close").addEventListener("click", () => { $("compare").hidden = true; });
  if (data.live) {
    $("live").hidden = false;
    $("command").focus();
    $("command-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const command = $("command").value.trim();
      if (command) { send(command); $("command").value = ""; }
    });
    const buttons = { "mode-step": () => "mode step", "mode-auto": () => "mode auto", "step-one": () => "step",
      "run-rest": () => "run", "compare-orders": () => "compare", crash: () => `crash ${$("actor-pick").value}`, stall: () => `stall ${$("actor-pick").value}`,
      teach: () => `learn ${$("teach-square").value.trim()} ${$("teach-geometry").value.trim()}`,
      lie: () => `lie ${$("lie-clauses").value.trim()}`, truth: () => "lie off" };
    for (const [id, command] of Object.entries(buttons)) $(id).addEventListener("click", () => send(command()));
    connect();
  }

  window.studio = { state, data, go, renderMs: performance.now() - started, firstRenderAt: performance.now() };
  document.body.setAttribute("data-ready", "1");
})();
