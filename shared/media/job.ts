import { z } from 'zod';
import { names } from '../aws/names.ts';
import type { InboundMessage } from '../messages/content.ts';
import { sendJson } from '../queue/send.ts';

/** The kinds whose media is analysed (docs/media.md, "Pipeline"); stickers and the rest are not. */
export const ANALYSED_KINDS = ['image', 'audio', 'voice', 'video', 'document'] as const;
export type AnalysedKind = (typeof ANALYSED_KINDS)[number];

/** An inbound message is analysed when it is media of an analysed kind whose bytes the host stored. */
export function needsAnalysis(m: Pick<InboundMessage, 'kind' | 'mediaKey'>): boolean {
  return Boolean(m.mediaKey) && (ANALYSED_KINDS as readonly string[]).includes(m.kind);
}

/** One message to analyse, on the media queue. The message itself is read from the store. */
export const MediaJob = z.object({
  tenantId: z.string().min(1),
  sessionId: z.string().min(1),
  messageId: z.string().min(1),
});
export type MediaJob = z.infer<typeof MediaJob>;

/** Queues the analysis of a stored message; a repeat is harmless (the consumer analyses once). */
export function enqueueMediaJob(job: MediaJob): Promise<void> {
  return sendJson(names.mediaQueue(), job);
}
