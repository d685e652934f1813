import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WhatsAppAPI } from 'whatsapp-api-js/middleware/node-http';

/**
 * A Cloud API webhook receiver as a Cloud API integrator writes one: whatsapp-api-js's own Node
 * middleware answers the verification handshake (`handle_get`) and checks `X-Hub-Signature-256`
 * and parses Meta's envelope (`handle_post`), handing the parsed message or status to its handlers.
 */
export async function startCloudReceiver(opt: { appSecret: string; verifyToken: string }) {
  const wa = new WhatsAppAPI({
    token: 'unused-by-the-receiver',
    appSecret: opt.appSecret,
    webhookVerifyToken: opt.verifyToken,
    v: 'v21.0',
  });
  const messages: Array<{ phoneID: string; from: string; name?: string; message: any; raw: any }> = [];
  const statuses: Array<{ phoneID: string; phone?: string; status: string; id: string; error?: any }> = [];
  /** What the middleware answered to each POST (401 = signature refused). */
  const answers: number[] = [];
  wa.on.message = ({ phoneID, from, name, message, raw }) => {
    messages.push({ phoneID, from, name, message, raw });
  };
  wa.on.status = ({ phoneID, phone, status, id, error }) => {
    statuses.push({ phoneID, phone, status, id, error });
  };
  const server = createServer(async (req, res) => {
    if (req.method === 'GET') {
      try {
        const challenge = wa.handle_get(req);
        res.writeHead(200, { 'content-type': 'text/plain' }).end(challenge);
      } catch (e) {
        res.writeHead(typeof e === 'number' ? e : 500).end();
      }
      return;
    }
    const status = await wa.handle_post(req);
    answers.push(status);
    res.writeHead(status).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/whatsapp`,
    messages,
    statuses,
    answers,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
