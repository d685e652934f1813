import { randomInt } from 'node:crypto';
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { toAttr } from '../store/db.ts';
import { chatbotRuleIdKey, chatbotRuleKey, chatbotRulesOf } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { forgetChatbotGate } from './gate.ts';

export const TRIGGER_TYPES = ['exact', 'contains', 'regex', 'ai_fallback'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
export const REPLY_TYPES = ['text', 'ai_response'] as const;
export type ReplyType = (typeof REPLY_TYPES)[number];
/** A rule stored under `*` applies to every session of the tenant. */
export const ALL_SESSIONS = '*';

export interface ChatbotRule {
  /** `rule_<digits>`: epoch ms then six random digits. */
  id: string;
  /** The session key the rule applies to, or `*`. */
  mobid: string;
  triggerType: TriggerType;
  keyword: string;
  replyType: ReplyType;
  /** The static reply (`text`) or extra instructions for the model (`ai_response`). */
  response: string;
  createdAt: string;
}

export type ChatbotRuleInput = Omit<ChatbotRule, 'id' | 'createdAt'>;

const newRuleId = () => `rule_${Date.now()}${String(randomInt(1_000_000)).padStart(6, '0')}`;

/**
 * Stores a new rule. A regex keyword is compiled first (a 400 naming `keyword` if the linear-time
 * engine refuses it). The id item is written only if absent, in the same transaction, so ids are unique.
 */
export async function putRule(tenantId: string, input: ChatbotRuleInput): Promise<ChatbotRule> {
  if (input.triggerType === 'regex') {
    // RE2JS is imported on first use: the API's cold start does not read it (docs/benchmarks.md).
    const { compileSafeRegex } = await import('./safe-regex.ts');
    compileSafeRegex(input.keyword, 'keyword');
  }
  for (let attempt = 0; ; attempt++) {
    const rule: ChatbotRule = {
      id: newRuleId(),
      mobid: input.mobid,
      triggerType: input.triggerType,
      keyword: input.keyword,
      replyType: input.replyType,
      response: input.response,
      createdAt: new Date().toISOString(),
    };
    const written = await dataTable.transact([
      dataTable.putIfAbsentOp({
        ...chatbotRuleIdKey(tenantId, rule.id),
        type: 'chatbotRuleId',
        mobid: rule.mobid,
      }),
      dataTable.putOp({
        ...chatbotRuleKey(tenantId, rule.mobid, rule.id),
        type: 'chatbotRule',
        tenantId,
        ...rule,
      }),
    ]);
    if (written) {
      forgetChatbotGate(tenantId);
      return rule;
    }
    if (attempt >= 3) throw new Error('could not allocate a unique rule id');
  }
}

/** The rules stored under one session key (or `*`), oldest first; every rule of the tenant without one. */
export async function listRules(tenantId: string, mobid?: string): Promise<ChatbotRule[]> {
  const items = await dataTable.query<ChatbotRule>({ ...chatbotRulesOf(tenantId, mobid), ascending: true });
  return items.map(publicRule);
}

/**
 * The rules that can apply to a session: those stored under any of its keys and under `*`, grouped
 * by key in the order given (then `*`), oldest first within a key. One Query per key, in parallel.
 */
export async function rulesForKeys(tenantId: string, keys: string[]): Promise<ChatbotRule[]> {
  const all = [...new Set([...keys.filter((k) => k && !k.includes('#')), ALL_SESSIONS])];
  const lists = await Promise.all(all.map((k) => listRules(tenantId, k)));
  return lists.flat();
}

/** Deletes the tenant's rule with this id; answers the deleted rule, or undefined if the tenant has none such. */
export async function deleteRule(tenantId: string, id: string): Promise<ChatbotRule | undefined> {
  const pointer = await dataTable.get<{ mobid: string }>(chatbotRuleIdKey(tenantId, id), true);
  if (!pointer) return undefined;
  const key = chatbotRuleKey(tenantId, pointer.mobid, id);
  const rule = await dataTable.get<ChatbotRule>(key, true);
  const del = (k: { pk: string; sk: string }): TransactWriteItem => ({
    Delete: { TableName: dataTable.name(), Key: toAttr({ ...k }) },
  });
  await dataTable.transact([del(chatbotRuleIdKey(tenantId, id)), del(key)]);
  forgetChatbotGate(tenantId);
  return rule ? publicRule(rule) : undefined;
}

function publicRule(r: ChatbotRule): ChatbotRule {
  return {
    id: r.id,
    mobid: r.mobid,
    triggerType: r.triggerType,
    keyword: r.keyword,
    replyType: r.replyType,
    response: r.response,
    createdAt: r.createdAt,
  };
}
