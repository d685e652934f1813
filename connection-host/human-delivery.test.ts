import { describe, expect, it } from 'vitest';
import { must } from '#shared/must';
import { type DeliveryBounds, deliverHumanLike, deliveryTiming } from './human-delivery.ts';

const bounds: DeliveryBounds = {
  pauseMinMs: 300,
  pauseMaxMs: 1000,
  typingMinMs: 1200,
  typingMaxMs: 5000,
  msPerChar: 30,
};

describe('deliveryTiming', () => {
  it('pauses 300–1000 ms and types 30 ms per character within the bounds', () => {
    expect(deliveryTiming('hi', bounds, () => 0)).toEqual({ pauseMs: 300, typingMs: 1200 });
    expect(deliveryTiming('x'.repeat(100), bounds, () => 1)).toEqual({ pauseMs: 1000, typingMs: 3000 });
    expect(deliveryTiming('x'.repeat(1000), bounds, () => 0.5)).toEqual({ pauseMs: 650, typingMs: 5000 });
    // Characters, not UTF-16 units: an emoji is one character.
    expect(deliveryTiming('😀'.repeat(50), { ...bounds, typingMinMs: 0 }, () => 0).typingMs).toBe(1500);
  });
});

describe('deliverHumanLike', () => {
  it('shows the presence, waits, sends, then pauses; a failed presence never stops the message', async () => {
    const log: Array<[string, number]> = [];
    const t0 = Date.now();
    let fail = true;
    const link = {
      async presence(u: { type: string }) {
        log.push([u.type, Date.now() - t0]);
        if (fail) {
          fail = false;
          throw new Error('socket busy');
        }
      },
    };
    const errors: unknown[] = [];
    await deliverHumanLike(
      link,
      '15550001111',
      'composing',
      { pauseMs: 20, typingMs: 80 },
      async () => {
        log.push(['message', Date.now() - t0]);
      },
      (e) => errors.push(e),
    );
    expect(log.map(([k]) => k)).toEqual(['composing', 'message', 'paused']);
    const [, composingAt] = must(log[0], 'the composing entry');
    const [, messageAt] = must(log[1], 'the message entry');
    expect(composingAt).toBeGreaterThanOrEqual(19);
    expect(messageAt - composingAt).toBeGreaterThanOrEqual(79);
    expect(errors).toHaveLength(1);
  });
});
