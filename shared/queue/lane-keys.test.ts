import { describe, expect, it } from 'vitest';
import { commandGroup, commandLane, eventLane, sessionLane, sessionOfCommandGroup } from './lane-keys.ts';

describe('session lanes', () => {
  it('gives an event body the lane its session has everywhere else (emitter, events consumer)', () => {
    const event = { kind: 'status', tenantId: 't1', sessionId: 's1', at: 1 };
    expect(eventLane(JSON.stringify(event))).toBe(sessionLane(event));
  });

  it('keeps the same session id of two tenants in two lanes', () => {
    expect(sessionLane({ tenantId: 'a', sessionId: 's' })).not.toBe(
      sessionLane({ tenantId: 'b', sessionId: 's' }),
    );
  });

  it('gives an event without a session a lane of its own (none)', () => {
    expect(eventLane(JSON.stringify({ tenantId: 't1' }))).toBeUndefined();
    expect(eventLane(JSON.stringify({ sessionId: 's1' }))).toBeUndefined();
  });

  it('orders a command body locally as SQS orders it in the cloud: by the FIFO group it was sent under', () => {
    const cmd = { kind: 'send', tenantId: 't1', sessionId: 'sess_1', commandId: 'cmd_1' };
    expect(commandLane(JSON.stringify(cmd))).toBe(commandGroup(cmd.sessionId));
    expect(commandLane(JSON.stringify({ kind: 'x' }))).toBeUndefined();
  });

  it('reads the session back from the FIFO group a command was sent under', () => {
    // The host routes a received command to its shard by this; queued commands carry the old spelling.
    expect(commandGroup('sess_1')).toBe('sess_1');
    expect(sessionOfCommandGroup(commandGroup('sess_1'))).toBe('sess_1');
  });
});
