// The page of examples/sse_server.py: starts a run with POST /run (a JSON body: the server
// starts nothing on a GET, see sse_server.py), reads the server-sent events of its answer
// and draws what arrives. Agent text only ever goes into the page as textContent, never
// as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const BADGES = {
  running: "running",
  succeeded: "✓",
  failed: "✗ failed",
  blocked: "⊘ blocked",
};

const STOPPED = "Stopped: the agent and its process group have ended."; // print mode's stop

let request = null; // the AbortController of the run on screen's POST /run
let runId = null; // its id on the server, from the `start` event
let textBlock = null; // where reply text goes: a new block after each tool call
let tools = new Map(); // tool call id -> its row
let liveSession = null; // live mode: this page's session on the server, from `init`
let cards = new Map(); // live mode: permission request number -> its approval card

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function setStatus(state, text) {
  $("status").dataset.state = state;
  $("status").textContent = text;
}

function seconds(ms) {
  return ms < 1000 ? ms + " ms" : (ms / 1000).toFixed(1) + " s";
}

function appendText(text) {
  if (!textBlock) {
    textBlock = el("div", "text");
    $("transcript").append(textBlock);
  }
  textBlock.append(text);
}

// Text with its code spans (the server found them: a live call's title "`pytest -q`" is
// [["pytest -q", true]]) as <code>, the rest as plain text.
function withCode(node, parts) {
  for (const [text, code] of parts) node.append(code ? el("code", "", text) : text);
  return node;
}

function drawTool(call) {
  let row = tools.get(call.id);
  if (!row) {
    row = el("div", "tool");
    tools.set(call.id, row);
    $("transcript").append(row);
    textBlock = null; // text after a tool call goes below it
  }
  row.dataset.status = call.status;
  row.dataset.kind = call.kind;
  const badge = el("span", "badge", BADGES[call.status] || "? " + (call.outcome || "unknown"));
  badge.title = call.outcome || call.status;
  const duration = el("span", "duration", call.duration_ms == null ? "" : seconds(call.duration_ms));
  const args = el("div", "args");
  for (const [name, value] of call.args) {
    const arg = el("span", "arg");
    arg.append(el("span", "name", name + ": "), el("span", "value", value));
    args.append(arg);
  }
  const parts = [badge, withCode(el("span", "label"), call.label_parts), duration, args];
  const detail = [call.status === "succeeded" ? "" : call.outcome, call.detail].filter(Boolean);
  if (detail.length) parts.push(el("div", "detail", detail.join(": ")));
  // What a subagent was asked and answered, what hooks added (the server's words).
  for (const [what, text] of call.notes || []) {
    const note = el("div", "note");
    note.append(el("span", "name", what + ": "), el("span", "value", text));
    parts.push(note);
  }
  row.replaceChildren(...parts);
}

// A subagent that ran in the background has finished: a row of its own, with its answer.
function drawNotice(n) {
  const row = el("div", "notice");
  row.dataset.status = n.status;
  const parts = [el("span", "badge", "◆ " + n.status), el("span", "label", "Subagent finished: " + n.title)];
  if (n.detail) parts.push(el("div", "detail", n.detail));
  row.append(...parts);
  $("transcript").append(row);
  textBlock = null; // text after it goes below it
}

// --- live mode: the agent asks before it runs a tool (docs/acp.md §3.11) ---------------
const DECIDED = {
  allow_once: "Allowed once.",
  allow_always: "Allowed always: a rule was added to your global Cursor CLI config.",
  reject: "Rejected.",
};

function alwaysWarning(p) {
  const rule = p.kind === "execute" && p.command ? ` (Shell(${p.command.trim().split(/\s+/)[0]}))` : "";
  return "Allow always writes a rule" + rule + " into your global Cursor CLI config" +
    " (~/.cursor/cli-config.json, permissions.allow): from then on the agent runs it" +
    " without asking, in every project and every session.";
}

// An approval card. Its buttons are the options offered, by kind; "Allow always" is set
// apart with its warning, and nothing is chosen or focused for the person.
function drawPermission(p) {
  const card = el("section", "permission");
  card.dataset.state = "pending";
  card.dataset.request = p.request;
  card.setAttribute("aria-label", "Permission request");
  const kinds = new Set(p.options.map((o) => o.kind));
  const asks = p.kind === "execute" ? "to run a command" : "to use a tool" + (p.kind ? ` (${p.kind})` : "");
  const head = el("div", "permission-head", "The agent asks " + asks);
  const parts = [head];
  // A shell call's title is its command (docs/acp.md §3.10): shown once, below.
  if (p.title && p.title !== p.command) parts.push(withCode(el("div", "permission-title"), p.title_parts));
  if (p.command) parts.push(el("pre", "permission-command", p.command));
  if (p.reason) parts.push(el("p", "permission-reason", p.reason));
  const button = (className, text, decision) => {
    const b = el("button", className, text);
    b.type = "button";
    b.dataset.decision = decision;
    b.addEventListener("click", () => decide(p.request, decision));
    return b;
  };
  const actions = el("div", "permission-actions");
  if (kinds.has("allow_once")) actions.append(button("allow-once", "Allow once", "allow_once"));
  actions.append(button("reject", "Reject", "reject")); // always possible (§3.11)
  parts.push(actions);
  if (kinds.has("allow_always")) {
    const always = el("div", "permission-always");
    const warning = el("p", "warning", "⚠ " + alwaysWarning(p));
    warning.id = "always-warning-" + p.request;
    const b = button("allow-always", "Allow always", "allow_always");
    b.setAttribute("aria-describedby", warning.id);
    b.title = alwaysWarning(p);
    always.append(warning, b);
    parts.push(always);
  }
  parts.push(el("p", "permission-outcome"));
  card.replaceChildren(...parts);
  cards.set(p.request, card);
  $("permissions").append(card);
}

