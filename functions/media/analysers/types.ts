import type { AiTier, TokenUsage } from '#shared/ai/chain';
import type { MessageAnalysis } from '#shared/messages/analysis';

/** One inbound media message to analyse: its bytes, read from the media bucket. */
export interface MediaInput {
  tenantId: string;
  sessionId: string;
  messageId: string;
  kind: 'image' | 'audio' | 'voice' | 'video' | 'document';
  mimetype: string;
  fileName?: string;
  caption?: string;
  bytes: Uint8Array;
}

/** What one analyser found (fields it does not fill stay as they are) and what it cost. */
export interface AnalyserResult {
  analysis: Partial<MessageAnalysis>;
  /** Model calls made: AI telemetry (aiUsageCount) and credits. */
  modelCalls?: { usage: TokenUsage; tier: AiTier; keyIndex: number }[];
  /** The analyser transcribed audio (audioTranscribeCount). */
  transcribed?: boolean;
}

/**
 * One kind of analysis. It may throw: the pipeline then stores null for its fields and logs the
 * reason (an error's `code` when it has one). `signal` aborts when the message's time is up.
 */
export type Analyser = (input: MediaInput, opts: { signal: AbortSignal }) => Promise<AnalyserResult>;
