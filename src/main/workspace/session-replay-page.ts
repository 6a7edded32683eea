import { createHash } from 'node:crypto'

/**
 * The exported replay's page: one HTML file with its styles and script inline and nothing
 * fetched. The transcript is untrusted (a reply, a file or a command's output may hold
 * `</script><script>…`), so:
 * - its data goes into a `type="application/json"` block with every `<`, `>`, `&` and line
 *   separator written as a `\u` escape, so no sequence in it can end the block or start a tag;
 * - the page's script builds everything with `textContent` and DOM calls, never markup;
 * - a Content-Security-Policy allows exactly the page's own script and style (by hash) and
 *   nothing else: no other script, no network, no frames — a second line of defence.
 * The only text put into markup directly, the `<title>`, is HTML-escaped.
 */

/** One step of the exported replay. */
export interface ReplayItem {
  /** `main` or the subagent's id. */
  lane: string
  kind: 'prompt' | 'reply' | 'tool' | 'compaction' | 'agent' | 'end'
  /** When it was recorded, ms since the epoch. */
  at: number
  /** One line: "You", "Bash: npm test", "Compacted…". */
  title: string
  /** The prompt, the reply, or what the tool gave back (cut). */
  text?: string
  /** An edit's unified diff. */
  diff?: string
  /** A Bash command of the main agent, for the page's Agent terminal. */
  command?: { line: string; exitCode: number | null }
  failed?: boolean
}

/** What the page is made from. */
export interface ReplayDocument {
  title: string
  projectPath: string
  sessionId: string
  createdAt: string
  lanes: Array<{ id: string; label: string }>
  items: ReplayItem[]
}

const STYLE = `
:root { color-scheme: light dark; --bg: light-dark(#f6f5f2, #141517); --surface: light-dark(#fbfaf8, #1b1c1e); --border: light-dark(#e2dfd8, #2e3034); --text: light-dark(#2b2a28, #e4e2dd); --muted: light-dark(#6f6b64, #9a968e); --accent: light-dark(#c2562f, #e07a52); --danger: light-dark(#b4432f, #e0806c); --focus: light-dark(#2f5f9e, #80a8e0); }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 ui-sans-serif, system-ui, sans-serif; background: var(--bg); color: var(--text); display: grid; grid-template-rows: auto auto auto 1fr; height: 100vh; }
header { padding: 10px 16px; border-bottom: 1px solid var(--border); }
header h1 { margin: 0; font-size: 16px; }
header p { margin: 2px 0 0; color: var(--muted); font-size: 12px; }
[role="toolbar"] { display: flex; gap: 6px; align-items: center; padding: 6px 16px; flex-wrap: wrap; }
button, select { font: inherit; font-size: 12px; padding: 2px 8px; border: 1px solid var(--border); border-radius: 6px; background: var(--surface); color: var(--text); cursor: pointer; }
button:focus-visible, select:focus-visible, .mark:focus-visible { outline: 2px solid var(--focus); outline-offset: 1px; }
#position { flex: 1; min-width: 120px; }
#strip { overflow-x: auto; padding: 0 16px 6px; border-bottom: 1px solid var(--border); }
.lane { position: relative; height: 16px; border-bottom: 1px dashed var(--border); }
.lane-label { position: sticky; left: 0; z-index: 1; display: block; width: 114px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-size: 10px; line-height: 16px; color: var(--muted); background: var(--bg); }
.mark { position: absolute; top: 3px; width: 10px; height: 10px; padding: 0; border-radius: 2px; background: var(--muted); }
.mark.prompt { background: var(--text); border-radius: 50%; } .mark.tool { background: var(--focus); } .mark.diff { background: var(--accent); }
.mark.failed { box-shadow: 0 0 0 2px var(--danger); } .mark.later { opacity: 0.25; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); min-height: 0; }
#log { overflow: auto; padding: 12px 16px; }
.item { margin: 0 0 10px; padding: 8px 10px; border: 1px solid var(--border); border-radius: 8px; background: var(--surface); }
.item.current { outline: 2px solid var(--focus); }
.item h2 { margin: 0 0 4px; font-size: 12px; color: var(--muted); font-weight: 600; }
.item.prompt { border-left: 3px solid var(--text); } .item.failed h2 { color: var(--danger); }
.item .lane-name { color: var(--accent); }
pre { margin: 4px 0 0; white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, monospace; max-height: 320px; overflow: auto; }
.add { color: light-dark(#3f7d3a, #8fc47f); } .del { color: var(--danger); } .hunk { color: var(--muted); }
#terminal { margin: 0; padding: 10px; background: #111; color: #ddd; overflow: auto; max-height: none; border-left: 1px solid var(--border); }
#terminal .cmd { color: #5fd7d7; font-weight: bold; } #terminal .ok { color: #8fc47f; } #terminal .bad { color: #e0806c; }
`

