import { createInterface } from 'node:readline';
import {
  type AuthenticationState,
  DisconnectReason,
  initAuthCreds,
  makeWASocket,
  type SignalDataSet,
  WA_CERT_DETAILS,
} from '@whiskeysockets/baileys';
import { pino } from 'pino';

/**
 * The floor of bench/baileys-sessions.ts, in a process of its own: bare Baileys sockets
 * (makeWASocket with only auth, a silent logger and the network's URL; every other option Baileys'
 * default), each with its auth state in a plain in-memory map, no host and none of our caches.
 *
 * Protocol (one JSON object a line on stdout; commands on stdin):
 * - prints `{"loaded":true}` once Baileys is imported and warmed (the empty process);
 * - `open <n>`: opens sockets until n are open, printing `{"qr":…,"i":k}` for each link to scan
 *   and `{"open":n}` once all n are connected (the 515 after a scan is followed, as a host does).
 * Env: BAILEYS_WS_URL, BAILEYS_TEST_ROOT_PUBLIC_KEY (the fake network's).
 */
const url = process.env.BAILEYS_WS_URL;
const root = process.env.BAILEYS_TEST_ROOT_PUBLIC_KEY;
if (!url || !root) throw new Error('BAILEYS_WS_URL and BAILEYS_TEST_ROOT_PUBLIC_KEY are required');
WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(root, 'hex');
const logger = pino({ level: 'silent' });
const say = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

function memoryAuth(): AuthenticationState {
  const keys = new Map<string, unknown>();
  return {
    creds: initAuthCreds(),
    keys: {
      get: async (type, ids) => {
        const out: Record<string, never> = {};
        for (const id of ids) {
          const v = keys.get(`${type}.${id}`);
          if (v !== undefined && v !== null) out[id] = v as never;
        }
        return out;
      },
      set: async (data: SignalDataSet) => {
        for (const [type, byId] of Object.entries(data))
          for (const [id, v] of Object.entries(byId ?? {})) {
            if (v === null || v === undefined) keys.delete(`${type}.${id}`);
            else keys.set(`${type}.${id}`, v);
          }
      },
    },
  };
}

const sockets: unknown[] = [];
let open = 0;

/** One account's socket, reconnected (same auth) after the restart the network asks for after a scan. */
function start(i: number, auth = memoryAuth(), onOpen?: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const sock = makeWASocket({ auth, logger, waWebSocketUrl: url });
    sockets[i] = sock;
    let qrShown = false;
    sock.ev.on('creds.update', () => {}); // in memory: the creds object is the state
    sock.ev.on('connection.update', (u) => {
      if (u.qr && !qrShown) {
        qrShown = true;
        say({ qr: u.qr, i });
      }
      if (u.connection === 'open') {
        open++;
        onOpen?.();
        resolve();
      }
      if (u.connection === 'close') {
        const code = (u.lastDisconnect?.error as { output?: { statusCode?: number } })?.output?.statusCode;
        if (code === DisconnectReason.restartRequired) start(i, auth, onOpen).then(resolve, reject);
        else reject(new Error(`socket ${i} closed (${code})`));
      }
    });
  });
}

say({ loaded: true });
createInterface({ input: process.stdin }).on('line', async (line) => {
  const [cmd, arg] = line.trim().split(/\s+/);
  if (cmd !== 'open') return;
  const n = Number(arg);
  const want: Promise<void>[] = [];
  for (let i = sockets.length; i < n; i++) want.push(start(i));
  await Promise.all(want);
  say({ open });
});
