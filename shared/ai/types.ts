/** Which hop of the model chain answered (docs/chatbot.md, "Model chain"). */
export type AiTier = 'primary' | 'fallback' | 'bedrock';

/**
 * A piece of a turn. Text today; images and PDFs (base64) for the media features, which every
 * provider adapter converts to its own shape or refuses (the hop then fails and the chain moves on).
 */
export type AiContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; mediaType: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string }
  | { type: 'document'; mediaType: 'application/pdf'; data: string };

export interface AiTurn {
  role: 'user' | 'assistant';
  text: string;
  /** When given, the turn's content instead of `text` (e.g. a photo and its caption). */
  content?: AiContentBlock[];
}

export interface ModelRequest {
  tenantId: string;
  sessionId: string;
  system: {
    /** The session's brain (JSON): part of the cached prefix. */
    brain?: unknown;
    /** The session's persona prompt: part of the cached prefix. */
    persona?: string;
    /** Per-turn extra instructions (a rule's `response`, an intent hint): after the cached prefix. */
    instructions?: string;
  };
  /** The conversation, oldest first, ending with the customer's turn. */
  turns: AiTurn[];
  maxTokens?: number;
  /** Tools the model may call (one today: the extractor's record schema). */
  tools?: ModelTool[];
  /** The name of the tool the model must call; absent lets the model choose. */
  toolChoice?: string;
}

/** A tool the model can call: its input is described by a JSON schema (an object schema). */
export interface ModelTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface TokenUsage {
  /** Input tokens billed at the full rate (not read from or written to the cache). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ModelReply {
  text: string;
  tier: AiTier;
  /** The index of the key in its pool (`ANTHROPIC_API_KEYS` or `AI_FALLBACK_API_KEYS`); 0 for Bedrock. */
  keyIndex: number;
  model: string;
  usage: TokenUsage;
  latencyMs: number;
  /** The input of the first tool call in the answer, when the request offered tools and the model called one. */
  toolInput?: unknown;
  /** The name of that tool. */
  toolName?: string;
}

export const zeroUsage = (): TokenUsage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
