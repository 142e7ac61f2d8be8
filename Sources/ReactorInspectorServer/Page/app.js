"use strict";
// Reactor inspector page. Every piece of trace data reaches the page as
// text (textContent) or an attribute value; no markup is built from data.
(function () {
  const $ = (id) => document.getElementById(id);
  const smallTrace = 500000;
  const state = { update: null, focus: null, graphVersion: -1, graphAt: 0, graphBusy: false, graphKeys: new Map(),
                  eventsBusy: false, eventsAt: 0, eventsVersion: -1, moment: null, lastVersion: -1, receivedAt: 0,
                  names: [], selected: null, hotHeld: false };

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function count(n) { return Number(n).toLocaleString("en-US"); }
  // A duration as every view writes it (DurationText.format): three significant digits.
  function duration(ns) {
    ns = Number(ns);
    // Scaled and rounded half up in the same steps as DurationText, not toFixed's decimal rounding.
    const fixed = (v) => {
      const decimals = v < 10 ? 2 : v < 100 ? 1 : 0;
      let scaled = v;
      for (let i = 0; i < decimals; i++) scaled *= 10;
      const rounded = Math.round(scaled);
      if (decimals === 0) return String(rounded);
      const divisor = decimals === 2 ? 100 : 10;
      return Math.floor(rounded / divisor) + "." + String(rounded % divisor).padStart(decimals, "0");
    };
    if (ns >= 1e9) return fixed(ns / 1e9) + " s";
    if (ns >= 1e6) return fixed(ns / 1e6) + " ms";
    if (ns >= 1e3) return fixed(ns / 1e3) + " µs";
    return ns.toFixed(0) + " ns";
  }
  // A trace time as every view writes it (DurationText.formatTime): milliseconds to the microsecond.
  function traceTime(ns) {
    const micros = Math.floor(Number(ns) / 1e3);
    return Math.floor(micros / 1e3) + "." + String(micros % 1e3).padStart(3, "0") + " ms";
  }
  function rate(n) {
    n = Number(n);
    if (n >= 1e6) return (n / 1e6).toFixed(2) + "M";
    if (n >= 1e3) return (n / 1e3).toFixed(1) + "k";
    return n.toFixed(n >= 10 ? 0 : 1);
  }
  async function getJSON(url) {
    const response = await fetch(url, { cache: "no-store" });
    const body = await response.json();
    if (!response.ok) throw new Error(body && body.error ? body.error : response.statusText);
    return body;
  }
  // A question that reads the trace (why, a state, the events): while it is
  // read, `place` shows its progress (/api/progress: events read of the
  // trace's) and a Cancel button, which aborts the request; the server then
  // stops the pass. A new question for the same place supersedes the old one
  // (its error has `superseded` set: the caller shows nothing for it).
  const asking = new Map();
  async function ask(url, kind, subject, place) {
    const previous = asking.get(place.id);
    if (previous) { previous.superseded = true; previous.abort(); }
    const controller = new AbortController();
    asking.set(place.id, controller);
    clear(place);
    const line = element("span", "reading the trace…", "progress");
    const cancel = element("button", "Cancel", "cancel");
    cancel.type = "button";
    cancel.addEventListener("click", () => controller.abort());
    place.appendChild(line);
    place.appendChild(document.createTextNode(" "));
    place.appendChild(cancel);
    const timer = setInterval(async () => {
      try {
        const progress = await getJSON("/api/progress");
        const pass = progress.passes.find((p) => p.kind === kind && p.subject === subject);
        if (!pass || controller.signal.aborted) return;
        line.textContent = pass.started
          ? "reading the trace… " + count(pass.eventsRead) + " of " + count(pass.events) + " events"
          : "waiting for another question of this kind…";
      } catch (error) {
        // The question's own request reports what went wrong.
      }
    }, 300);
    try {
      const response = await fetch(url, { cache: "no-store", signal: controller.signal });
      const body = await response.json();
      if (!response.ok) throw new Error(body && body.error ? body.error : response.statusText);
      return body;
    } catch (error) {
      if (controller.superseded) { const superseded = new Error("superseded"); superseded.superseded = true; throw superseded; }
      if (error && error.name === "AbortError") throw new Error("cancelled");
      throw error;
    } finally {
      clearInterval(timer);
      if (asking.get(place.id) === controller) asking.delete(place.id);
      if (cancel.parentNode === place) { place.removeChild(cancel); }
    }
  }

  function setStatus(label, detail) {
    const pill = $("status");
    pill.textContent = label;
    pill.className = "pill " + label;
    $("status-detail").textContent = detail || "";
  }

  // Figures, hot table and actions: from each pushed update.
  function render(update) {
    const s = update.snapshot;
    state.update = update;
    state.receivedAt = Date.now();
    if (!s) { setStatus("waiting", ""); return; }
    $("trace").textContent = s.path;
    setStatus(s.status, s.statusDetail);
    $("fig-events").textContent = count(s.events);
    $("fig-rate").textContent = rate(s.eventsPerSecond);
    $("fig-nodes").textContent = count(s.nodes);
    $("fig-edges").textContent = count(s.liveEdges);
    $("fig-computations").textContent = count(s.computations);
    $("fig-actions").textContent = count(update.actionsBegun);
    $("fig-issues").textContent = count(s.issueCount);
    $("fig-duration").textContent = duration(s.durationNanoseconds);
    renderHot(s.hot);
    renderActions(s.actions);
    if (update.graphVersion !== state.graphVersion) loadGraph(false);
    else if (s.status === "recording" && Date.now() - state.graphAt > 3000) loadGraph(false);
    if ($("events-follow").checked && update.version !== state.eventsVersion && Date.now() - state.eventsAt > 2000) loadEvents(true);
    // The whole trace's timeline follows a recording; a zoomed one stays where the user put it.
    if (!timeline.data || (timeline.whole && s.status === "recording" && Date.now() - timeline.at > 3000)) loadTimeline();
  }

  // The hot table: rates while the trace is recorded, totals once it is
  // finished; ties broken by name, and held still while the pointer is on it.
  function renderHot(rows) {
    if (state.hotHeld) return;
    const live = state.update && state.update.snapshot && state.update.snapshot.status === "recording";
    const head = $("hot").tHead.rows[0].cells;
    head[1].textContent = live ? "reruns/s" : "kind";
    head[2].textContent = live ? "time/s" : "total time";
    $("hot-caption").textContent = live ? "last interval · all" : "whole trace";
    const sorted = rows.slice().sort(live
      ? (a, b) => b.rerunsPerSecond - a.rerunsPerSecond || b.reruns - a.reruns || compareNames(a, b)
      : (a, b) => b.reruns - a.reruns || b.totalNanoseconds - a.totalNanoseconds || compareNames(a, b));
    const body = $("hot").tBodies[0];
    clear(body);
    for (const row of sorted) {
      const tr = element("tr");
      tr.setAttribute("data-name", row.name);
      if (row.name === state.focus || row.name === state.selected) tr.className = "selected";
      tr.appendChild(element("td", row.name + (row.instances > 1 ? " ×" + row.instances : ""), "name"));
      if (live) {
        tr.appendChild(element("td", rate(row.rerunsPerSecond), "number"));
        tr.appendChild(element("td", duration(row.nanosecondsPerSecond), "number"));
      } else {
        tr.appendChild(element("td", row.kind, "number"));
        tr.appendChild(element("td", duration(row.totalNanoseconds), "number"));
      }
      tr.appendChild(element("td", duration(row.p99Nanoseconds), "number"));
      tr.appendChild(element("td", count(row.reruns), "number"));
      tr.addEventListener("click", () => focusOn(row.name));
      body.appendChild(tr);
    }
    if (rows.length === 0) {
      const tr = element("tr");
      const td = element("td", "no computation ran yet", "empty");
      td.colSpan = 5;
      tr.appendChild(td);
      body.appendChild(tr);
    }
  }
  function compareNames(a, b) { return a.name < b.name ? -1 : a.name > b.name ? 1 : 0; }

  function renderActions(actions) {
    const list = $("actions");
    clear(list);
    for (const action of actions) {
      const item = element("li");
      if (state.moment === "action:" + action.ordinal) item.className = "selected";
      item.appendChild(element("span", action.ordinal > 0 ? "#" + action.ordinal : "", "ordinal"));
      item.appendChild(element("span", action.name + (action.arguments ? " " + action.arguments : ""), "name"));
      item.appendChild(element("span", "  " + duration(action.durationNanoseconds) + " at " + traceTime(action.atNanoseconds), "detail"));
      if (action.changed.length > 0) {
        const parts = action.changed.map((name, i) => action.values[i] == null ? name : name + " = " + action.values[i]);
        const more = action.changeCount > action.changed.length ? " …" : "";
        item.appendChild(element("span", "changed " + parts.join(", ") + more, "changes"));
      }
      if (action.ordinal > 0) item.addEventListener("click", () => loadState("action:" + action.ordinal));
      list.appendChild(item);
    }
    if (actions.length === 0) list.appendChild(element("li", "no action ended yet", "empty"));
  }

  // The graph: SVG from the server (Graphviz's layout), parsed as XML and
  // stripped of anything active, then navigated by its viewBox. Only the static shapes, text and
  // gradients Graphviz draws are kept: any other element (a script, SMIL animation such as <set> or
  // <animate>, which can rewrite an href or an event attribute, foreign content) goes with all it holds.
  const svgElements = new Set(["svg", "g", "title", "desc", "text", "tspan", "polygon", "polyline", "path", "ellipse",
                               "circle", "line", "rect", "defs", "linearGradient", "radialGradient", "stop", "a"]);
  function sanitize(svg) {
    for (const node of Array.from(svg.querySelectorAll("*"))) {
      if (!svgElements.has(node.localName)) { node.remove(); continue; }
      for (const attribute of Array.from(node.attributes)) {
        const name = attribute.name.toLowerCase();
        const value = attribute.value.trim().toLowerCase();
        if (name.startsWith("on")) node.removeAttribute(attribute.name);
        else if ((name === "href" || name === "xlink:href") && !value.startsWith("#")) node.removeAttribute(attribute.name);
      }
    }
    return svg;
  }

  const view = { svg: null, base: null, box: null, drag: null };

  function setViewBox(box) {
    if (!view.svg) return;
    view.box = box;
    view.svg.setAttribute("viewBox", box.x + " " + box.y + " " + box.w + " " + box.h);
    // Labels are drawn only when they can be read (Graphviz writes them at 14 pt).
    const scale = pixelsPerUnit();
    $("graph").classList.toggle("far", scale > 0 && 14 * scale < 5);
  }
  function pixelsPerUnit() {
    const pane = $("graph");
    if (!view.box) return 0;
    return Math.min(pane.clientWidth / view.box.w, pane.clientHeight / view.box.h);
  }
  function fitGraph() { if (view.base) setViewBox(Object.assign({}, view.base)); }
  // The point of the graph under a point of the screen.
  function graphPoint(clientX, clientY) {
    const matrix = view.svg.getScreenCTM();
    const point = view.svg.createSVGPoint();
    point.x = clientX;
    point.y = clientY;
    return point.matrixTransform(matrix.inverse());
  }
  function zoomGraph(factor, clientX, clientY) {
    if (!view.svg || !view.box) return;
    const base = view.base;
    // From a whole graph four times the pane down to a few nodes' width.
    const w = Math.min(Math.max(view.box.w * factor, Math.min(base.w, 60)), base.w * 4);
    const applied = w / view.box.w;
    const pane = $("graph").getBoundingClientRect();
    const at = graphPoint(clientX === undefined ? pane.left + pane.width / 2 : clientX,
                          clientY === undefined ? pane.top + pane.height / 2 : clientY);
    setViewBox({ x: at.x - (at.x - view.box.x) * applied, y: at.y - (at.y - view.box.y) * applied,
                 w: view.box.w * applied, h: view.box.h * applied });
  }
  // Centres the node group on the pane, zoomed in far enough to read it.
  function centreOn(group) {
    const rect = group.getBoundingClientRect();
    const centre = graphPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    const pane = $("graph");
    let w = view.box.w, h = view.box.h;
    if (14 * pixelsPerUnit() < 10) { w = pane.clientWidth; h = pane.clientHeight; }
    setViewBox({ x: centre.x - w / 2, y: centre.y - h / 2, w: w, h: h });
  }
  function nodeGroup(name) {
    if (!view.svg) return null;
    for (const group of view.svg.querySelectorAll("g.node[data-name]")) {
      if (group.getAttribute("data-name") === name) return group;
    }
    return null;
  }
  // The drawn node a search names: the exact name first (any case), else the first that contains it.
  function findNode(text) {
    const wanted = text.trim().toLowerCase();
    if (!wanted || !view.svg) return null;
    const groups = Array.from(view.svg.querySelectorAll("g.node[data-name]"));
    return groups.find((g) => g.getAttribute("data-name").toLowerCase() === wanted) ||
      groups.find((g) => g.getAttribute("data-name").toLowerCase().includes(wanted)) || null;
  }
  function searchGraph() {
    const text = $("graph-search").value;
    if (!text.trim()) return;
    const group = findNode(text);
    if (!group) {
      // Not drawn (a focused or abridged graph): draw the graph around it.
      const wanted = text.trim().toLowerCase();
      const name = state.names.find((n) => n.toLowerCase() === wanted) || state.names.find((n) => n.toLowerCase().includes(wanted));
      if (name) focusOn(name);
      else $("graph-caption").textContent = "no node named '" + text.trim() + "' in this graph";
      return;
    }
    for (const other of view.svg.querySelectorAll("g.node.found")) other.classList.remove("found");
    group.classList.add("found");
    centreOn(group);
    select(group.getAttribute("data-name"));
  }

  async function loadGraph(force) {
    if (state.graphBusy && !force) return;
    state.graphBusy = true;
    state.graphAt = Date.now();
    const atMoment = $("graph-moment").checked && state.moment ? state.moment : null;
    const url = (state.focus ? "/api/graph?depth=2&focus=" + encodeURIComponent(state.focus)
      : state.layers ? "/api/graph?layers=" + Array.from(state.layers).sort((a, b) => a - b).join(",") : "/api/graph?") +
      (atMoment ? "&at=" + encodeURIComponent(atMoment) : "");
    try {
      const answer = await getJSON(url);
      // A graph too large to draw whole opens as its layers, each one node.
      if (!state.layersDecided && !state.focus) {
        state.layersDecided = true;
        if (answer.totalNodes > answer.nodes.length && !state.layers) {
          state.layers = new Set();
          state.graphBusy = false;
          return loadGraph(true);
        }
      }
      $("graph-layers").textContent = state.layers && !state.focus ? "Hottest" : "Layers";
      if (answer.nodes.length === 0) {
        const box = $("graph");
        clear(box);
        view.svg = null;
        box.appendChild(element("p", "no node recorded yet", "empty"));
        state.graphVersion = answer.graphVersion;
        $("graph-caption").textContent = "";
        return;
      }
      const parsed = new DOMParser().parseFromString(answer.svg, "image/svg+xml");
      const root = parsed.documentElement;
      if (root.nodeName !== "svg") throw new Error("the graph could not be read");
      const svg = document.importNode(sanitize(root), true);
      state.graphKeys = new Map(answer.nodes.map((node) => [node.id, node.name]));
      const layerOf = new Map(answer.nodes.filter((node) => node.layer !== undefined && node.layer !== null)
        .map((node) => [node.id, node.layer]));
      state.graphVersion = answer.graphVersion;
      const box = $("graph");
      const sameGraph = view.svg && view.box && view.focus === state.focus && view.moment === atMoment && !force;
      const kept = sameGraph ? Object.assign({}, view.box) : null;
      clear(box);
      // The pane sizes the picture; the viewBox says which part of the graph it shows.
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
      box.appendChild(svg);
      view.svg = svg;
      view.focus = state.focus;
      view.moment = atMoment;
      const vb = svg.viewBox && svg.viewBox.baseVal;
      view.base = vb && vb.width > 0 ? { x: vb.x, y: vb.y, w: vb.width, h: vb.height } : { x: 0, y: 0, w: 100, h: 100 };
      // A redraw of the same graph keeps the user's zoom and pan; a new one is fitted.
      if (kept) setViewBox(kept); else fitGraph();
      for (const group of svg.querySelectorAll("g.node")) {
        const name = state.graphKeys.get(group.getAttribute("id"));
        if (name === undefined) continue;
        group.setAttribute("data-name", name);
        if (name === state.focus || name === state.selected) group.classList.add("focused");
        const layer = layerOf.get(group.getAttribute("id"));
        if (layer !== undefined) {
          // A layer opens into its nodes.
          group.setAttribute("data-layer", String(layer));
          group.addEventListener("click", (event) => {
            if (!view.moved) { state.layers.add(layer); loadGraph(true); }
            event.stopPropagation();
          });
          continue;
        }
        group.addEventListener("click", (event) => { if (!view.moved) focusOn(name); event.stopPropagation(); });
      }
      // Every node can be searched for, drawn or not.
      if (answer.names.length !== state.names.length) {
        const names = $("graph-names");
        clear(names);
        for (const name of answer.names.slice(0, 5000)) { const option = element("option"); option.value = name; names.appendChild(option); }
      }
      state.names = answer.names;
      $("graph-caption").textContent = (atMoment ? "at " + atMoment + " · " : "") +
        (state.focus ? "around " + state.focus + " · " : "") + count(answer.nodes.length) +
        (answer.nodes.length === 1 ? " node" : " nodes") + " drawn" + (answer.notice ? " · " + answer.notice : "");
      // A focused graph keeps its node in the middle of the pane.
      if (state.focus && !kept) { const group = nodeGroup(state.focus); if (group) centreOn(group); }
      // When the graph was first drawn, for the page's tests and measurements.
      if (!box.hasAttribute("data-drawn-at")) box.setAttribute("data-drawn-at", String(Math.round(performance.now())));
    } catch (error) {
      const box = $("graph");
      clear(box);
      view.svg = null;
      box.appendChild(element("p", String(error.message || error), "empty error"));
    } finally {
      state.graphBusy = false;
    }
  }

  function wireGraph() {
    const pane = $("graph");
    pane.addEventListener("wheel", (event) => {
      if (!view.svg) return;
      event.preventDefault();
      zoomGraph(Math.exp(event.deltaY * 0.0015), event.clientX, event.clientY);
    }, { passive: false });
    pane.addEventListener("pointerdown", (event) => {
      if (!view.svg || event.button !== 0) return;
      view.drag = { x: event.clientX, y: event.clientY, box: Object.assign({}, view.box), scale: pixelsPerUnit() };
      view.moved = false;
    });
    window.addEventListener("pointermove", (event) => {
      const drag = view.drag;
      if (!drag || !drag.scale) return;
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (!view.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      view.moved = true;
      pane.classList.add("panning");
      setViewBox({ x: drag.box.x - dx / drag.scale, y: drag.box.y - dy / drag.scale, w: drag.box.w, h: drag.box.h });
    });
    window.addEventListener("pointerup", () => {
      view.drag = null;
      pane.classList.remove("panning");
      // The click that ends a drag is not a click on a node.
      setTimeout(() => { view.moved = false; }, 0);
    });
    pane.addEventListener("dblclick", () => fitGraph());
    $("graph-fit").addEventListener("click", () => fitGraph());
    $("graph-zoom-in").addEventListener("click", () => zoomGraph(1 / 1.5));
    $("graph-zoom-out").addEventListener("click", () => zoomGraph(1.5));
    $("graph-find").addEventListener("submit", (event) => { event.preventDefault(); searchGraph(); });
    $("graph-moment").addEventListener("change", () => loadGraph(true));
    $("graph-layers").addEventListener("click", () => {
      state.layersDecided = true;
      state.focus = null;
      state.layers = state.layers ? null : new Set();
      loadGraph(true);
    });
    $("graph-search").addEventListener("change", () => searchGraph());
  }

  function focusOn(name) {
    state.focus = name;
    state.selected = name;
    loadGraph(true);
    loadWhy(name);
    if (state.update) renderHot(state.update.snapshot ? state.update.snapshot.hot : []);
  }
  // Selects a node without redrawing the graph: highlighted, explained.
  function select(name) {
    state.selected = name;
    if (view.svg) {
      for (const group of view.svg.querySelectorAll("g.node[data-name]")) {
        group.classList.toggle("focused", group.getAttribute("data-name") === name);
      }
    }
    loadWhy(name);
    if (state.update) renderHot(state.update.snapshot ? state.update.snapshot.hot : []);
  }

  // Why: `why NAME --json`.
  async function loadWhy(name) {
    $("why-target").textContent = name;
    const box = $("why");
    clear(box);
    try {
      const report = await ask("/api/why?limit=10&node=" + encodeURIComponent(name), "why", name, box);
      if ($("why-target").textContent !== name) return;
      clear(box);
      renderWhy(box, report);
    } catch (error) {
      if (error.superseded) return;
      clear(box);
      box.appendChild(element("p", String(error.message || error), "empty error"));
    }
  }

  function renderWhy(box, report) {
    box.appendChild(element("p", (report.kind ? report.kind + " · " : "") + plural(report.runs, "run") + ", " +
      plural(report.reruns, "rerun") + (report.site ? " · created at " + report.site : ""), "detail"));
    for (const pattern of report.patterns.slice(0, 8)) {
      const step = element("div", null, "why-step");
      step.appendChild(element("span", count(pattern.count) + "× ", "count"));
      // Each link of the chain stays whole; lines break between links.
      const chain = element("span", null, "chain");
      pattern.chain.forEach((link, i) => {
        if (i > 0) chain.appendChild(document.createTextNode(" → "));
        chain.appendChild(element("span", link, "link"));
      });
      step.appendChild(chain);
      box.appendChild(step);
    }
    if (report.patterns.length === 0) box.appendChild(element("p", "no rerun recorded yet", "empty"));
    for (const issue of report.issues.slice(0, 3)) box.appendChild(element("p", issue.kind + ": " + issue.message, "error"));
  }
  function plural(n, word) { return count(n) + " " + word + (Number(n) === 1 ? "" : "s"); }

  // State at a moment: `state --at MOMENT --json`, beside the state after
  // the action before it, so what the action (or the time since) changed is marked.
  async function loadState(moment) {
    state.moment = moment;
    $("state-at").value = moment;
    const body = $("state").tBodies[0];
    const match = /^action:(\d+)$/.exec(moment);
    const previousMoment = match ? (Number(match[1]) > 1 ? "action:" + (Number(match[1]) - 1) : null) : previousAction(moment);
    try {
      const [answer, before] = await Promise.all([
        ask("/api/state?at=" + encodeURIComponent(moment), "state", moment, $("state-moment")),
        previousMoment ? getJSON("/api/state?at=" + encodeURIComponent(previousMoment)).catch(() => null) : Promise.resolve(null),
      ]);
      if (state.moment !== moment) return;
      $("graph-moment").disabled = false;
      if ($("graph-moment").checked) loadGraph(true);
      clear(body);
      const earlier = new Map(before ? before.entries.map((entry) => [entry.id, entry]) : []);
      let changed = 0;
      for (const entry of answer.entries) {
        const old = earlier.get(entry.id);
        earlier.delete(entry.id);
        // New since the previous action, or holding another value.
        const isChanged = before !== null && (old === undefined || (old.value !== entry.value));
        if (isChanged) changed += 1;
        const tr = element("tr");
        tr.setAttribute("data-name", entry.name);
        if (isChanged) tr.className = "changed";
        tr.appendChild(element("td", entry.name, "name"));
        tr.appendChild(element("td", entry.kind));
        const cell = element("td", null, "value-cell");
        if (isChanged && old !== undefined && old.value != null) {
          cell.appendChild(element("span", old.value, "before"));
          cell.appendChild(element("span", " → ", "arrow"));
        }
        cell.appendChild(element("span", entry.value == null ? "—" : entry.value, "after"));
        tr.appendChild(cell);
        const deps = element("td", null, "deps");
        if (entry.pendingRerun) deps.appendChild(element("span", "stale, rerun pending", "stale"));
        else if (entry.dependencies) deps.textContent = entry.dependencies.length ? entry.dependencies.join(", ") : "nothing";
        tr.appendChild(deps);
        body.appendChild(tr);
      }
      // Nodes the previous moment had and this one does not: stopped since.
      for (const old of earlier.values()) {
        const tr = element("tr");
        tr.className = "changed removed";
        tr.setAttribute("data-name", old.name);
        tr.appendChild(element("td", old.name, "name"));
        tr.appendChild(element("td", old.kind));
        tr.appendChild(element("td", "stopped", "value-cell"));
        tr.appendChild(element("td", ""));
        body.appendChild(tr);
        changed += 1;
      }
      $("state-moment").textContent = (answer.moment.startsWith("action:") ? "after " + answer.moment +
        (answer.action ? " · " + answer.action : "") + " at " : "at ") + traceTime(answer.timestampNanoseconds) +
        (before ? " · " + plural(changed, "change") + " since " + previousMoment : "") +
        (answer.hasValues ? "" : " · values not recorded");
    } catch (error) {
      if (error.superseded) return;
      clear(body);
      $("state-moment").textContent = String(error.message || error);
    }
    if (state.update && state.update.snapshot) renderActions(state.update.snapshot.actions);
  }
  // For a time: the last action shown that ended before it.
  function previousAction(moment) {
    const time = parseTime(moment);
    if (time === null || !state.update || !state.update.snapshot) return null;
    let best = null;
    for (const action of state.update.snapshot.actions) {
      const end = Number(action.atNanoseconds) + Number(action.durationNanoseconds);
      if (action.ordinal > 0 && end <= time && (!best || action.ordinal > best)) best = action.ordinal;
    }
    return best ? "action:" + best : null;
  }
  function parseTime(text) {
    const match = /^\s*([0-9.]+)\s*(ns|us|µs|ms|s)?\s*$/i.exec(text);
    if (!match) return null;
    const scale = { ns: 1, us: 1e3, "µs": 1e3, ms: 1e6, s: 1e9 }[(match[2] || "ms").toLowerCase()];
    return Number(match[1]) * scale;
  }
  function stepState(delta) {
    const match = /^action:(\d+)$/.exec(state.moment || "");
    const last = state.update ? state.update.actionsBegun : 0;
    let next = match ? Number(match[1]) + delta : last;
    if (next < 1 || (last > 0 && next > last)) return;
    loadState("action:" + next);
  }

  // Events: `replay`'s lines (the same formatter), the latest ones matching the filter.
  // A filter submitted (Enter or the button) replaces the listing being read; `follow` reloads only when none is.
  async function loadEvents(following) {
    if (following && state.eventsBusy) return;
    state.eventsBusy = true;
    state.eventsAt = Date.now();
    state.eventsVersion = state.update ? state.update.version : -1;
    const terms = $("events-filter").value.split(/\s+/).filter((t) => t.length > 0);
    const query = terms.map((t) => "filter=" + encodeURIComponent(t)).join("&");
    const quoted = terms.length ? " '" + terms.join(" ") + "'" : "";
    try {
      const answer = await ask("/api/replay?format=text&limit=200" + (query ? "&" + query : ""), "replay",
        terms.join(" "), $("events-count"));
      const box = $("events");
      const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
      box.textContent = answer.lines.join("\n");
      if (atBottom) box.scrollTop = box.scrollHeight;
      // matched is null when the answer came from the index without reading back to the start.
      $("events-count").textContent = answer.matched === null
        ? "latest " + plural(answer.lines.length, "event") + " matching" + quoted + " (earlier ones not counted)"
        : Number(answer.matched) === 0
        ? (terms.length ? "no events match" + quoted : "no events yet")
        : plural(answer.matched, "event") + " matching" + quoted + ", latest " + count(answer.lines.length) + " shown";
      state.eventsBusy = false;
    } catch (error) {
      if (error.superseded) return;
      $("events").textContent = "";
      $("events-count").textContent = String(error.message || error);
      state.eventsBusy = false;
    }
  }

  // The timeline: one track per thread, runs as nested slices, actions and
  // flushes as spans, issues as markers; drawn on canvases from an answer
  // sized by the picture (/api/timeline), fetched again after a zoom or pan.
  const timeline = { data: null, at: 0, from: 0, to: 0, whole: true, busy: false, again: false, timer: 0, drag: null, moved: false, hits: [] };
  const rowHeight = 16, flushLane = 6, trackPad = 4;
  const colours = { autorun: [59, 130, 246], computed: [139, 92, 246], action: [249, 115, 22], flush: [148, 163, 184] };

  async function loadTimeline() {
    if (timeline.busy) { timeline.again = true; return; }
    timeline.busy = true;
    const width = Math.max(100, Math.round($("timeline").clientWidth));
    const range = timeline.whole ? "" : "&from=" + Math.floor(timeline.from) + "&to=" + Math.ceil(timeline.to);
    timeline.at = Date.now();
    try {
      const answer = await getJSON("/api/timeline?width=" + width + range);
      timeline.data = answer;
      if (timeline.whole) { timeline.from = answer.fromNanoseconds; timeline.to = Math.max(answer.toNanoseconds, answer.fromNanoseconds + 1); }
      drawTimeline();
    } catch (error) {
      const box = $("timeline");
      clear(box);
      box.appendChild(element("p", String(error.message || error), "empty error"));
    } finally {
      timeline.busy = false;
      if (timeline.again) { timeline.again = false; loadTimeline(); }
    }
  }

  function drawTimeline() {
    const data = timeline.data;
    const box = $("timeline");
    if (!data) return;
    if (data.tracks.length === 0) {
      clear(box);
      box.appendChild(element("p", "no event recorded yet", "empty"));
      return;
    }
    // One element per thread, kept across redraws.
    const wanted = new Set(data.tracks.map((track) => String(track.thread)));
    for (const old of Array.from(box.children)) if (!wanted.has(old.getAttribute("data-track"))) old.remove();
    const width = box.clientWidth;
    const span = Math.max(1, timeline.to - timeline.from);
    const x = (ns) => (Number(ns) - timeline.from) / span * width;
    timeline.hits = [];
    let maxDuration = 1;
    for (const track of data.tracks) for (const slice of track.slices) if (slice.count === 1) maxDuration = Math.max(maxDuration, Number(slice.totalNanoseconds));
    for (const track of data.tracks) {
      let holder = box.querySelector('[data-track="' + track.thread + '"]');
      if (!holder) {
        holder = element("div", null, "track");
        holder.setAttribute("data-track", String(track.thread));
        holder.appendChild(element("span", "thread " + track.thread, "track-label"));
        holder.appendChild(document.createElement("canvas"));
        box.appendChild(holder);
      }
      const canvas = holder.querySelector("canvas");
      const height = flushLane + trackPad + Math.max(1, track.depth) * rowHeight + trackPad;
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.height = height + "px";
      const context = canvas.getContext("2d");
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.clearRect(0, 0, width, height);
      context.font = "10px system-ui, sans-serif";
      context.textBaseline = "middle";
      for (const slice of track.slices) {
        const left = x(slice.beginNanoseconds);
        const right = x(Number(slice.beginNanoseconds) + Number(slice.durationNanoseconds));
        if (right < 0 || left > width) continue;
        const x0 = Math.max(0, left), w = Math.max(1, Math.min(width, right) - x0);
        const y = slice.depth < 0 ? 0 : flushLane + trackPad + slice.depth * rowHeight;
        const h = slice.depth < 0 ? flushLane : rowHeight - 2;
        const base = colours[slice.kind] || colours.autorun;
        // Heat: the longer a run, the deeper its colour; a sum of short runs is drawn pale.
        const heat = slice.count > 1 ? 0.35 : 0.45 + 0.55 * Math.log1p(Number(slice.totalNanoseconds)) / Math.log1p(maxDuration);
        context.fillStyle = "rgba(" + base[0] + "," + base[1] + "," + base[2] + "," + heat.toFixed(3) + ")";
        context.fillRect(x0, y, w, h);
        if (slice.unfinished) { context.strokeStyle = "#b91c1c"; context.strokeRect(x0 + 0.5, y + 0.5, w - 1, h - 1); }
        if (w > 40 && slice.depth >= 0) {
          context.fillStyle = "#fff";
          context.save();
          context.beginPath();
          context.rect(x0, y, w, h);
          context.clip();
          context.fillText(slice.count > 1 ? slice.count + " × " + slice.name : slice.name, x0 + 3, y + h / 2);
          context.restore();
        }
        timeline.hits.push({ thread: track.thread, x0: x0, x1: x0 + w, y0: y, y1: y + h, slice: slice });
      }
      for (const marker of data.markers) {
        if (marker.thread !== track.thread) continue;
        const mx = x(marker.timeNanoseconds);
        if (mx < 0 || mx > width) continue;
        context.fillStyle = "#b91c1c";
        context.beginPath();
        context.moveTo(mx - 4, 0);
        context.lineTo(mx + 4, 0);
        context.lineTo(mx, 7);
        context.fill();
        timeline.hits.push({ thread: track.thread, x0: mx - 4, x1: mx + 4, y0: 0, y1: 8, marker: marker });
      }
    }
    $("timeline-caption").textContent = traceTime(timeline.from) + " – " + traceTime(timeline.to) + " · " +
      plural(data.tracks.length, "thread") + (data.markers.length ? " · " + plural(data.markers.length, "issue") : "");
  }

  function timelineHit(event) {
    const holder = event.target.closest ? event.target.closest("[data-track]") : null;
    if (!holder) return null;
    const rect = holder.querySelector("canvas").getBoundingClientRect();
    const px = event.clientX - rect.left, py = event.clientY - rect.top;
    const thread = Number(holder.getAttribute("data-track"));
    let found = null;
    for (const hit of timeline.hits) {
      if (hit.thread === thread && px >= hit.x0 - 1 && px <= hit.x1 + 1 && py >= hit.y0 && py <= hit.y1) {
        if (!found || hit.marker || (found.slice && hit.slice && hit.slice.depth > found.slice.depth)) found = hit;
      }
    }
    return found;
  }

  function showTip(event, hit) {
    const tip = $("timeline-tip");
    if (!hit) { tip.hidden = true; return; }
    if (hit.marker) {
      tip.textContent = "issue " + hit.marker.kind + " at " + traceTime(hit.marker.timeNanoseconds) + ": " + hit.marker.message;
    } else {
      const slice = hit.slice;
      tip.textContent = slice.count > 1
        ? count(slice.count) + " slices (" + duration(slice.totalNanoseconds) + " in all), the longest " + slice.name + " (" + slice.kind + ")"
        : slice.name + " (" + slice.kind + ") " + duration(slice.durationNanoseconds) + " at " + traceTime(slice.beginNanoseconds) +
          (slice.unfinished ? " · unfinished" : "");
    }
    tip.hidden = false;
    tip.style.left = Math.min(event.clientX + 12, window.innerWidth - 440) + "px";
    tip.style.top = (event.clientY + 14) + "px";
  }

  function setTimelineWindow(from, to) {
    const data = timeline.data;
    if (!data) return;
    const begin = Number(data.traceBeginNanoseconds), end = Math.max(Number(data.traceEndNanoseconds), begin + 1);
    const span = Math.min(Math.max(to - from, 1000), end - begin);
    from = Math.min(Math.max(from, begin), end - span);
    timeline.from = from;
    timeline.to = from + span;
    timeline.whole = from <= begin && from + span >= end;
    drawTimeline();
    clearTimeout(timeline.timer);
    timeline.timer = setTimeout(loadTimeline, 150);
  }

  function wireTimeline() {
    const box = $("timeline");
    box.addEventListener("wheel", (event) => {
      if (!timeline.data || event.shiftKey) return;
      event.preventDefault();
      const rect = box.getBoundingClientRect();
      const at = timeline.from + (event.clientX - rect.left) / rect.width * (timeline.to - timeline.from);
      const factor = Math.exp(event.deltaY * 0.0015);
      setTimelineWindow(at - (at - timeline.from) * factor, at + (timeline.to - at) * factor);
    }, { passive: false });
    box.addEventListener("pointerdown", (event) => {
      if (!timeline.data || event.button !== 0) return;
      timeline.drag = { x: event.clientX, from: timeline.from, to: timeline.to };
      timeline.moved = false;
    });
    window.addEventListener("pointermove", (event) => {
      const drag = timeline.drag;
      if (drag) {
        const dx = event.clientX - drag.x;
        if (!timeline.moved && Math.abs(dx) < 4) return;
        timeline.moved = true;
        box.classList.add("panning");
        const shift = dx / box.clientWidth * (drag.to - drag.from);
        setTimelineWindow(drag.from - shift, drag.to - shift);
        return;
      }
      showTip(event, box.contains(event.target) ? timelineHit(event) : null);
    });
    window.addEventListener("pointerup", () => {
      timeline.drag = null;
      box.classList.remove("panning");
      setTimeout(() => { timeline.moved = false; }, 0);
    });
    box.addEventListener("pointerleave", () => { $("timeline-tip").hidden = true; });
    box.addEventListener("click", (event) => {
      if (timeline.moved) return;
      const hit = timelineHit(event);
      if (!hit || !hit.slice) return;
      const slice = hit.slice;
      // A run selects its node; any slice sets the moment to its end.
      if (slice.count === 1 && slice.kind !== "action" && slice.kind !== "flush") select(slice.name);
      loadState(Math.round(Number(slice.beginNanoseconds) + Number(slice.durationNanoseconds)) + "ns");
    });
    $("timeline-fit").addEventListener("click", () => { timeline.whole = true; loadTimeline(); });
    window.addEventListener("resize", () => { clearTimeout(timeline.timer); timeline.timer = setTimeout(loadTimeline, 150); });
  }

  function connect() {
    const source = new EventSource("/api/stream");
    source.addEventListener("update", (event) => {
      const update = JSON.parse(event.data);
      if (update.version === state.lastVersion) return;
      const first = state.lastVersion < 0;
      state.lastVersion = update.version;
      render(update);
      // Each event list is a pass over the trace: shown at once only for a small one.
      if (first && update.snapshot) {
        if (update.snapshot.events <= smallTrace) loadEvents();
        else $("events-count").textContent = count(update.snapshot.events) + " events so far: press Filter to list the latest (a pass over the whole trace)";
      }
    });
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) { setStatus("disconnected", "the server stopped"); setTimeout(connect, 2000); }
    };
  }

  // The age of the figures shown: a stalled stream shows at once.
  setInterval(() => {
    if (!state.update || !state.update.snapshot) return;
    const s = state.update.snapshot;
    $("fig-lag").textContent = s.status === "recording" ? duration((Date.now() - state.receivedAt) * 1e6) + " ago" : "—";
  }, 250);

  document.addEventListener("DOMContentLoaded", () => {
    $("graph-all").addEventListener("click", () => { state.focus = null; state.layers = null; loadGraph(true); });
    $("events-form").addEventListener("submit", (event) => { event.preventDefault(); loadEvents(); });
    $("state-previous").addEventListener("click", () => stepState(-1));
    $("state-next").addEventListener("click", () => stepState(1));
    $("state-at").addEventListener("change", () => { const v = $("state-at").value.trim(); if (v) loadState(v); });
    // The hot table holds still under the pointer: updates wait until it leaves.
    $("hot").addEventListener("pointerenter", () => { state.hotHeld = true; });
    $("hot").addEventListener("pointerleave", () => {
      state.hotHeld = false;
      if (state.update && state.update.snapshot) renderHot(state.update.snapshot.hot);
    });
    wireGraph();
    wireTimeline();
    connect();
  });
})();
