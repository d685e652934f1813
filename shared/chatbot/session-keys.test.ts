import { describe, expect, it } from 'vitest';
import { sessionKeysOf } from './session-keys.js';

describe('sessionKeysOf', () => {
  it('orders keys mobile, sessionId, mobid, profile, global', () => {
    expect(
      sessionKeysOf({ sessionId: 's1', mobid: '123456789012345', mobile: '447700900001' }, 'clinic'),
    ).toEqual(['447700900001', 's1', '123456789012345', 'clinic', 'global']);
  });

  it('leaves out missing and repeated keys', () => {
    expect(sessionKeysOf({ sessionId: 's1' })).toEqual(['s1', 'global']);
    expect(sessionKeysOf({ sessionId: 's1', mobid: 's1', mobile: '' })).toEqual(['s1', 'global']);
  });
});
