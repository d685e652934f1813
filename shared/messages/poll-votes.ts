import { createHash } from 'node:crypto';
import type { HostEvent } from '../events/types.ts';
import { lidJid } from '../phone/jid.ts';
import { getSession } from '../sessions/repository.ts';
import { feedClock, messageKey, pollVoteKey, pollVotesOf } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import { publishFeedEvent } from '../stream/feed-event.ts';
import { enqueueWebhook } from '../webhooks/enqueue.ts';
import type { PollVote } from './content.ts';
import type { StoredMessage } from './message.ts';

export type PollVoteEvent = Extract<HostEvent, { kind: 'poll.vote' }>;

/** One voter's current vote, as stored (`PV#<pollId>#<voter>`). */
interface VoteItem {
  voter: string;
  options: string[];
  votedAt: number;
}

/** The `poll.vote` payload (docs/events.md); also the tenant stream's event. */
export interface PollVotePayload {
  event: 'poll.vote';
  session_id: string;
  mobid: string | null;
  /** The poll's message id. */
  message_id: string;
  chat_id: string;
  /** The voter's digits, or `<lid>@lid` when the network has not revealed the phone. */
  voter: string;
  /** The options the voter now chooses, as texts; empty when the vote was withdrawn. */
  options: string[];
  /** The poll's question, when the poll is in history. */
  question: string | null;
  timestamp: number;
}

/** How a voter is named: digits, else `<lid>@lid`. */
export const voterOf = (v: Pick<PollVote, 'voterPhone' | 'voterLid'>) =>
  v.voterPhone ?? lidJid(v.voterLid ?? 'unknown');

/**
 * Keeps a vote (a voter's later vote replaces an earlier one, whatever order they arrive in), then
 * tells it as a `poll.vote` webhook and tenant stream event. Idempotent: the same vote again writes
 * the same item and finds the same delivery and feed event.
 */
export async function applyPollVote(e: PollVoteEvent): Promise<void> {
  const { vote } = e;
  const voter = voterOf(vote);
  await dataTable.put(
    {
      ...pollVoteKey(e.tenantId, e.sessionId, vote.pollId, voter),
      type: 'pollVote',
      voter,
      options: vote.options,
      votedAt: vote.timestampMs,
    },
    {
      condition: {
        expression: 'attribute_not_exists(pk) OR votedAt <= :at',
        values: { ':at': vote.timestampMs },
      },
    },
  );
  const [session, poll] = await Promise.all([
    getSession(e.tenantId, e.sessionId),
    dataTable.get<StoredMessage>(messageKey(e.tenantId, e.sessionId, vote.pollId)),
  ]);
  const payload: PollVotePayload = {
    event: 'poll.vote',
    session_id: e.sessionId,
    mobid: session?.mobid ?? null,
    message_id: vote.pollId,
    chat_id: vote.chatId,
    voter,
    options: vote.options,
    question: poll?.poll?.question ?? null,
    timestamp: Math.floor(vote.timestampMs / 1000),
  };
  const key = `${e.sessionId}:${vote.pollId}:${voter}:${vote.timestampMs}`;
  const eventId = `vote_${createHash('sha256').update(`${e.tenantId}\0${key}`).digest('hex').slice(0, 24)}`;
  await Promise.all([
    enqueueWebhook(e.tenantId, e.sessionId, 'poll.vote', payload, { dedupKey: key }),
    publishFeedEvent(e.tenantId, e.sessionId, eventId, { ...payload }, feedClock()),
  ]);
}

/** A poll's tally: each option with its voters, in the poll's order; votes for unknown options after. */
export interface PollTally {
  question: string;
  multiple: boolean;
  options: Array<{ option: string; votes: number; voters: string[] }>;
  /** How many voters have a vote (a withdrawn vote does not count). */
  voters: number;
}

/** Counts the current votes on a poll (one Query of its vote items). */
export async function pollTally(
  tenantId: string,
  sessionId: string,
  poll: NonNullable<StoredMessage['poll']>,
  pollId: string,
): Promise<PollTally> {
  const k = pollVotesOf(tenantId, sessionId, pollId);
  const votes = await dataTable.query<VoteItem>({ pk: k.pk, skBeginsWith: k.sk, ascending: true });
  const byOption = new Map(poll.options.map((o) => [o, [] as string[]]));
  for (const v of votes) {
    for (const o of v.options) {
      const list = byOption.get(o) ?? [];
      list.push(v.voter);
      byOption.set(o, list);
    }
  }
  return {
    question: poll.question,
    multiple: poll.multiple,
    options: [...byOption].map(([option, voters]) => ({ option, votes: voters.length, voters })),
    voters: votes.filter((v) => v.options.length > 0).length,
  };
}
