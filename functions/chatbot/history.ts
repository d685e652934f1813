import { isDecryptFailed } from '#shared/messages/content';
import type { StoredMessage } from '#shared/messages/message';
import { queryMessages } from '#shared/messages/repository';

export interface Turn {
  role: 'user' | 'assistant';
  text: string;
}

/**
 * What a message says, for the model and the webhook: its text or caption, else what a voice note
 * said (its transcription), else its kind in brackets with the text read in an image or document.
 */
export function textOf(m: Pick<StoredMessage, 'text' | 'caption' | 'kind' | 'analysis'>): string {
  const words = (m.text ?? m.caption ?? m.analysis?.transcription ?? undefined)?.trim();
  if (words) return words;
  const seen = m.analysis?.ocrText?.trim();
  return seen ? `[${m.kind}] ${seen}` : `[${m.kind}]`;
}

/**
 * The chat's recent messages in this session, newest first: what the debounce check and the
 * conversation memory both read (one query of the chat index). Placeholders of undecryptable
 * messages are left out: nobody can read them, and one must not count as the customer's newest
 * message (it never gets a turn of its own; its real message does, if it comes).
 */
export async function recentMessages(
  tenantId: string,
  sessionId: string,
  chatId: string,
  limit: number,
): Promise<StoredMessage[]> {
  return (await queryMessages({ tenantId, sessionId, chatId }, limit)).filter((m) => !isDecryptFailed(m));
}

/**
 * The last `n` messages as model turns, oldest first: the customer's as `user`, the session's as
 * `assistant`; consecutive messages of one side are joined into one turn, and the conversation starts
 * with the customer (the model API wants alternating roles starting with the user).
 */
export function turnsOf(newestFirst: StoredMessage[], n: number): Turn[] {
  const turns: Turn[] = [];
  for (const m of newestFirst.slice(0, n).reverse()) {
    const role = m.direction === 'inbound' ? 'user' : 'assistant';
    const last = turns.at(-1);
    if (last?.role === role) last.text = `${last.text}\n${textOf(m)}`;
    else turns.push({ role, text: textOf(m) });
  }
  while (turns[0]?.role === 'assistant') turns.shift();
  return turns;
}
