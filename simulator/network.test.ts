import { afterEach, describe, expect, it, vi } from 'vitest';
import { must } from '#shared/must';
import type { Link } from './network/accounts.ts';
import { KEPT_MAX } from './network/peers.ts';
import { SimNetwork } from './network.ts';
import type { Frame } from './protocol.ts';

/** A link that records what the network pushes to it. */
function recordingLink(net: SimNetwork): Link & { frames: Frame[]; ended: boolean } {
  const link = {
    id: net.newLinkId(),
    frames: [] as Frame[],
    ended: false,
    push(frame: Frame) {
      link.frames.push(frame);
    },
    end() {
      link.ended = true;
    },
  };
  return link;
}

/** Links `sessionId` by QR and answers the device's token. */
async function linked(net: SimNetwork, sessionId: string) {
  const first = recordingLink(net);
  net.attach(sessionId, first, { method: 'qr' });
  await vi.advanceTimersByTimeAsync(1_000);
  const creds = first.frames.find((f) => f.type === 'linked');
  if (creds?.type !== 'linked') throw new Error('not linked');
  return { first, token: creds.token };
}

const messagesOf = (link: { frames: Frame[] }) =>
  link.frames.flatMap((f) => (f.type === 'message' ? [f.text] : []));

describe('SimNetwork: inbound messages are kept until the device acknowledges them', () => {
  afterEach(() => vi.useRealTimers());

  it('re-sends, on the next link, what a link that died without a close never acknowledged', async () => {
    vi.useFakeTimers();
    const net = new SimNetwork();
    const { first, token } = await linked(net, 's1');
    // The host holding `first` dies: nothing more is read from it, and the network has not noticed.
    net.inbound('s1', { from: '919800000001', kind: 'text', text: 'one' });
    net.inbound('s1', { from: '919800000001', kind: 'text', text: 'two' });
    expect(messagesOf(first)).toEqual(['one', 'two']);
    const second = recordingLink(net);
    net.attach('s1', second, { method: 'qr', token });
    expect(messagesOf(second)).toEqual(['one', 'two']);
  });

  it('forgets what the device acknowledged; re-sends the rest in order, before what waited for a link', async () => {
    vi.useFakeTimers();
    const net = new SimNetwork();
    const { first, token } = await linked(net, 's1');
    const one = must(
      net.inbound('s1', { from: '919800000001', kind: 'text', text: 'one' }),
      'the id of message one',
    );
    net.inbound('s1', { from: '919800000001', kind: 'text', text: 'two' });
    expect(net.ack('s1', 'wrong token', [one])).toBe(false);
    expect(net.ack('s1', token, [one])).toBe(true);
    net.detach('s1', first);
    net.inbound('s1', { from: '919800000001', kind: 'text', text: 'three' });
    const second = recordingLink(net);
    net.attach('s1', second, { method: 'qr', token });
    expect(messagesOf(second)).toEqual(['two', 'three']);
    expect(net.unacked('s1')).toHaveLength(2);
  });

  it('re-sends a message from behind a LID with its mapping', async () => {
    vi.useFakeTimers();
    const net = new SimNetwork();
    const { token } = await linked(net, 's1');
    net.inbound('s1', { from: '919800000001', kind: 'text', text: 'hidden', lidMode: true });
    const second = recordingLink(net);
    net.attach('s1', second, { method: 'qr', token });
    const [mapping, message] = second.frames.slice(1);
    expect(mapping).toMatchObject({ type: 'lid-mapping', phone: '919800000001' });
    expect(message).toMatchObject({ type: 'message', from: '', text: 'hidden' });
    expect(
      mapping?.type === 'lid-mapping' && message?.type === 'message' && mapping.lid === message.lid,
    ).toBe(true);
  });

  it('refuses new messages once KEPT_MAX are unacknowledged, and takes them again after an ack', async () => {
    vi.useFakeTimers();
    const net = new SimNetwork();
    const { token } = await linked(net, 's1');
    const ids = Array.from({ length: KEPT_MAX }, () =>
      net.inbound('s1', { from: '9198', kind: 'text', text: 'x' }),
    );
    expect(ids.every((id) => id?.startsWith('SIM'))).toBe(true);
    expect(net.inbound('s1', { from: '9198', kind: 'text', text: 'x' })).toBe('full');
    net.ack('s1', token, [must(ids[0], 'the first id')]);
    expect(net.inbound('s1', { from: '9198', kind: 'text', text: 'x' })).toMatch(/^SIM/);
  });

  it('forgets the unacknowledged messages of a device that logs out', async () => {
    vi.useFakeTimers();
    const net = new SimNetwork();
    const { token } = await linked(net, 's1');
    net.inbound('s1', { from: '9198', kind: 'text', text: 'x' });
    net.logout('s1', token);
    expect(net.unacked('s1')).toEqual([]);
  });
});
