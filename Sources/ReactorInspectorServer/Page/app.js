"use strict";
// Reactor inspector page. Every piece of trace data reaches the page as
// text (textContent) or an attribute value; no markup is built from data.
(function () {
  const $ = (id) => document.getElementById(id);
  const smallTrace = 500000;
  const state = { update: null, focus: null, graphVersion: -1, graphAt: 0, graphBusy: false, graphKeys: new Map(),
                  eventsBusy: false, eventsAt: 0, eventsVersion: -1, moment: null, lastVersion: -1, receivedAt: 0 };

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
    if ($("events-follow").checked && update.version !== state.eventsVersion && Date.now() - state.eventsAt > 2000) loadEvents();
  }

  function renderHot(rows) {
    const body = $("hot").tBodies[0];
    clear(body);
    for (const row of rows) {
      const tr = element("tr");
      if (row.name === state.focus) tr.className = "selected";
      tr.appendChild(element("td", row.name + (row.instances > 1 ? " ×" + row.instances : ""), "name"));
      tr.appendChild(element("td", rate(row.rerunsPerSecond), "number"));
      tr.appendChild(element("td", duration(row.nanosecondsPerSecond), "number"));
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

  // The graph: SVG from the server, parsed as XML and stripped of anything active.
  // Only the static shapes, text and gradients Graphviz draws are kept: any other element (a script,
  // an animation such as <set> or <animate>, foreign content) goes with everything inside it.
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

  async function loadGraph(force) {
    if (state.graphBusy && !force) return;
    state.graphBusy = true;
    state.graphAt = Date.now();
    const url = state.focus ? "/api/graph?depth=2&focus=" + encodeURIComponent(state.focus) : "/api/graph";
    try {
      const answer = await getJSON(url);
      const parsed = new DOMParser().parseFromString(answer.svg, "image/svg+xml");
      const root = parsed.documentElement;
      if (root.nodeName !== "svg") throw new Error("the graph could not be read");
      const svg = document.importNode(sanitize(root), true);
      state.graphKeys = new Map(answer.nodes.map((node) => [node.id, node.name]));
      state.graphVersion = answer.graphVersion;
      const box = $("graph");
      clear(box);
      box.appendChild(svg);
      // Readable labels: a wide graph scrolls rather than shrinking past three quarters of its size.
      const natural = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width * 4 / 3 : 0;
      const wide = box.clientWidth - 2;
      if (natural > 0) svg.style.width = (natural <= wide ? natural : Math.max(wide, Math.min(natural * 0.75, wide * 2.2))) + "px";
      for (const group of svg.querySelectorAll("g.node")) {
        const name = state.graphKeys.get(group.getAttribute("id"));
        if (name === undefined) continue;
        group.setAttribute("data-name", name);
        if (name === state.focus) group.classList.add("focused");
        group.addEventListener("click", () => focusOn(name));
      }
      $("graph-caption").textContent = (state.focus ? "around " + state.focus + " · " : "") + answer.nodes.length + " nodes drawn";
    } catch (error) {
      const box = $("graph");
      clear(box);
      box.appendChild(element("p", String(error.message || error), "empty error"));
    } finally {
      state.graphBusy = false;
    }
  }

  function focusOn(name) {
    state.focus = name;
    loadGraph(true);
    loadWhy(name);
    if (state.update) renderHot(state.update.snapshot ? state.update.snapshot.hot : []);
  }

  // Why: `why NAME --json`.
  async function loadWhy(name) {
    $("why-target").textContent = name;
    const box = $("why");
    clear(box);
    box.appendChild(element("p", "reading the trace…", "empty"));
    try {
      const report = await getJSON("/api/why?limit=10&node=" + encodeURIComponent(name));
      clear(box);
      renderWhy(box, report);
    } catch (error) {
      clear(box);
      box.appendChild(element("p", String(error.message || error), "empty error"));
    }
  }

  function renderWhy(box, report) {
    box.appendChild(element("p", (report.kind ? report.kind + " · " : "") + count(report.runs) + " runs, " +
      count(report.reruns) + " reruns" + (report.site ? " · created at " + report.site : ""), "detail"));
    for (const pattern of report.patterns.slice(0, 8)) {
      const step = element("div", null, "why-step");
      step.appendChild(element("span", count(pattern.count) + "× ", "count"));
      step.appendChild(element("span", pattern.chain.join(" → "), "chain"));
      box.appendChild(step);
    }
    if (report.patterns.length === 0) box.appendChild(element("p", "no rerun recorded yet", "empty"));
    for (const issue of report.issues.slice(0, 3)) box.appendChild(element("p", issue.kind + ": " + issue.message, "error"));
  }

  // State at a moment: `state --at MOMENT --json`.
  async function loadState(moment) {
    state.moment = moment;
    $("state-at").value = moment;
    $("state-moment").textContent = "reading the trace…";
    const body = $("state").tBodies[0];
    try {
      const answer = await getJSON("/api/state?at=" + encodeURIComponent(moment));
      clear(body);
      $("state-moment").textContent = "after " + answer.moment + (answer.action ? " · " + answer.action : "") +
        " at " + traceTime(answer.timestampNanoseconds) + (answer.hasValues ? "" : " · values not recorded");
      for (const entry of answer.entries) {
        const tr = element("tr");
        tr.appendChild(element("td", entry.name, "name"));
        tr.appendChild(element("td", entry.kind));
        tr.appendChild(element("td", entry.value == null ? "—" : entry.value, "value-cell"));
        body.appendChild(tr);
      }
    } catch (error) {
      clear(body);
      $("state-moment").textContent = String(error.message || error);
    }
    if (state.update && state.update.snapshot) renderActions(state.update.snapshot.actions);
  }
  function stepState(delta) {
    const match = /^action:(\d+)$/.exec(state.moment || "");
    const last = state.update ? state.update.actionsBegun : 0;
    let next = match ? Number(match[1]) + delta : last;
    if (next < 1 || (last > 0 && next > last)) return;
    loadState("action:" + next);
  }

  // Events: `replay --json` with the filter's terms, the latest ones.
  async function loadEvents() {
    if (state.eventsBusy) return;
    state.eventsBusy = true;
    state.eventsAt = Date.now();
    state.eventsVersion = state.update ? state.update.version : -1;
    const terms = $("events-filter").value.split(/\s+/).filter((t) => t.length > 0);
    const query = terms.map((t) => "filter=" + encodeURIComponent(t)).join("&");
    try {
      const answer = await getJSON("/api/replay?limit=200" + (query ? "&" + query : ""));
      const lines = answer.lines.map((line) => {
        const fields = Object.keys(line).filter((k) => !["timeNanoseconds", "thread", "kind", "name"].includes(k))
          .map((k) => k + "=" + (typeof line[k] === "string" ? line[k] : JSON.stringify(line[k])));
        return traceTime(line.timeNanoseconds).padStart(12) + "  t" + line.thread + "  " + String(line.kind).padEnd(12) +
          " " + (line.name || "") + (fields.length ? "  " + fields.join(" ") : "");
      });
      const box = $("events");
      const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
      box.textContent = lines.join("\n");
      if (atBottom) box.scrollTop = box.scrollHeight;
      $("events-count").textContent = count(answer.matched) + " matching, latest " + answer.lines.length + " shown";
    } catch (error) {
      $("events").textContent = "";
      $("events-count").textContent = String(error.message || error);
    } finally {
      state.eventsBusy = false;
    }
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
    $("graph-all").addEventListener("click", () => { state.focus = null; loadGraph(true); });
    $("events-form").addEventListener("submit", (event) => { event.preventDefault(); loadEvents(); });
    $("state-previous").addEventListener("click", () => stepState(-1));
    $("state-next").addEventListener("click", () => stepState(1));
    $("state-at").addEventListener("change", () => { const v = $("state-at").value.trim(); if (v) loadState(v); });
    connect();
  });
})();
