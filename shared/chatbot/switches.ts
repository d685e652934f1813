import { env } from '../config/env.ts';
import { chatbotSwitchKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { forgetChatbotGate } from './gate.ts';
import { GLOBAL_KEY } from './session-keys.ts';

export interface ChatbotSwitches {
  /** The AI engine (intents, model) may answer. Static rules do not depend on it. */
  chatbotEnabled: boolean;
  /** No automatic reply at all (not even rules); messages are still stored, streamed and forwarded. */
  pureExtractor: boolean;
  /** Conversations are turned into booking/lead records (docs/extraction.md). */
  extractionEnabled: boolean;
  /** An answer to a voice note goes out as a voice note (speech synthesis, docs/chatbot.md). */
  voiceReplies: boolean;
  /** How long a human takeover of a chat lasts (docs/chatbot.md, "Human takeover"). */
  takeoverMinutes: number;
}

type SwitchItem = Partial<ChatbotSwitches>;
export type SwitchName = Exclude<keyof ChatbotSwitches, 'takeoverMinutes'>;

/** Sets one switch of one session key (`global` for every session of the tenant). */
export async function setSwitch(
  tenantId: string,
  key: string,
  name: SwitchName,
  enabled: boolean,
): Promise<void> {
  await dataTable.update(chatbotSwitchKey(tenantId, key), {
    type: 'chatbotSwitch',
    key,
    [name]: enabled,
    updatedAt: new Date().toISOString(),
  });
  forgetChatbotGate(tenantId);
}

export const setChatbotEnabled = (tenantId: string, key: string, enabled: boolean) =>
  setSwitch(tenantId, key, 'chatbotEnabled', enabled);
export const setPureExtractor = (tenantId: string, key: string, enabled: boolean) =>
  setSwitch(tenantId, key, 'pureExtractor', enabled);
export const setExtractionEnabled = (tenantId: string, key: string, enabled: boolean) =>
  setSwitch(tenantId, key, 'extractionEnabled', enabled);
export const setVoiceReplies = (tenantId: string, key: string, enabled: boolean) =>
  setSwitch(tenantId, key, 'voiceReplies', enabled);

/**
 * Sets how long a human takeover lasts for one session key; `undefined` removes the key's own value,
 * so a less specific key (or CHATBOT_TAKEOVER_MINUTES) applies again. Not a gate switch: takeover
 * matters only where the chatbot already acts.
 */
export async function setTakeoverMinutes(tenantId: string, key: string, minutes: number | undefined) {
  await dataTable.update(chatbotSwitchKey(tenantId, key), {
    type: 'chatbotSwitch',
    key,
    // null, not a number: the next key down applies.
    takeoverMinutes: minutes ?? null,
    updatedAt: new Date().toISOString(),
  });
}

/**
 * The switches in force for a session, given its keys most specific first (`sessionKeysOf`): for each
 * switch the first key that has a value set wins; `global` is always consulted last; with nothing set
 * the chatbot is disabled (a new session starts disabled) and pure extractor mode is off. Strongly
 * consistent reads, one per key, in parallel, so a toggle applies to the very next message.
 */
export async function readSwitches(tenantId: string, keys: string[]): Promise<ChatbotSwitches> {
  const ordered = [...new Set([...keys.filter((k) => k && k !== GLOBAL_KEY), GLOBAL_KEY])];
  const items = await Promise.all(
    ordered.map((k) => dataTable.get<SwitchItem>(chatbotSwitchKey(tenantId, k), true)),
  );
  const first = (name: SwitchName) => items.find((it) => typeof it?.[name] === 'boolean')?.[name];
  const minutes = items.find((it) => typeof it?.takeoverMinutes === 'number')?.takeoverMinutes;
  return {
    chatbotEnabled: first('chatbotEnabled') ?? false,
    pureExtractor: first('pureExtractor') ?? false,
    extractionEnabled: first('extractionEnabled') ?? false,
    voiceReplies: first('voiceReplies') ?? false,
    takeoverMinutes: minutes ?? env().CHATBOT_TAKEOVER_MINUTES,
  };
}
