// parlor's browser door: a terminal (xterm.js) whose WebSocket runs the same player
// session as ssh. The wire is server/webterm.go's: binary messages are the terminal's
// bytes both ways; text messages are JSON (the challenge, the hello, the welcome, the
// resizes). A linked browser keeps a non-extractable ECDSA P-256 key in IndexedDB and
// signs each visit's challenge with it (server/weblink.go).
import { Terminal } from '/assets/xterm/xterm.mjs';
import { FitAddon } from '/assets/xterm/addon-fit.mjs';

const MIN_COLS = 80, MIN_ROWS = 24;   // what every parlor screen is made for
const MAX_FONT = 16, MIN_FONT = 7;
const SIGNED_PREFIX = 'parlor browser sign-in\n';

const $ = (id) => document.getElementById(id);
const status = (text) => { $('status').textContent = text; };

// Where the address sends us: /t/CODE sits at a table, /w/CODE watches one, /link/CODE
// makes this browser an SSH player's.
let [, kind, code] = location.pathname.match(/^\/(t|w|link)\/([A-Za-z0-9-]{1,16})$/) || [];

// The key store: one record, {id, key}, in IndexedDB (a CryptoKey is kept there as it
// is; being non-extractable, its private half never leaves this browser).
function db() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open('parlor', 1);
    req.onupgradeneeded = () => req.result.createObjectStore('keys');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}
async function keyOp(mode, fn) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction('keys', mode);
    const req = fn(tx.objectStore('keys'));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error);
  });
}
const loadKey = () => keyOp('readonly', (s) => s.get('me')).catch(() => undefined);
const saveKey = (rec) => keyOp('readwrite', (s) => s.put(rec, 'me'));
const forgetKey = () => keyOp('readwrite', (s) => s.delete('me')).catch(() => {});

const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf)));
const unb64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

async function sign(privateKey, nonce) {
  const msg = new Uint8Array([...new TextEncoder().encode(SIGNED_PREFIX), ...unb64(nonce)]);
  return b64(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, msg));
}

const term = new Terminal({
  fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
  fontSize: MAX_FONT, cursorBlink: false, convertEol: true, scrollback: 0,
  screenReaderMode: localStorage.getItem('parlor-reader') === 'on',
  theme: { background: '#111111' },
});
const fit = new FitAddon();
term.loadAddon(fit);
term.open($('term'));

// A terminal at least MIN_COLS × MIN_ROWS: the font shrinks until the window holds
// one (a phone turned sideways does); below MIN_FONT parlor's own "please enlarge"
// screen says what to do.
function size() {
  let font = MAX_FONT;
  term.options.fontSize = font;
  fit.fit();
  while ((term.cols < MIN_COLS || term.rows < MIN_ROWS) && font > MIN_FONT) {
    font--;
    term.options.fontSize = font;
    fit.fit();
  }
}

// Phones: the keys their keyboards lack.
const touch = matchMedia('(pointer: coarse)').matches || innerWidth < 700;
const sequences = { esc: '\x1b', tab: '\t', enter: '\r', up: '\x1b[A', down: '\x1b[B', right: '\x1b[C', left: '\x1b[D', '?': '?', '/': '/' };
if (touch) {
  $('keys').hidden = false;
  for (const b of $('keys').querySelectorAll('button')) {
    // The terminal keeps the focus (and the phone its keyboard) while a key is tapped.
    b.addEventListener('mousedown', (e) => e.preventDefault());
    b.addEventListener('click', () => {
      if (b.dataset.key === 'kbd') { term.focus(); return; }
      send(sequences[b.dataset.key]);
    });
  }
}

// The screen-reader switch: xterm.js's own mode, remembered in this browser.
$('reader').checked = term.options.screenReaderMode;
$('reader-note').hidden = !$('reader').checked;
$('reader').addEventListener('change', () => {
  term.options.screenReaderMode = $('reader').checked;
  localStorage.setItem('parlor-reader', $('reader').checked ? 'on' : 'off');
  $('reader-note').hidden = !$('reader').checked;
  term.focus(); // the keys go to the game again
});

let ws = null;
const encoder = new TextEncoder();
function send(text) {
  if (ws && ws.readyState === WebSocket.OPEN && text) ws.send(encoder.encode(text));
}
term.onData(send);
term.onBinary((s) => { if (ws && ws.readyState === WebSocket.OPEN) ws.send(Uint8Array.from(s, (c) => c.charCodeAt(0))); });
term.onResize(({ cols, rows }) => {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'resize', cols, rows }));
});
let resizing = 0;
addEventListener('resize', () => { clearTimeout(resizing); resizing = setTimeout(size, 100); });

function closed(why) {
  $('closed-why').textContent = why;
  $('closed').hidden = false;
  status('disconnected');
}
$('again').addEventListener('click', () => { $('closed').hidden = true; connect(); });

async function connect() {
  size();
  const saved = await loadKey();
  let pair = null;
  if (kind === 'link') {
    pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  }
  ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
  ws.binaryType = 'arraybuffer';
  let welcomed = false;
  ws.onmessage = async (e) => {
    if (typeof e.data !== 'string') {
      term.write(new Uint8Array(e.data));
      return;
    }
    const msg = JSON.parse(e.data);
    if (msg.type === 'challenge') {
      const hello = { type: 'hello', cols: term.cols, rows: term.rows };
      if (kind === 't') hello.join = code;
      if (kind === 'w') hello.watch = code;
      if (pair) {
        hello.link = code;
        hello.public = b64(await crypto.subtle.exportKey('spki', pair.publicKey));
        hello.sig = await sign(pair.privateKey, msg.nonce);
      } else if (saved) {
        hello.key = saved.id;
        hello.sig = await sign(saved.key, msg.nonce);
      }
      ws.send(JSON.stringify(hello));
    } else if (msg.type === 'welcome') {
      welcomed = true;
      // The keys go to the game before anything is awaited: the screen comes right
      // after the welcome, and a key pressed once it shows must not be lost while a
      // linked browser's key is being saved.
      term.focus();
      if (pair && msg.key) {
        await saveKey({ id: msg.key, key: pair.privateKey });
        pair = null;
        history.replaceState(null, '', '/'); // the code is spent: a reload signs in with the key
        kind = code = undefined; // and so does "Connect again"
      } else if (saved && msg.guest) {
        await forgetKey(); // revoked: a guest from now on
      }
      status(msg.guest ? 'playing as a guest' : 'linked: playing as yourself');
      if (msg.ssh) {
        for (const c of document.querySelectorAll('#reader-note code')) c.textContent = msg.ssh + ' plain';
      }
    }
  };
  ws.onclose = (e) => {
    if (e.code === 1000 && e.reason === 'goodbye') {
      closed('You left parlor. Thanks for playing!');
    } else if (e.reason) {
      closed(e.reason);
    } else {
      closed(welcomed ? 'The connection to parlor was lost.' : 'parlor could not be reached.');
    }
  };
  status('connecting…');
}

connect();
