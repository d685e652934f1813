import { describe, expect, it } from 'vitest';
import {
  chatIdOf,
  chatOf,
  groupJid,
  groupOfJid,
  isGroupJid,
  isLidJid,
  isUserJid,
  jidOfChat,
  lidJid,
  lidOfJid,
  parseJid,
  phoneOfJid,
  userJid,
  writtenGroupJid,
} from './jid.ts';

describe('parseJid', () => {
  it('splits user, device and server; drops the agent', () => {
    expect(parseJid('919876543210@s.whatsapp.net')).toEqual({
      user: '919876543210',
      server: 's.whatsapp.net',
    });
    expect(parseJid('919876543210:3@s.whatsapp.net')).toEqual({
      user: '919876543210',
      server: 's.whatsapp.net',
      device: 3,
    });
    expect(parseJid('123456789012345_1:2@lid')).toEqual({
      user: '123456789012345',
      server: 'lid',
      device: 2,
    });
    expect(parseJid('919876543210-1600000000@g.us')).toEqual({
      user: '919876543210-1600000000',
      server: 'g.us',
    });
    expect(parseJid('status@broadcast')).toEqual({ user: 'status', server: 'broadcast' });
  });

  it('is not a JID without an @', () => {
    expect(parseJid('919876543210')).toBeUndefined();
    expect(parseJid('')).toBeUndefined();
  });
});

describe('building JIDs', () => {
  it('user, LID and group JIDs, with a device when there is one', () => {
    expect(userJid('919876543210')).toBe('919876543210@s.whatsapp.net');
    expect(userJid('919876543210', 3)).toBe('919876543210:3@s.whatsapp.net');
    expect(userJid('919876543210', 0)).toBe('919876543210@s.whatsapp.net');
    expect(lidJid('123456789012345')).toBe('123456789012345@lid');
    expect(lidJid('123456789012345', 2)).toBe('123456789012345:2@lid');
    expect(groupJid('120363012345678901')).toBe('120363012345678901@g.us');
    expect(groupJid('120363012345678901@g.us')).toBe('120363012345678901@g.us');
  });

  it('a group id as users write it', () => {
    expect(writtenGroupJid(' 120363012345678901 ')).toBe('120363012345678901@g.us');
    expect(writtenGroupJid('919876543210-1600000000@g.us')).toBe('919876543210-1600000000@g.us');
    expect(writtenGroupJid('120363012345678901:4@g.us')).toBeUndefined();
    expect(writtenGroupJid('919876543210@s.whatsapp.net')).toBeUndefined();
    expect(writtenGroupJid('family@g.us')).toBeUndefined();
    expect(writtenGroupJid('')).toBeUndefined();
  });
});

describe('reading JIDs', () => {
  it('knows the server', () => {
    expect(isGroupJid('1203@g.us')).toBe(true);
    expect(isGroupJid('1203')).toBe(false);
    expect(isLidJid('123@lid')).toBe(true);
    expect(isLidJid('123@s.whatsapp.net')).toBe(false);
    expect(isUserJid('919876543210@s.whatsapp.net')).toBe(true);
    expect(isUserJid('919876543210@c.us')).toBe(true);
    expect(isUserJid('919876543210')).toBe(false);
  });

  it('answers the user part only for its own server', () => {
    expect(phoneOfJid('919876543210:3@s.whatsapp.net')).toBe('919876543210');
    expect(phoneOfJid('919876543210@c.us')).toBe('919876543210');
    expect(phoneOfJid('123456789012345@lid')).toBeUndefined();
    expect(lidOfJid('123456789012345@lid')).toBe('123456789012345');
    expect(lidOfJid('123456789012345')).toBeUndefined();
    expect(groupOfJid('1203@g.us')).toBe('1203');
    expect(groupOfJid('1203@lid')).toBeUndefined();
  });
});

describe('chat ids', () => {
  it('digits and user JIDs are phones, then groups and LIDs; other servers are none of ours', () => {
    expect(chatOf('919876543210')).toEqual({ kind: 'phone', digits: '919876543210' });
    expect(chatOf('919876543210@s.whatsapp.net')).toEqual({ kind: 'phone', digits: '919876543210' });
    expect(chatOf('1203@g.us')).toEqual({ kind: 'group', id: '1203' });
    expect(chatOf('123456789012345@lid')).toEqual({ kind: 'lid', lid: '123456789012345' });
    expect(chatOf('status@broadcast')).toBeUndefined();
  });

  it('round-trip to our chat id, and map to the network JID', () => {
    for (const id of ['919876543210', '1203@g.us', '123456789012345@lid']) {
      const chat = chatOf(id);
      expect(chat && chatIdOf(chat)).toBe(id);
    }
    expect(jidOfChat({ kind: 'phone', digits: '919876543210' })).toBe('919876543210@s.whatsapp.net');
    expect(jidOfChat({ kind: 'group', id: '1203' })).toBe('1203@g.us');
    expect(jidOfChat({ kind: 'lid', lid: '123' })).toBe('123@lid');
  });
});
