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
}

type SwitchItem = Partial<ChatbotSwitches>;
export type SwitchName = keyof ChatbotSwitches;

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
  const first = (name: keyof SwitchItem) => items.find((it) => typeof it?.[name] === 'boolean')?.[name];
  return {
    chatbotEnabled: first('chatbotEnabled') ?? false,
    pureExtractor: first('pureExtractor') ?? false,
    extractionEnabled: first('extractionEnabled') ?? false,
    voiceReplies: first('voiceReplies') ?? false,
  };
}
