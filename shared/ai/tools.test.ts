import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicBody, callMessages } from './providers/anthropic.ts';
import { callChatCompletions, openAiBody } from './providers/openai.ts';
import type { ModelTool } from './types.ts';

const tool: ModelTool = {
  name: 'record',
  description: 'Record the booking',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};
const turns = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'book me' }] }];
const system = [{ text: 'You extract.', cached: true }];

describe('tool use in the Messages body', () => {
  it('offers the tool with its input schema and forces it when named', () => {
    const body = anthropicBody('m', system, turns, 100, { tools: [tool], toolChoice: 'record' });
    expect(body.tools).toEqual([
      { name: 'record', description: 'Record the booking', input_schema: tool.inputSchema },
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'record' });
  });

  it('has no tool fields without tools', () => {
    const body = anthropicBody('m', system, turns, 100);
    expect('tools' in body).toBe(false);
    expect('tool_choice' in body).toBe(false);
  });

  it('returns the tool_use input of the answer, even without text', async () => {
    const client = {
      messages: {
        create: async () => ({
          model: 'm',
          content: [{ type: 'tool_use', id: 't1', name: 'record', input: { name: 'Asha' } }],
          usage: { input_tokens: 5, output_tokens: 2 },
        }),
      },
    };
    // biome-ignore lint/suspicious/noExplicitAny: a minimal client of the SDK's shape
    const r = await callMessages(client as any, anthropicBody('m', system, turns, 100, { tools: [tool] }));
    expect(r.toolInput).toEqual({ name: 'Asha' });
    expect(r.toolName).toBe('record');
    expect(r.text).toBe('');
    expect(r.usage.input).toBe(5);
  });
});

describe('tool use on an OpenAI-compatible endpoint', () => {
  let server: Server;
  let base = '';
  let lastBody: Record<string, unknown> = {};
  let answer: unknown;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        lastBody = JSON.parse(raw);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends tools as functions with tool_choice and parses the call arguments', async () => {
    answer = {
      model: 'gpt',
      choices: [
        {
          message: {
            content: null,
            tool_calls: [{ type: 'function', function: { name: 'record', arguments: '{"name":"Ravi"}' } }],
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 3 },
    };
    const body = openAiBody('gpt', system, turns, 50, { tools: [tool], toolChoice: 'record' });
    const r = await callChatCompletions(base, 'k', body, 2000);
    expect(lastBody.tools).toEqual([
      {
        type: 'function',
        function: { name: 'record', description: 'Record the booking', parameters: tool.inputSchema },
      },
    ]);
    expect(lastBody.tool_choice).toEqual({ type: 'function', function: { name: 'record' } });
    expect(r.toolInput).toEqual({ name: 'Ravi' });
    expect(r.toolName).toBe('record');
  });

  it('keeps arguments that are not JSON as a string for the caller to refuse', async () => {
    answer = {
      choices: [{ message: { tool_calls: [{ function: { name: 'record', arguments: '{oops' } }] } }],
    };
    const r = await callChatCompletions(
      base,
      'k',
      openAiBody('gpt', system, turns, 50, { tools: [tool] }),
      2000,
    );
    expect(r.toolInput).toBe('{oops');
  });
});
