import type { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { BedrockConfig } from '../config.ts';
import { type CallResult, callMessages } from './anthropic.ts';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

let cached: { id: string; client: AnthropicBedrock } | undefined;

/**
 * The serverless hop: Claude on Amazon Bedrock (`POST /model/{modelId}/invoke`, SigV4-signed with the
 * function's own AWS credentials, no API key). The SDK is loaded on first use only, so a chain that
 * never reaches this hop does not pay for it at cold start.
 */
export async function callBedrock(
  cfg: BedrockConfig,
  body: MessageCreateParamsNonStreaming,
  timeoutMs: number,
): Promise<CallResult> {
  const id = `${cfg.endpointUrl ?? ''}\n${cfg.region}\n${timeoutMs}`;
  if (cached?.id !== id) {
    const { AnthropicBedrock } = await import('@anthropic-ai/bedrock-sdk');
    cached = {
      id,
      client: new AnthropicBedrock({
        awsRegion: cfg.region,
        baseURL: cfg.endpointUrl,
        // Sign with AWS credentials (the Lambda role), never a bearer token from the environment.
        apiKey: null,
        maxRetries: 0,
        timeout: timeoutMs,
      }),
    };
  }
  // Bedrock's Messages version goes in the body; set it, rather than the SDK passing on the direct
  // API's version header, which Bedrock does not know.
  const bedrockBody = { ...body, model: cfg.modelId, anthropic_version: BEDROCK_ANTHROPIC_VERSION };
  return callMessages(cached.client, bedrockBody);
}
