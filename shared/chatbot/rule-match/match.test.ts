import { describe, expect, it } from 'vitest';
import { must } from '../../must.ts';
import type { ChatbotRule } from '../rules.ts';
import { matchRule } from './match.ts';

let n = 0;
const rule = (r: Partial<ChatbotRule> & Pick<ChatbotRule, 'triggerType' | 'keyword'>): ChatbotRule => {
  n++;
  return {
    id: `rule_${1_700_000_000_000 + n}000000`,
    mobid: '*',
    replyType: 'text',
    response: `reply ${n}`,
    createdAt: new Date(1_700_000_000_000 + n * 1000).toISOString(),
    ...r,
  };
};
const keys = ['447700900001', 'sess-1', '123456789012345', 'clinic', 'global'];

describe('matchRule: triggers', () => {
  it('exact compares the whole message case- and accent-insensitively, ignoring end punctuation', () => {
    const r = rule({ triggerType: 'exact', keyword: 'Café hours' });
    for (const t of ['cafe HOURS', '  café   hours ', 'Cafe hours?', '¡café hours!'])
      expect(matchRule([r], t, keys), t).toBe(r);
    for (const t of ['cafe hours please', 'cafe', 'cafehours'])
      expect(matchRule([r], t, keys), t).toBeUndefined();
  });

  it('contains needs word boundaries where the keyword starts or ends with a letter or digit', () => {
    const r = rule({ triggerType: 'contains', keyword: 'hi' });
    for (const t of ['Hi there', 'oh, HI!', 'hi']) expect(matchRule([r], t, keys), t).toBe(r);
    for (const t of ['this', 'history', 'chi']) expect(matchRule([r], t, keys), t).toBeUndefined();
    const multi = rule({ triggerType: 'contains', keyword: 'Opening  Hours' });
    expect(matchRule([multi], 'what are your opening\nhours?', keys)).toBe(multi);
    const sym = rule({ triggerType: 'contains', keyword: '$$' });
    expect(matchRule([sym], 'price$$now', keys)).toBe(sym);
  });

  it('contains matches Malayalam spelled with chillu letters or ZWJ', () => {
    const r = rule({ triggerType: 'contains', keyword: 'ഡോക്ടർ' }); // chillu RR
    expect(matchRule([r], 'ഡോക്ടര്\u200d ഉണ്ടോ', keys)).toBe(r);
  });

  it('regex matches anywhere, case-insensitively; a pattern that does not compile never matches', () => {
    const r = rule({ triggerType: 'regex', keyword: '^price\\s+of\\s+\\w+' });
    expect(matchRule([r], 'PRICE of tv', keys)).toBe(r);
    expect(matchRule([r], 'the price of tv', keys)).toBeUndefined();
    expect(matchRule([rule({ triggerType: 'regex', keyword: '(a)\\1' })], 'aa', keys)).toBeUndefined();
  });

  it('answers a catastrophic regex on a long message fast', () => {
    const r = rule({ triggerType: 'regex', keyword: '(a+)+$' });
    const started = performance.now();
    expect(matchRule([r], `${'a'.repeat(30_000)}b`, keys)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('matchRule: precedence', () => {
  it('a session key rule beats a * rule, and the more specific key beats the less specific one', () => {
    const star = rule({ triggerType: 'exact', keyword: 'hello', mobid: '*' });
    const profile = rule({ triggerType: 'exact', keyword: 'hello', mobid: 'clinic' });
    const mobile = rule({ triggerType: 'contains', keyword: 'hello', mobid: '447700900001' });
    expect(matchRule([star, profile], 'hello', keys)).toBe(profile);
    // key first: the mobile's contains rule beats the profile's exact rule
    expect(matchRule([star, profile, mobile], 'hello', keys)).toBe(mobile);
  });

  it('within a key: exact > contains > regex; among contains the longest keyword; then the oldest', () => {
    const re = rule({ triggerType: 'regex', keyword: 'price' });
    const short = rule({ triggerType: 'contains', keyword: 'price' });
    const long = rule({ triggerType: 'contains', keyword: 'price of tv' });
    const exact = rule({ triggerType: 'exact', keyword: 'price of tv' });
    expect(matchRule([re, short, long, exact], 'Price of TV', keys)).toBe(exact);
    expect(matchRule([re, short, long], 'Price of TV?', keys)).toBe(long);
    expect(matchRule([re, short], 'price of tv', keys)).toBe(short);
    const older = rule({ triggerType: 'regex', keyword: 'p.ice' });
    const newer = rule({ triggerType: 'regex', keyword: 'pr.ce' });
    expect(matchRule([newer, older], 'price', keys)).toBe(older);
  });

  it('ai_fallback only when nothing else of any key matched, the most specific key first', () => {
    const fbStar = rule({ triggerType: 'ai_fallback', keyword: '', mobid: '*', replyType: 'ai_response' });
    const fbSess = rule({
      triggerType: 'ai_fallback',
      keyword: '*',
      mobid: 'sess-1',
      replyType: 'ai_response',
    });
    const starRule = rule({ triggerType: 'contains', keyword: 'hours', mobid: '*' });
    expect(matchRule([fbSess, fbStar, starRule], 'your hours?', keys)).toBe(starRule);
    expect(matchRule([fbStar, fbSess, starRule], 'anything else', keys)).toBe(fbSess);
    expect(matchRule([fbStar], 'anything', keys)).toBe(fbStar);
  });

  it('ignores rules stored under keys of other sessions', () => {
    const other = rule({ triggerType: 'exact', keyword: 'hello', mobid: 'sess-2' });
    expect(matchRule([other], 'hello', keys)).toBeUndefined();
    expect(matchRule([], 'hello', keys)).toBeUndefined();
  });

  // How fast (well under a millisecond among 1,000 rules) is measured by bench/chatbot-decision.ts,
  // not here: a timed test fails on a busy machine.
  it('decides among 1,000 rules of every kind', () => {
    const many = Array.from({ length: 1_000 }, (_, i) =>
      rule({
        triggerType: must((['exact', 'contains', 'regex'] as const)[i % 3], 'a trigger type'),
        keyword: `keyword${i}\\b`,
      }),
    );
    expect(matchRule(many, 'no rule matches this message at all', keys)).toBeUndefined();
    expect(matchRule(many, 'about KEYWORD998 here', keys)?.keyword).toBe('keyword998\\b');
    expect(matchRule(many, 'KEYWORD999\\b', keys)?.triggerType).toBe('exact');
  });
});
