// ppprof html in a real browser (html.exp): headless Chromium, driven
// through the DevTools protocol over --remote-debugging-pipe (file
// descriptors 3 and 4, messages of JSON ended by a NUL byte: no WebSocket,
// no npm package).  Node 18 or later.
//
//   node html-browser.js PAGE [--click ID] [--eval EXPR]
//                        [--screenshot PNG WIDTH HEIGHT]
//
// Loads PAGE (a file name; a #fragment kept), clicks the row of path ID
// (as a user selects it) and prints what the page then shows, one fact a
// line:
//   marked: L1 L2 ...       the source lines with class on-path
//   selected: ID ...        the data-path of the rows with class selected
//   edges: N  nodes: N      CFG edges and nodes with class on-path
//   selection: TEXT         the line saying what is selected
//   eval: JSON              EXPR's value (after the click), awaited;
//                           --eval @FILE: the expression in FILE
// Exit 0, or 1 with a message on stderr.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const args = process.argv.slice(2);
if (args.length < 1) {
  console.error('usage: node html-browser.js PAGE [--click ID] [--screenshot PNG W H]');
  process.exit(1);
}
let page = args[0], click = null, shot = null, expr = null;
for (let i = 1; i < args.length; i++) {
  if (args[i] === '--click') click = args[++i];
  else if (args[i] === '--eval') {
    expr = args[++i];
    if (expr.startsWith('@')) expr = fs.readFileSync(expr.slice(1), 'utf8');
  }
  else if (args[i] === '--screenshot') {
    shot = { file: args[i + 1], width: +args[i + 2], height: +args[i + 3] };
    i += 3;
  }
}
const hash = page.indexOf('#');
const url = 'file://' + path.resolve(hash < 0 ? page : page.slice(0, hash))
  + (hash < 0 ? '' : page.slice(hash));

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'ppprof-html-'));
const browser = process.env.CHROMIUM || 'chromium';
const chrome = spawn(browser, [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--remote-debugging-pipe', '--user-data-dir=' + profile,
  '--window-size=' + (shot ? shot.width + ',' + shot.height : '1200,800'),
  'about:blank'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });

// Ends the browser (its processes write into the profile until they
// are gone), then its throwaway profile, then this script.
let finishing = false;
function finish(code, message) {
  if (finishing) return;
  finishing = true;
  if (message) console.error('html-browser: ' + message);
  const done = () => {
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    } catch (e) {
      // A leftover in the temporary directory fails no test.
    }
    process.exit(code);
  };
  if (chrome.exitCode !== null || chrome.signalCode !== null) return done();
  chrome.on('exit', () => setTimeout(done, 200));
  try {
    chrome.stdio[3].write(JSON.stringify({ id: 0, method: 'Browser.close' }) + '\0');
  } catch (e) {
    chrome.kill('SIGKILL');
  }
  setTimeout(() => chrome.kill('SIGKILL'), 5000);
}
chrome.on('error', (e) => finish(1, 'cannot run ' + browser + ': ' + e.message));
const timer = setTimeout(() => finish(1, 'timed out'), 60000);

// The protocol: requests by id, answers and events as they come.
let nextId = 1, buffer = '';
const pending = new Map(), waiters = [];
chrome.stdio[4].on('data', (chunk) => {
  buffer += chunk.toString('utf8');
  let end;
  while ((end = buffer.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(JSON.stringify(msg.error)));
      else resolve(msg.result);
    } else if (msg.method) {
      for (let i = 0; i < waiters.length; i++)
        if (waiters[i].method === msg.method) {
          waiters.splice(i, 1)[0].resolve(msg.params);
          break;
        }
    }
  }
});
function send(method, params, sessionId) {
  const id = nextId++;
  const msg = { id, method, params: params || {} };
  if (sessionId) msg.sessionId = sessionId;
  chrome.stdio[3].write(JSON.stringify(msg) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function event(method) {
  return new Promise((resolve) => waiters.push({ method, resolve }));
}

async function main() {
  const { targetInfos } = await send('Target.getTargets');
  const target = targetInfos.find((t) => t.type === 'page');
  if (!target) throw new Error('no page target');
  const { sessionId } = await send('Target.attachToTarget',
                                   { targetId: target.targetId, flatten: true });
  const s = (method, params) => send(method, params, sessionId);
  await s('Page.enable');
  if (shot)
    await s('Emulation.setDeviceMetricsOverride',
            { width: shot.width, height: shot.height, deviceScaleFactor: 1, mobile: false });
  const loaded = event('Page.loadEventFired');
  await s('Page.navigate', { url });
  await loaded;
  const evaluate = async (expr) => {
    const r = await s('Runtime.evaluate', { expression: expr, returnByValue: true,
                                            awaitPromise: true });
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.text + ': ' + expr);
    return r.result.value;
  };
  if (click !== null) {
    // A click on the row, as a user selects a path; the page reacts to
    // the hash change, which comes after the click returns.
    const clicked = await evaluate(`(() => {
      const row = document.querySelector('tr[data-path="${click}"]');
      if (!row) return false;
      row.click();
      return new Promise((r) => setTimeout(() => r(true), 200));
    })()`);
    if (!clicked) throw new Error('no row for path ' + click);
  }
  const facts = await evaluate(`(() => {
    const ids = (sel) => [...document.querySelectorAll(sel)];
    return {
      marked: ids('tr.line.on-path').map((e) => e.id.slice(1)),
      selected: ids('tr.selected').map((e) => e.dataset.path),
      edges: ids('g.edge.on-path').length,
      nodes: ids('g.node.on-path').length,
      selection: (document.getElementById('selection') || {}).textContent || '',
      hash: location.hash,
    };
  })()`);
  console.log('marked: ' + facts.marked.join(' '));
  console.log('selected: ' + facts.selected.join(' '));
  console.log('edges: ' + facts.edges + '  nodes: ' + facts.nodes);
  console.log('selection: ' + facts.selection);
  console.log('hash: ' + facts.hash);
  if (expr !== null)
    console.log('eval: ' + JSON.stringify(await evaluate(expr)));
  if (shot) {
    const { data } = await s('Page.captureScreenshot', { format: 'png' });
    fs.writeFileSync(shot.file, Buffer.from(data, 'base64'));
  }
}

main().then(() => { clearTimeout(timer); finish(0); },
            (e) => { clearTimeout(timer); finish(1, e.message); });
