// The mock inspector (docs/integrators.md, "The inspector page"): the request journal live, one
// exchange in full, the state of each organization, and the control API's buttons. Plain script, no
// build step; the control token lives in sessionStorage and goes in X-Mock-Control-Token on each call.
// Everything shown from the journal is text (textContent), never markup.
'use strict';

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const c of children) node.append(c);
  return node;
};
const MAX_ROWS = 500;
let token = sessionStorage.getItem('mms-control-token') || '';
let entries = [];
let selected;
let streamAbort;

async function call(method, path, body) {
  const init = { method, headers: { 'X-Mock-Control-Token': token } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new Error(`${res.status} ${data?.detail ?? res.statusText}`);
  return data;
}

function say(text, bad = false) {
  Object.assign($('#status'), { textContent: text, className: bad ? 'bad' : 'ok' });
}

// ── Journal ──────────────────────────────────────────────────────────────────────────────────────
function filters() {
  const form = new FormData($('#filters'));
  return Object.fromEntries([...form].filter(([, v]) => v !== ''));
}

function matches(e, f) {
  if (f.method && e.method !== f.method) return false;
  if (f.path) {
    const ok = f.path.endsWith('*') ? e.path.startsWith(f.path.slice(0, -1)) : e.path === f.path || e.operationId === f.path;
    if (!ok) return false;
  }
  if (f.status) {
    const s = f.status.toLowerCase();
    if (s.endsWith('xx') ? String(e.status)[0] !== s[0] : String(e.status) !== s) return false;
  }
  if (f.organization && e.organization !== f.organization) return false;
  if (f.key && !(e.key && (e.key.id === f.key || e.key.masked.endsWith(f.key)))) return false;
  return true;
}

function row(e) {
  const tr = el('tr', { className: `s${String(e.status)[0]}` });
  tr.dataset.seq = e.seq;
  const cells = [e.seq, e.time.slice(11, 23), e.method, e.path + (e.query ? `?${e.query}` : ''), e.status,
    e.decided.stage + (e.decided.code ? ` (${e.decided.code})` : ''), e.organization || '', e.key ? e.key.masked : ''];
  const classes = ['', '', '', 'path', 'st', 'wrap', '', ''];
  cells.forEach((c, i) => tr.append(el('td', { textContent: String(c), className: classes[i] })));
  tr.cells[1].title = e.time;
  tr.addEventListener('click', () => show(e));
  return tr;
}

function render() {
  const f = filters();
  const body = $('#entries tbody');
  body.replaceChildren(...entries.filter((e) => matches(e, f)).reverse().map(row));
  if (selected) body.querySelector(`tr[data-seq="${selected.seq}"]`)?.classList.add('selected');
}

let journalInfo = { recorded: 0, size: 0, enabled: false };
function stateText() {
  $('#journal-state').textContent = journalInfo.enabled ? `recording: ${journalInfo.recorded} exchanges so far, the last ${journalInfo.size} kept` : 'off: nothing is recorded';
}

function add(e) {
  journalInfo.recorded = e.seq;
  stateText();
  entries.push(e);
  if (entries.length > MAX_ROWS) entries.shift();
  if (matches(e, filters())) $('#entries tbody').prepend(row(e));
}

const shellQuote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command replaying the exchange: the key stays a variable, never written out in full. */
function curlOf(e) {
  const url = `${location.origin}${e.path}${e.query ? `?${e.query}` : ''}`;
  const lines = [`curl -i -X ${e.method} ${shellQuote(url)}`];
  if (e.key) lines.push(`  -H "Authorization: Bearer $MMS_KEY"`);
  const type = e.request.headers['content-type'];
  if (type) lines.push(`  -H ${shellQuote(`Content-Type: ${type}`)}`);
  for (const h of ['prefer', 'idempotency-key', 'if-match']) if (e.request.headers[h]) lines.push(`  -H ${shellQuote(`${h}: ${e.request.headers[h]}`)}`);
  if (e.request.body !== undefined) lines.push(`  --data-raw ${shellQuote(e.request.body)}`);
  const head = e.key ? `# MMS_KEY: the key ${e.key.masked} in full (GET /__mock/profile, or the key you minted)\n` : '';
  return head + lines.join(' \\\n');
}

const headersText = (h) => Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n');

function show(e) {
  selected = e;
  render();
  const d = e.decided;
  const v = e.validation;
  const validation = !v.checked ? 'not checked: answered before the request was routed'
    : v.valid ? 'valid against the OpenAPI description'
    : v.errors.map((x) => `${x.in} ${x.path}: ${x.keyword}: ${x.message}`).join('\n');
  const article = $('#detail');
  article.hidden = false;
  article.replaceChildren(
    el('h2', { textContent: `#${e.seq} ${e.method} ${e.path} → ${e.status}` }),
    el('p', { textContent: `${e.time} · ${e.durationMs} ms · ${e.requestId}${e.operationId ? ` · ${e.operationId}` : ''}` }),
    el('h3', { textContent: 'Decided by' }),
    el('p', { className: 'decided', textContent: `${d.stage}${d.code ? `: ${d.code}` : ''}${d.requirement ? ` (${d.requirement})` : ''}${d.detail ? ` — ${d.detail}` : ''}` }),
    el('h3', { textContent: 'Validation' }),
    el('pre', { className: v.valid ? 'validation ok' : 'validation bad', textContent: validation }),
    el('h3', { textContent: 'Key' }),
    el('p', { textContent: e.key ? `${e.key.masked}${e.key.label ? ` · ${e.key.label} · ${e.key.prefix} · scopes ${Array.isArray(e.key.scopes) ? e.key.scopes.join(' ') : e.key.scopes}` : ' (not accepted)'}` : 'none' }),
    el('h3', { textContent: 'Request' }),
    el('pre', { className: 'request', textContent: `${e.method} ${e.path}${e.query ? `?${e.query}` : ''}\n${headersText(e.request.headers)}${e.request.body !== undefined ? `\n\n${e.request.body}${e.request.truncated ? '\n… (cut)' : ''}` : ''}` }),
    el('h3', { textContent: 'Response' }),
    el('pre', { className: 'response', textContent: `${e.status}\n${headersText(e.response.headers)}${e.response.body !== undefined ? `\n\n${e.response.body}${e.response.truncated ? '\n… (cut)' : ''}` : ''}` }),
    el('h3', { textContent: 'Replay with curl' }),
    el('pre', { className: 'curl', textContent: curlOf(e) }),
  );
}

async function loadJournal() {
  const page = await call('GET', '/__mock/journal?limit=500');
  entries = page.entries;
  journalInfo = { recorded: page.recorded, size: page.size, enabled: page.enabled };
  stateText();
  $('#journal-toggle').textContent = page.enabled ? 'Turn off' : 'Turn on';
  $('#journal-toggle').dataset.enabled = String(page.enabled);
  render();
}

/** Reads the journal's event stream with fetch (EventSource cannot send the token header); reconnects. */
async function follow() {
  streamAbort?.abort();
  const abort = (streamAbort = new AbortController());
  try {
    const res = await fetch('/__mock/journal/stream', { headers: { 'X-Mock-Control-Token': token }, signal: abort.signal });
    if (!res.ok) throw new Error(`stream: ${res.status}`);
    say('connected, live');
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let cut;
      while ((cut = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
        if (data && /^event: entry$/m.test(block)) add(JSON.parse(data));
      }
    }
  } catch (err) {
    if (abort.signal.aborted) return;
    say(`stream interrupted (${err.message}); reconnecting`, true);
  }
  if (!abort.signal.aborted) setTimeout(() => loadJournal().then(follow, () => setTimeout(follow, 1000)), 1000);
}

// ── State ────────────────────────────────────────────────────────────────────────────────────────
let orgDoc;
async function loadOrgs() {
  const orgs = await call('GET', '/__mock/orgs');
  const select = $('#org');
  const current = select.value;
  select.replaceChildren(...orgs.map((o) => el('option', { value: o.id, textContent: `${o.id} (${o.name})` })));
  if (orgs.some((o) => o.id === current)) select.value = current;
  await loadOrg();
}

async function loadOrg() {
  const id = $('#org').value;
  if (!id) return;
  const doc = await call('GET', `/__mock/state?org=${encodeURIComponent(id)}`);
  orgDoc = doc.organizations[0];
  const kinds = Object.keys(orgDoc).filter((k) => Array.isArray(orgDoc[k]) || (orgDoc[k] && typeof orgDoc[k] === 'object'));
  const select = $('#kind');
  const current = select.value;
  select.replaceChildren(...kinds.map((k) => el('option', { value: k, textContent: `${k} (${Array.isArray(orgDoc[k]) ? orgDoc[k].length : Object.keys(orgDoc[k]).length})` })));
  if (kinds.includes(current)) select.value = current;
  showKind();
}

function showKind() {
  const kind = $('#kind').value;
  const records = orgDoc?.[kind];
  const list = Array.isArray(records) ? records : records ? Object.entries(records) : [];
  $('#kind-count').textContent = `${list.length} records${list.length > 100 ? ', the first 100 shown' : ''}`;
  $('#records').textContent = JSON.stringify(Array.isArray(records) ? records.slice(0, 100) : records, null, 2);
}

// ── Control ──────────────────────────────────────────────────────────────────────────────────────
const out = (label, data) => ($('#control-out').textContent = `${label}\n${JSON.stringify(data, null, 2)}`);

function remember(keys) {
  for (const k of keys) {
    const masked = `${k.secret.slice(0, k.secret.indexOf('_', 3) + 1)}…${k.secret.slice(-4)}`;
    const copy = el('button', { type: 'button', textContent: 'Copy' });
    let secret = k.secret;
    copy.addEventListener('click', async () => {
      if (secret) await navigator.clipboard.writeText(secret).catch(() => undefined);
      secret = undefined;
      copy.disabled = true;
    });
    $('#secrets ul').append(el('li', { textContent: `${k.orgId ?? ''} ${masked} (${k.id}) ` }, copy));
    delete k.secret;
    k.masked = masked;
  }
}

async function refreshControl() {
  const clock = await call('GET', '/__mock/clock');
  $('#clock-now').textContent = `now ${clock.now} (advanced ${clock.advancedSeconds} s)`;
  $('#faults-now').textContent = `current: ${JSON.stringify(await call('GET', '/__mock/faults'))}`;
}

function onSubmit(id, work) {
  $(id).addEventListener('submit', (event) => {
    event.preventDefault();
    work(new FormData(event.target)).then(() => refreshControl(), (err) => say(err.message, true));
  });
}

function wire() {
  for (const b of document.querySelectorAll('nav button')) {
    b.addEventListener('click', () => {
      for (const o of document.querySelectorAll('nav button')) {
        o.setAttribute('aria-pressed', String(o === b));
        $(`#tab-${o.dataset.tab}`).hidden = o !== b;
      }
      if (b.dataset.tab === 'state') loadOrgs().catch((err) => say(err.message, true));
      if (b.dataset.tab === 'control') refreshControl().catch((err) => say(err.message, true));
    });
  }
  $('#filters').addEventListener('input', render);
  $('#filters').addEventListener('submit', (event) => event.preventDefault());
  $('#journal-clear').addEventListener('click', () => call('DELETE', '/__mock/journal').then(loadJournal, (err) => say(err.message, true)));
  $('#journal-toggle').addEventListener('click', () => call('PUT', '/__mock/journal', { enabled: $('#journal-toggle').dataset.enabled !== 'true' }).then(loadJournal, (err) => say(err.message, true)));
  $('#org').addEventListener('change', () => loadOrg().catch((err) => say(err.message, true)));
  $('#kind').addEventListener('change', showKind);
  onSubmit('#clock', async (f) => out('clock advanced', await call('POST', '/__mock/clock/advance', { seconds: Number(f.get('seconds')) })));
  onSubmit('#faults', async (f) => {
    const config = { errorRate: Number(f.get('errorRate')), errorStatus: Number(f.get('errorStatus')), rateLimitRate: Number(f.get('rateLimitRate')), latencyMs: Number(f.get('latencyMs')) };
    if (f.get('pathPattern')) config.pathPattern = f.get('pathPattern');
    out('faults set', await call('PUT', '/__mock/faults', config));
  });
  $('#faults-clear').addEventListener('click', () => call('DELETE', '/__mock/faults').then(() => (out('faults cleared', {}), refreshControl()), (err) => say(err.message, true)));
  onSubmit('#reset', async () => out('reset', await call('POST', '/__mock/reset', {})));
  onSubmit('#sandbox', async (f) => {
    const made = await call('POST', '/__mock/organizations', { name: f.get('name'), data: f.get('data') });
    const keys = made.keys.map((k) => ({ ...k, orgId: made.organization.id }));
    remember(keys);
    $('#mint [name=orgId]').value = made.organization.id;
    out('organization created', { organization: made.organization, keys });
  });
  onSubmit('#mint', async (f) => {
    const key = await call('POST', '/__mock/keys', { orgId: f.get('orgId'), prefix: f.get('prefix') });
    remember([key]);
    out('key minted', key);
  });
}

async function connect() {
  try {
    await loadJournal();
  } catch (err) {
    say(`cannot connect: ${err.message}`, true);
    $('#app').hidden = true;
    return;
  }
  sessionStorage.setItem('mms-control-token', token);
  $('#token').value = '';
  $('#app').hidden = false;
  follow();
}

document.addEventListener('DOMContentLoaded', () => {
  wire();
  $('#login').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $('#token').value.trim();
    connect();
  });
  if (token) connect();
});
