import { Remembered } from '../remembered.ts';
import { chatbotRulesOf, chatbotSwitchesOf } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';

/**
 * Whether a tenant's chatbot could do anything with an inbound message: it has a static rule, or a
 * switch of some session key turned on (chatbot enabled, extraction…). A tenant that has neither
 * gets no chatbot job at all, so the messages of tenants who never use the chatbot cost it nothing
 * (no job, no claim and outcome writes, no reads). Known per tenant for GATE_CACHE_MS per process,
 * and forgotten at once when a rule or switch is written in the same process: elsewhere the first
 * rule or switch of a tenant takes effect within that time (docs/chatbot.md).
 */
export const GATE_CACHE_MS = 5_000;

const cache = new Remembered<boolean>({ ttlMs: GATE_CACHE_MS });

interface SwitchItem {
  [flag: string]: unknown;
}

async function readGate(tenantId: string): Promise<boolean> {
  const [rules, switches] = await Promise.all([
    dataTable.query({ ...chatbotRulesOf(tenantId), limit: 1 }),
    dataTable.query<SwitchItem>(chatbotSwitchesOf(tenantId)),
  ]);
  return rules.length > 0 || switches.some((s) => Object.values(s).some((v) => v === true));
}

/** A rule or switch of the tenant changed: ask the store again for its next message. */
export function forgetChatbotGate(tenantId: string): void {
  cache.forget(tenantId);
}

export function chatbotMayAct(tenantId: string): Promise<boolean> {
  return cache.get(tenantId, () => readGate(tenantId));
}