/** The page's script: reads the data block and draws the replay with DOM calls only. */
const SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('sous-replay-data').textContent);
  var items = data.items;
  var speeds = [1, 2, 5, 10, 20];
  var position = 0, playing = false, timer = 0, speed = 1;
  var $ = function (id) { return document.getElementById(id); };
  var make = function (tag, className, text) { var el = document.createElement(tag); if (className) el.className = className; if (text !== undefined) el.textContent = text; return el; };
  var laneName = {};
  data.lanes.forEach(function (lane) { laneName[lane.id] = lane.label; });
  document.title = data.title + ' — Sous replay';
  $('title').textContent = data.title;
  $('about').textContent = data.projectPath + ' · session ' + data.sessionId + ' · started ' + data.createdAt + ' · ' + items.length + ' steps';
  speeds.forEach(function (value) { var option = make('option', '', value + '×'); option.value = String(value); $('speed').appendChild(option); });
  $('position').max = String(items.length);

  var marks = [];
  var rows = {};
  data.lanes.forEach(function (lane) {
    var row = make('div', 'lane');
    row.setAttribute('role', 'group');
    row.setAttribute('aria-label', lane.id === 'main' ? 'Main agent' : 'Subagent ' + lane.label);
    row.appendChild(make('span', 'lane-label', lane.label));
    rows[lane.id] = row;
    $('marks').appendChild(row);
  });
  $('marks').style.width = 120 + Math.max(1, items.length) * 14 + 'px';
  items.forEach(function (item, index) {
    var mark = make('button', 'mark ' + item.kind + (item.diff ? ' diff' : '') + (item.failed ? ' failed' : ''));
    mark.type = 'button';
    mark.tabIndex = index === 0 ? 0 : -1;
    mark.style.left = 120 + index * 14 + 'px';
    mark.setAttribute('aria-label', item.title);
    mark.title = item.title;
    mark.addEventListener('click', function () { pause(); show(index + 1); });
    (rows[item.lane] || rows.main).appendChild(mark);
    marks.push(mark);
  });
  $('marks').addEventListener('keydown', function (event) {
    var at = marks.indexOf(document.activeElement);
    if (at < 0) return;
    var next = event.key === 'ArrowRight' ? at + 1 : event.key === 'ArrowLeft' ? at - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? marks.length - 1 : -2;
    if (next === -2) return;
    event.preventDefault();
    next = Math.max(0, Math.min(marks.length - 1, next));
    marks[at].tabIndex = -1; marks[next].tabIndex = 0; marks[next].focus();
  });

  function diffBlock(text) {
    var pre = make('pre');
    pre.setAttribute('aria-label', 'Diff');
    text.split('\\n').forEach(function (line) {
      var cls = line.charAt(0) === '+' && line.indexOf('+++') !== 0 ? 'add' : line.charAt(0) === '-' && line.indexOf('---') !== 0 ? 'del' : line.indexOf('@@') === 0 ? 'hunk' : '';
      pre.appendChild(make('span', cls, line + '\\n'));
    });
    return pre;
  }
  function card(item) {
    var box = make('article', 'item ' + item.kind + (item.failed ? ' failed' : ''));
    var heading = make('h2');
    if (item.lane !== 'main') heading.appendChild(make('span', 'lane-name', (laneName[item.lane] || item.lane) + ' · '));
    heading.appendChild(document.createTextNode(item.title));
    box.appendChild(heading);
    if (item.diff) box.appendChild(diffBlock(item.diff));
    if (item.text) box.appendChild(make(item.kind === 'tool' ? 'pre' : 'div', '', item.text));
    return box;
  }
  function terminalLines(item) {
    var part = document.createDocumentFragment();
    part.appendChild(make('span', 'cmd', '$ ' + item.command.line + '\\n'));
    part.appendChild(document.createTextNode((item.text || '') + '\\n'));
    var code = item.command.exitCode;
    part.appendChild(make('span', code === 0 ? 'ok' : 'bad', code === null ? '[stopped]\\n\\n' : '[exit ' + code + ']\\n\\n'));
    return part;
  }
  var drawn = 0, cards = [];
  function show(next) {
    next = Math.max(0, Math.min(items.length, next));
    if (next < drawn) { $('log').textContent = ''; $('terminal').textContent = ''; cards = []; drawn = 0; }
    for (; drawn < next; drawn++) {
      var item = items[drawn];
      var box = card(item);
      cards.push(box);
      $('log').appendChild(box);
      if (item.command) $('terminal').appendChild(terminalLines(item));
    }
    position = next;
    cards.forEach(function (box, index) { box.classList.toggle('current', index === position - 1); });
    marks.forEach(function (mark, index) { mark.classList.toggle('later', index >= position); });
    var current = cards[position - 1];
    if (current) current.scrollIntoView({ block: 'nearest' });
    $('terminal').scrollTop = $('terminal').scrollHeight;
    $('position').value = String(position);
    $('position').setAttribute('aria-valuetext', 'Step ' + position + ' of ' + items.length);
    $('status').textContent = 'Step ' + position + ' of ' + items.length;
    $('back').disabled = position === 0;
    $('forward').disabled = position >= items.length;
  }
  function delay() {
    var from = items[position - 1], to = items[position];
    var gap = from && to ? Math.min(2000, Math.max(0, to.at - from.at)) : 0;
    return Math.max(16, gap / speed);
  }
  function tick() {
    if (!playing) return;
    if (position >= items.length) return pause();
    timer = setTimeout(function () { show(position + 1); tick(); }, delay());
  }
  function play() {
    if (position >= items.length) show(0);
    playing = true; $('play').textContent = 'Pause'; $('play').setAttribute('aria-label', 'Pause'); tick();
  }
  function pause() {
    playing = false; clearTimeout(timer); $('play').textContent = 'Play'; $('play').setAttribute('aria-label', 'Play');
  }
  $('play').addEventListener('click', function () { if (playing) pause(); else play(); });
  $('back').addEventListener('click', function () { pause(); show(position - 1); });
  $('forward').addEventListener('click', function () { pause(); show(position + 1); });
  $('speed').addEventListener('change', function () { speed = Number($('speed').value) || 1; if (playing) { clearTimeout(timer); tick(); } });
  $('position').addEventListener('input', function () { pause(); show(Number($('position').value)); });
  show(0);
})();
`

/** The page for `document`. Pure. */
export function replayPage(document: ReplayDocument): string {
  const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
  const csp = `default-src 'none'; script-src ${hash(SCRIPT)}; style-src ${hash(STYLE)}; img-src 'none'; form-action 'none'; base-uri 'none'`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.title)} — Sous replay</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1 id="title"></h1><p id="about"></p></header>
<div role="toolbar" aria-label="Replay">
<button type="button" id="back" aria-label="Step back">◀ Back</button>
<button type="button" id="play" aria-label="Play">Play</button>
<button type="button" id="forward" aria-label="Step forward">Forward ▶</button>
<select id="speed" aria-label="Replay speed"></select>
<input type="range" id="position" aria-label="Replay position" min="0" value="0">
<span id="status" role="status"></span>
</div>
<div id="strip"><div id="marks" role="toolbar" aria-label="Session timeline"></div></div>
<main><div id="log" role="log" aria-label="Conversation"></div><pre id="terminal" aria-label="Agent terminal"></pre></main>
<script type="application/json" id="sous-replay-data">${jsonForScript(document)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`
}

/**
 * JSON that is safe inside a `<script>` element: `<`, `>` and `&` as `\u` escapes (so no `</script`,
 * `<!--` or `<script` can appear), and U+2028/U+2029 too. JSON.parse reads them back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
