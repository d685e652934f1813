import { describe, expect, it } from 'vitest';
import { chatInput, groupIdInput, phoneNumberInput } from './schema.ts';

const issue = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

describe('phone number input', () => {
  it('answers digits with country code', () => {
    const phone = phoneNumberInput();
    expect(phone.parse('+91 98765-43210')).toBe('919876543210');
    expect(phone.parse('919876543210@s.whatsapp.net')).toBe('919876543210');
    expect(issue(phone.safeParse('98765'))).toBe('a phone number with country code (7 to 15 digits)');
    expect(phone.safeParse('1234567890123456').success).toBe(false);
    expect(phone.safeParse('123456789012345@lid').success).toBe(false);
    expect(phone.safeParse('abc').success).toBe(false);
  });

  it('takes a national number for lookups', () => {
    const lookup = phoneNumberInput({ national: true });
    expect(lookup.parse('98765 43210')).toBe('9876543210');
    expect(lookup.parse('4002')).toBe('4002');
    expect(issue(lookup.safeParse('12'))).toBe(
      'a phone number, with or without country code (4 to 15 digits)',
    );
  });
});

describe('group and chat input', () => {
  it('a group id, with or without @g.us', () => {
    expect(groupIdInput().parse('120363012345678901')).toBe('120363012345678901@g.us');
    expect(groupIdInput().parse('120363012345678901@g.us')).toBe('120363012345678901@g.us');
    expect(issue(groupIdInput().safeParse('friends'))).toBe('a group id (<id>@g.us)');
  });

  it('a chat: a phone number as digits, a group as <id>@g.us', () => {
    expect(chatInput().parse('+91 98000 00001')).toBe('919800000001');
    expect(chatInput().parse('919876543210-1600000000@g.us')).toBe('919876543210-1600000000@g.us');
    expect(chatInput().safeParse('12').success).toBe(false);
    expect(chatInput().safeParse('x@g.us').success).toBe(false);
    expect(chatInput().safeParse('123456789012345@lid').success).toBe(false);
  });
});
