import { describe, expect, it } from 'vitest';
import { EXTRACTION_TOOL, ExtractionAnswer, extractionArchiveKey } from './extraction.ts';

describe('extraction answer schema', () => {
  it('accepts a booking with an ISO date-time and digits-only phone, and found=false alone', () => {
    expect(
      ExtractionAnswer.safeParse({
        found: true,
        type: 'booking',
        name: 'Asha',
        phone: '919812345678',
        what: 'haircut',
        when: '2026-11-27T10:00:00+05:30',
        status: 'new',
        confidence: 0.8,
      }).success,
    ).toBe(true);
    expect(
      ExtractionAnswer.safeParse({ found: true, type: 'lead', when: '2026-11-27T10:00:00' }).success,
    ).toBe(true);
    expect(ExtractionAnswer.safeParse({ found: false }).success).toBe(true);
  });

  it('refuses what the record cannot hold, naming the field', () => {
    for (const [bad, field] of [
      [{ found: true, type: 'booking', when: 'next friday' }, 'when'],
      [{ found: true, type: 'booking', phone: '+91 98123' }, 'phone'],
      [{ found: true, type: 'order' }, 'type'],
      [{ found: true, type: 'lead', confidence: 1.5 }, 'confidence'],
      [{ type: 'lead' }, 'found'],
    ] as const) {
      const r = ExtractionAnswer.safeParse(bad);
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual([field]);
    }
    expect(ExtractionAnswer.safeParse('{oops').success).toBe(false);
  });

  it('gives the model an object JSON schema with the fields, without $schema', () => {
    const s = EXTRACTION_TOOL.inputSchema as {
      type: string;
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(s.type).toBe('object');
    expect(Object.keys(s.properties)).toEqual(
      expect.arrayContaining([
        'found',
        'type',
        'name',
        'phone',
        'what',
        'when',
        'status',
        'notes',
        'confidence',
      ]),
    );
    expect(s.required).toEqual(['found']);
    expect('$schema' in s).toBe(false);
  });

  it('archives each version under the tenant', () => {
    expect(extractionArchiveKey('t1', 'ext_a', 3)).toBe('extractions/t1/ext_a/v000003.json');
  });
});
