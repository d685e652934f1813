import { createServer, type Socket } from 'node:net';

/**
 * A PostgreSQL server that only records: it speaks the start of the real protocol (SSL refused, a
 * cleartext password asked for), notes the user, database and password each client sent, then
 * answers an error. For tests that must prove a credential never reached a host.
 */
export interface RecordedLogin {
  user?: string;
  database?: string;
  password?: string;
}

export async function startFakePostgres() {
  const logins: RecordedLogin[] = [];
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    serve(socket, logins);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    port,
    logins,
    connections: () => connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const SSL_REQUEST = 80877103;

function serve(socket: Socket, logins: RecordedLogin[]) {
  let buf = Buffer.alloc(0);
  let started = false;
  const login: RecordedLogin = {};
  socket.on('error', () => undefined);
  socket.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (!started) {
        if (buf.length < 8) return;
        const len = buf.readInt32BE(0);
        if (buf.length < len) return;
        const code = buf.readInt32BE(4);
        const body = buf.subarray(8, len);
        buf = buf.subarray(len);
        if (code === SSL_REQUEST) {
          socket.write('N');
          continue;
        }
        started = true;
        const parts = body.toString('utf8').split('\0');
        for (let i = 0; i + 1 < parts.length; i += 2) {
          if (parts[i] === 'user') login.user = parts[i + 1];
          if (parts[i] === 'database') login.database = parts[i + 1];
        }
        logins.push(login);
        // AuthenticationCleartextPassword.
        const ask = Buffer.alloc(9);
        ask.write('R', 0);
        ask.writeInt32BE(8, 1);
        ask.writeInt32BE(3, 5);
        socket.write(ask);
        continue;
      }
      if (buf.length < 5) return;
      const len = buf.readInt32BE(1);
      if (buf.length < len + 1) return;
      const type = String.fromCharCode(buf[0] as number);
      const body = buf.subarray(5, len + 1);
      buf = buf.subarray(len + 1);
      if (type === 'p') {
        login.password = body.toString('utf8').replace(/\0$/, '');
        const msg = Buffer.from('SFATAL\0C28P01\0Mrecorded only\0\0', 'utf8');
        const err = Buffer.alloc(5);
        err.write('E', 0);
        err.writeInt32BE(msg.length + 4, 1);
        socket.end(Buffer.concat([err, msg]));
        return;
      }
    }
  });
}
