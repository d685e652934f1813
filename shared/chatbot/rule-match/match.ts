import { LRUCache } from 'lru-cache';
import type { ChatbotRule, TriggerType } from '../rules.ts';
import { cachedRegexSet, cachedSafeRegex } from '../safe-regex.ts';
import { isWordChar, normaliseForMatch, trimPunctuation } from './normalise.ts';

/**
 * Rule precedence, first match wins:
 * 1. the session key the rule is stored under, in the order of `keys` (most specific first, as
 *    `sessionKeysOf` gives them), then `*` (all sessions);
 * 2. within one key: `exact`, then `contains` (the longest keyword first), then `regex`, then by age
 *    (oldest first);
 * 3. only when no `exact`/`contains`/`regex` rule of any key matched: the `ai_fallback` rule of the
 *    most specific key that has one (its keyword is not consulted).
 * Rules stored under a key that is not in `keys` (nor `*`) never apply.
 */
export function matchRule(rules: ChatbotRule[], text: string, keys: string[]): ChatbotRule | undefined {
  const keyRank = new Map<string, number>();
  for (const k of keys) if (!keyRank.has(k)) keyRank.set(k, keyRank.size);
  if (!keyRank.has('*')) keyRank.set('*', keyRank.size);

  const { ordered, regexRules } = precedenceOrder(rules, keyRank);
  const msg = message(text);
  // Every regex rule is tried in one pass (an RE2 set), and only once a regex rule is next in line.
  let regexHits: Set<ChatbotRule> | undefined;
  const regexMatches = (r: ChatbotRule) => {
    if (!regexHits) {
      const hits = cachedRegexSet(regexRules.map((x) => x.keyword))(text);
      regexHits = new Set(regexRules.filter((_, i) => hits.has(i)));
    }
    return regexHits.has(r);
  };
  for (const r of ordered) {
    if (r.triggerType === 'regex' ? regexMatches(r) : triggerMatches(r, msg)) return r;
  }
  return undefined;
}

interface Message {
  text: string;
  norm: string;
  bare: string;
}
const message = (text: string): Message => {
  const norm = normaliseForMatch(text);
  return { text, norm, bare: trimPunctuation(norm) };
};

/** Whether one rule's trigger matches the message (regex rules one by one; `matchRule` batches them). */
export function ruleMatches(rule: ChatbotRule, text: string): boolean {
  return triggerMatches(rule, message(text));
}

function triggerMatches(rule: ChatbotRule, m: Message): boolean {
  switch (rule.triggerType) {
    case 'exact': {
      const kw = keyword(rule.keyword);
      return kw.norm.length > 0 && (kw.norm === m.norm || (kw.bare.length > 0 && kw.bare === m.bare));
    }
    case 'contains':
      return containsMatch(keyword(rule.keyword).norm, m.norm);
    case 'regex':
      return cachedSafeRegex(rule.keyword)?.test(m.text) ?? false;
    case 'ai_fallback':
      return true;
    default:
      return false;
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const TIER: Record<TriggerType, number> = { exact: 0, contains: 1, regex: 2, ai_fallback: 3 };

interface Order {
  sig: string;
  ordered: ChatbotRule[];
  regexRules: ChatbotRule[];
}

/**
 * The applicable rules in the order they are tried (see `matchRule`), and the regex ones among them.
 * Cached per rules array (treated as immutable) and keys, so a caller matching many messages against
 * the same array sorts it once.
 */
function precedenceOrder(rules: ChatbotRule[], keyRank: Map<string, number>): Order {
  const sig = [...keyRank.keys()].join('\u0000');
  const cached = orderCache.get(rules);
  if (cached?.sig === sig) return cached;
  const ordered = rules
    .filter((r) => keyRank.has(r.mobid))
    .map((r, i) => ({ r, i, key: keyRank.get(r.mobid) ?? 0, tier: TIER[r.triggerType] ?? 99 }))
    .sort(
      (a, b) =>
        Number(a.r.triggerType === 'ai_fallback') - Number(b.r.triggerType === 'ai_fallback') ||
        a.key - b.key ||
        a.tier - b.tier ||
        (a.r.triggerType === 'contains' ? b.r.keyword.length - a.r.keyword.length : 0) ||
        compare(a.r.createdAt, b.r.createdAt) ||
        a.i - b.i,
    )
    .map((o) => o.r);
  const order = { sig, ordered, regexRules: ordered.filter((r) => r.triggerType === 'regex') };
  orderCache.set(rules, order);
  return order;
}
const orderCache = new WeakMap<ChatbotRule[], Order>();

/**
 * The keyword occurs in the message and, where the keyword starts (ends) with a letter or digit, the
 * message has no letter or digit right before (after) it: `hi` matches `hi there` and `oh, hi!` but
 * not `this`; a keyword of several words matches them in that order, whitespace collapsed.
 */
function containsMatch(kw: string, norm: string): boolean {
  if (kw.length === 0) return false;
  const checkStart = isWordChar(kw[0]);
  const checkEnd = isWordChar(kw[kw.length - 1]);
  for (let at = norm.indexOf(kw); at !== -1; at = norm.indexOf(kw, at + 1)) {
    if (checkStart && isWordChar(norm[at - 1])) continue;
    if (checkEnd && isWordChar(norm[at + kw.length])) continue;
    return true;
  }
  return false;
}

const keywordCache = new LRUCache<string, { norm: string; bare: string }>({ max: 10_000 });
function keyword(raw: string): { norm: string; bare: string } {
  let k = keywordCache.get(raw);
  if (k === undefined) {
    const norm = normaliseForMatch(raw);
    k = { norm, bare: trimPunctuation(norm) };
    keywordCache.set(raw, k);
  }
  return k;
}
