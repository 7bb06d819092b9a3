// The server's HTTP API and the table WebSocket (docs/server-protocol.md).

const SESSION_KEY = 'junqi.session';
const SEATS_KEY = 'junqi.seats'; // {tableId: token}

function storage() {
  try { return globalThis.localStorage; } catch { return null; }
}

export function getSession() {
  return storage()?.getItem(SESSION_KEY) || null;
}
export function setSession(s) {
  if (s) storage()?.setItem(SESSION_KEY, s);
}
export function clearSession() {
  storage()?.removeItem(SESSION_KEY);
}

export function seatTokens() {
  try { return JSON.parse(storage()?.getItem(SEATS_KEY) || '{}') || {}; } catch { return {}; }
}
export function seatToken(tableId) {
  return seatTokens()[tableId] || null;
}
export function saveSeatToken(tableId, token) {
  const all = seatTokens();
  if (token) all[tableId] = token;
  else delete all[tableId];
  storage()?.setItem(SEATS_KEY, JSON.stringify(all));
}

/** A refused or failed request: the HTTP status (0: no answer), the server's `code` and `args`
 * (docs/server-protocol.md, "Error codes"; null for errors the client makes itself) and its
 * English text as the message. */
export class ApiError extends Error {
  constructor(status, message, code = null, args = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.args = args;
  }
}

export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  const session = getSession();
  if (session) headers.Authorization = `Bearer ${session}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'the server cannot be reached');
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { text }; }
  if (!res.ok) {
    const body = data && typeof data === 'object' ? data : {};
    throw new ApiError(res.status, body.error || `${res.status} ${res.statusText}`, body.code || null, body.args || {});
  }
  return data;
}

/** Make sure we have a session (a guest if nothing else). Returns the player or null. */
export async function ensureSession() {
  if (getSession()) {
    try {
      const me = await api('GET', '/api/me');
      return me.player;
    } catch (e) {
      if (e.status !== 401 && e.status !== 403 && e.status !== 404) return null;
    }
  }
  try {
    const g = await api('POST', '/api/guest', {});
    setSession(g.session);
    return g.player;
  } catch {
    return null;
  }
}

/** Register an account; a guest who registers keeps its games and ratings (same player id). */
export async function register(name, password) {
  const r = await api('POST', '/api/register', { name, password });
  setSession(r.session);
  return r.player;
}

/** Log in; the session replaces the current one. */
export async function login(name, password) {
  const r = await api('POST', '/api/login', { name, password });
  setSession(r.session);
  return r.player;
}

/** Log out: end the session on the server, forget it, and continue as a new guest. */
export async function logout() {
  if (getSession()) {
    try { await api('POST', '/api/logout'); } catch { /* an older server, or already ended */ }
  }
  clearSession();
  return ensureSession();
}

/**
 * One table's WebSocket with automatic reconnection. Handlers: onFrame(frame), onState('open'|
 * 'closed'|'reconnecting'). Reconnects send hello with the seat token and the last event version.
 */
export class TableSocket {
  constructor(tableId, { onFrame, onState, lastV = null }) {
    this.tableId = tableId;
    this.onFrame = onFrame;
    this.onState = onState || (() => {});
    this.lastV = lastV;
    this.closed = false;
    this.retry = 0;
    this.nextId = 1;
    this.connect();
  }
  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.tableId)}`;
  }
  connect() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      const hello = { type: 'hello' };
      const session = getSession();
      if (session) hello.session = session;
      const token = seatToken(this.tableId);
      if (token) hello.token = token;
      if (this.lastV !== null && this.lastV !== undefined) hello.last_v = this.lastV;
      ws.send(JSON.stringify(hello));
      this.onState('open');
    };
    ws.onmessage = (m) => {
      let frame;
      try { frame = JSON.parse(m.data); } catch { return; }
      if (typeof frame.v === 'number' && (frame.type === 'events' || frame.type === 'sync')) this.lastV = frame.v;
      this.onFrame(frame);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onState('reconnecting');
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => { /* onclose follows */ };
  }
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    const f = { ...frame, id: this.nextId++ };
    this.ws.send(JSON.stringify(f));
    return f.id;
  }
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    try { this.ws.close(); } catch { /* ignore */ }
  }
}
