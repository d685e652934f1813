import { describe, expect, it } from 'vitest';
import { CONTACT_ACTIVITY_STEP_MS, contactActivityDue, contactActivityWritten } from './contact-activity.ts';

describe('contact activity', () => {
  it('is due for a contact not written yet, a new name, or a minute of message time later', () => {
    const c = { phone: '919800000001', name: 'Asha', at: 1_000_000 };
    expect(contactActivityDue('t', 's', c)).toBe(true);
    contactActivityWritten('t', 's', c);
    expect(contactActivityDue('t', 's', { ...c, at: c.at + 1_000 })).toBe(false);
    // No name in the message: the one written stands.
    expect(contactActivityDue('t', 's', { phone: c.phone, at: c.at + 1_000 })).toBe(false);
    expect(contactActivityDue('t', 's', { ...c, name: 'Asha K', at: c.at + 1_000 })).toBe(true);
    expect(contactActivityDue('t', 's', { ...c, at: c.at + CONTACT_ACTIVITY_STEP_MS })).toBe(true);
    // Another session or tenant has its own contact.
    expect(contactActivityDue('t', 's2', c)).toBe(true);
    expect(contactActivityDue('t2', 's', c)).toBe(true);
  });

  it('is not due for an older message noted late with an older name', () => {
    const c = { phone: '919800000009', name: 'Kiran Rao', at: 9_000_000 };
    contactActivityWritten('t', 's', c);
    expect(contactActivityDue('t', 's', { ...c, name: 'Kiran', at: c.at - 1_000 })).toBe(false);
    contactActivityWritten('t', 's', { ...c, name: 'Kiran', at: c.at - 1_000 });
    expect(contactActivityDue('t', 's', { ...c, at: c.at + 1_000 })).toBe(false);
  });
});