async function decide(request, decision) {
  const card = cards.get(request);
  const id = runId;
  for (const b of card.querySelectorAll("button")) b.disabled = true;
  card.querySelector(".permission-outcome").textContent = "Sending…";
  try {
    const query = `run=${encodeURIComponent(id)}&request=${request}&decision=${decision}`;
    const response = await fetch("/permission?" + query, { method: "POST" });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
  } catch (err) { // the question is gone (the turn ended): permission_done says how
    card.querySelector(".permission-outcome").textContent = "Not sent: " + String(err.message || err);
  }
}

function settlePermission(d) {
  const card = cards.get(d.request);
  if (!card) return;
  card.dataset.state = d.decision === "reject" ? "rejected" : "allowed";
  card.dataset.decision = d.decision;
  for (const b of card.querySelectorAll("button")) b.remove();
  card.querySelector(".permission-outcome").textContent = DECIDED[d.decision] || d.decision;
}

function showError(title, message, hint) {
  const box = $("error");
  box.querySelector(".error-title").textContent = title;
  box.querySelector(".error-message").textContent = message || "";
  box.querySelector(".error-hint").textContent = hint ? "Hint: " + hint : "";
  box.hidden = false;
}

// The run is over (done, failed or stopped): drop its connection (the server ends a run
// whose client went away, so this also stops a run the server had not started yet).
function finish(state, text) {
  if (request) request.abort();
  request = null;
  runId = null;
  for (const card of cards.values()) { // questions the run ended without an answer
    if (card.dataset.state === "pending") settlePermission({ request: Number(card.dataset.request), decision: "reject" });
  }
  for (const row of tools.values()) { // calls the run ended without completing
    if (row.dataset.status === "running") {
      row.dataset.status = "unfinished";
      row.querySelector(".badge").textContent = state === "stopped" ? "■ stopped" : "■ unfinished";
    }
  }
  setStatus(state, text);
  $("run").disabled = false;
  $("stop").disabled = true;
}

function start(prompt) {
  $("transcript").replaceChildren();
  $("permissions").replaceChildren();
  cards = new Map();
  $("meta").textContent = "";
  $("error").hidden = true;
  textBlock = null;
  tools = new Map();
  runId = null;
  setStatus("running", "Running…");
  $("run").disabled = true;
  $("stop").disabled = false;

  // Live mode: the page's next prompts go to its session (the agent remembers the chat).
  const body = liveSession ? { prompt, session: liveSession } : { prompt };
  const handlers = {
    start: (d) => { runId = d.run; },
    init: (d) => {
      if (d.live) liveSession = d.session_id;
      $("meta").textContent = ["model " + d.model, (d.live ? "live session " : "session ") + d.session_id]
        .filter((s) => !s.endsWith(" null")).join(" · ");
    },
    text: (d) => appendText(d.text),
    tool: drawTool,
    notice: drawNotice,
    permission: drawPermission,
    permission_done: settlePermission,
    done: (d) => {
      const usage = d.usage
        ? ` · ${d.usage.inputTokens} in / ${d.usage.outputTokens} out tokens` : "";
      const calls = d.tool_calls === 1 ? "1 tool call" : d.tool_calls + " tool calls";
      const took = d.duration_ms == null ? "" : " in " + seconds(d.duration_ms);
      const agent = d.fake_agent ? " on the bundled fake agent" : ""; // the run's, not only the header's
      finish("done", `Done${took}${agent} · ${calls}${usage}.`);
    },
    stopped: (d) => finish("stopped", d.message || STOPPED),
    error: (d) => { // our `event: error`: the run failed
      showError(d.error, d.message, d.hint);
      finish("error", "The run failed" + (d.exit_code == null ? "." : ` (exit code ${d.exit_code}).`));
    },
  };
  const mine = new AbortController();
  request = mine;
  stream(body, mine, handlers).catch((err) => {
    if (request !== mine) return; // this run was finished already: the abort was ours
    showError("Connection lost", "The connection to the server was lost; the run is over: " +
      String(err.message || err));
    finish("error", "Disconnected.");
  });
}

// POST /run, then each server-sent event of the answer to its handler, until the run's
// last event (which finishes the run) or the end of the stream.
async function stream(body, controller, handlers) {
  const response = await fetch("/run", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  if (!response.ok) { // refused: too many runs, a bad request
    const text = await response.text();
    let message = text;
    try { message = JSON.parse(text).error || text; } catch (_) { /* plain text */ }
    if (request === controller) {
      showError(`The server refused the run (${response.status})`, message);
      finish("error", "Refused.");
    }
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  while (request === controller) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the stream ended before the run did");
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0 && request === controller) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      const handler = handlers[name];
      if (handler) handler(JSON.parse(data));
    }
  }
}

async function stop() {
  $("stop").disabled = true;
  setStatus("running", "Stopping…");
  const id = runId;
  if (id === null) { // not started on the server yet: closing the stream stops it
    finish("stopped", "Stopped.");
    return;
  }
  try {
    // The server answers once the run's process group has ended; its `stopped` event
    // may finish the run on the page first.
    const response = await fetch("/stop?run=" + encodeURIComponent(id), { method: "POST" });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
    // stopped: false means the run had ended already: its last event is on its way.
    if (answer.stopped && runId === id) {
      finish("stopped", answer.message || STOPPED);
    }
  } catch (err) {
    // Closing the stream also makes the server stop the run.
    showError("Stop failed", String(err.message || err));
    finish("error", "Stop failed; the connection was closed.");
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("prompt-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const prompt = $("prompt").value.trim();
    if (prompt && !request) start(prompt);
  });
  $("stop").addEventListener("click", stop);
});
