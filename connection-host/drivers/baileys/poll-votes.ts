import { createHash } from 'node:crypto';
import {
  decryptPollVote,
  extractMessageContent,
  isJidGroup,
  jidNormalizedUser,
  type proto,
  type WAMessage,
} from '@whiskeysockets/baileys';
import type { PollVote } from '#shared/messages/content';
import { chatIdOf } from '#shared/phone/jid';
import { groupIdOfJid, lidOfJid, phoneOfJid } from './jids.ts';
import type { PhoneForLid } from './normalise.ts';
import { pollCreationOf } from './outbound.ts';

/**
 * Poll votes. The network carries a vote encrypted with the poll's secret (the creator's
 * `messageContextInfo.messageSecret`) and names the chosen options only by their SHA-256; the
 * driver keeps each poll it sends (sentWire) so a vote can be decrypted and told as option texts.
 */

/** What the store kept of a poll the account sent: its creation message and secret (sentWire). */
export type PollLookup = (pollId: string) => Promise<proto.IMessage | undefined>;

/** The account's own ids: its phone JID and, when it has one, its LID. */
export interface Me {
  id?: string | null;
  lid?: string | null;
}

/** The encrypted vote in a message, with the poll it is for; undefined for anything else. */
export function pollUpdateOf(msg: WAMessage): proto.Message.IPollUpdateMessage | undefined {
  const u = extractMessageContent(msg.message)?.pollUpdateMessage;
  return u?.pollCreationMessageKey?.id && u.vote?.encPayload && u.vote.encIv ? u : undefined;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();
const distinct = (xs: Array<string | null | undefined>) => [
  ...new Set(xs.filter((x): x is string => !!x).map((x) => jidNormalizedUser(x))),
];

/**
 * The option texts of a decrypted vote: each selected SHA-256 matched to the poll's options, in the
 * poll's order. A hash that names no option (a poll changed under us) is left out.
 */
export function optionsOfVote(options: string[], selected: Array<Uint8Array | null | undefined>): string[] {
  const chosen = new Set(
    selected.filter((s): s is Uint8Array => !!s).map((s) => Buffer.from(s).toString('hex')),
  );
  return options.filter((o) => chosen.has(sha256(o).toString('hex')));
}

/**
 * Decrypts a vote on one of the account's polls. The network signs the vote for the ids the voter's
 * client used, phone or LID for each side; both are tried (a wrong guess fails the AES-GCM check).
 * Answers undefined when the poll is not ours (or no longer kept) or no key opens the vote.
 */
export async function decryptVote(
  msg: WAMessage,
  update: proto.Message.IPollUpdateMessage,
  me: Me,
  lookup: PollLookup,
  phoneForLid: PhoneForLid,
): Promise<PollVote | undefined> {
  const pollId = update.pollCreationMessageKey?.id;
  const vote = update.vote;
  // pollUpdateOf lets no update without these through; one here is a caller's mistake.
  if (!pollId || !vote)
    throw new Error('a poll update needs its poll key id and its vote (see pollUpdateOf)');
  const stored = await lookup(pollId);
  const creation = pollCreationOf(stored);
  const secret = stored?.messageContextInfo?.messageSecret;
  if (!creation || !secret) return undefined;
  const key = msg.key;
  const remote = key.remoteJid ?? '';
  const group = isJidGroup(remote) === true;
  const voters = group
    ? distinct([key.participant, key.participantAlt, msg.participant])
    : distinct([remote, key.remoteJidAlt]);
  const creators = distinct([me.id, me.lid]);
  for (const voterJid of voters) {
    for (const pollCreatorJid of creators) {
      let decrypted: proto.Message.PollVoteMessage;
      try {
        decrypted = decryptPollVote(vote, {
          pollCreatorJid,
          pollMsgId: pollId,
          pollEncKey: secret,
          voterJid,
        });
      } catch {
        continue;
      }
      const options = optionsOfVote(
        (creation.options ?? []).map((o) => o.optionName ?? ''),
        decrypted.selectedOptions ?? [],
      );
      const lids = voters.map(lidOfJid).filter((l): l is string => !!l);
      const phone = voters.map(phoneOfJid).find((p) => !!p) ?? (lids[0] ? phoneForLid(lids[0]) : undefined);
      const ts = update.senderTimestampMs ?? msg.messageTimestamp;
      const ms = ts === null || ts === undefined ? Date.now() : typeof ts === 'number' ? ts : ts.toNumber();
      return {
        pollId,
        chatId: group ? groupIdOfJid(remote) : (phone ?? chatIdOf({ kind: 'lid', lid: lids[0] ?? '' })),
        voterPhone: phone ?? null,
        ...(lids[0] ? { voterLid: lids[0] } : {}),
        options,
        // senderTimestampMs is in ms; a message timestamp (the fallback) in seconds.
        timestampMs: update.senderTimestampMs ? ms : ms * 1000,
      };
    }
  }
  return undefined;
}
