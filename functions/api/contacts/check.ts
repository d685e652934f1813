import { z } from '@hono/zod-openapi';
import { getCommand } from '#shared/commands/results';
import { NumberCheck } from '#shared/commands/types';
import { ServiceError } from '#shared/http/errors';
import type { Session } from '#shared/sessions/session';
import { acceptCommand } from '../commands/accept.ts';

/** How long the API waits for the host's answer before it answers with the command id. */
export const CHECK_WAIT_MS = 8_000;
const POLL_MS = 150;

/** One number's answer. */
export interface CheckResult {
  /** The number as given. */
  input: string;
  number: string;
  exists: boolean;
  jid: string | null;
}

export type CheckOutcome =
  | { commandId: string; status: 'done'; numbers: CheckResult[] }
  | { commandId: string; status: 'pending' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The command's record once it is no longer pending, or undefined after `CHECK_WAIT_MS`. */
async function outcome(tenantId: string, commandId: string) {
  const until = Date.now() + CHECK_WAIT_MS;
  while (Date.now() < until) {
    const cmd = await getCommand(tenantId, commandId);
    if (cmd && cmd.status !== 'pending') return cmd;
    await sleep(POLL_MS);
  }
  return undefined;
}

/**
 * Asks the network through a READY session which numbers (digits) have an account: one `check`
 * command, whose answer is awaited up to `CHECK_WAIT_MS` (else `pending`, the result then at
 * /api/commands/{id}). `inputs` are the numbers as the caller wrote them, echoed back. Used by
 * `POST /api/contacts/check` and the MCP `check_numbers` tool.
 */
export async function checkNumbers(
  session: Session,
  numbers: string[],
  inputs: readonly unknown[] = numbers,
): Promise<CheckOutcome> {
  const { commandId } = await acceptCommand(session, { kind: 'check', numbers: [...new Set(numbers)] });
  const cmd = await outcome(session.tenantId, commandId);
  if (!cmd) return { commandId, status: 'pending' };
  if (cmd.status === 'failed') {
    throw new ServiceError(
      'UPSTREAM_UNAVAILABLE',
      `the network did not answer the check: ${cmd.error ?? 'unknown'}`,
    );
  }
  const answers = z.array(NumberCheck).parse(cmd.result?.numbers);
  const byNumber = new Map(answers.map((a) => [a.number, a]));
  return {
    commandId,
    status: 'done',
    numbers: numbers.map((number, i) => {
      const a = byNumber.get(number);
      return { input: String(inputs[i] ?? number), number, exists: a?.exists ?? false, jid: a?.jid ?? null };
    }),
  };
}
