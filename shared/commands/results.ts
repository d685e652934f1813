import { commandKey } from '../store/keys.ts';
import { dataTable } from '../store/tables.ts';
import type { CommandKind } from './types.ts';

export interface CommandRecord {
  commandId: string;
  tenantId: string;
  sessionId: string;
  kind: CommandKind;
  status: 'pending' | 'succeeded' | 'failed';
  result?: Record<string, unknown>;
  error?: string;
  createdAt: string;
  completedAt?: string;
}

export async function recordCommand(r: Omit<CommandRecord, 'status' | 'createdAt'>): Promise<CommandRecord> {
  const record: CommandRecord = { ...r, status: 'pending', createdAt: new Date().toISOString() };
  await dataTable.put(
    { ...commandKey(r.tenantId, r.commandId), type: 'command', ...record },
    { ifAbsent: true },
  );
  return record;
}

/**
 * The first result wins; a redelivered result event changes nothing. Answers the finished record
 * (also on a repeat, so a retried event can still hand it on).
 */
export async function recordCommandResult(
  tenantId: string,
  commandId: string,
  ok: boolean,
  result: Record<string, unknown> | undefined,
  error: string | undefined,
  at: number,
): Promise<CommandRecord | undefined> {
  const updated = await dataTable.update<CommandRecord>(
    commandKey(tenantId, commandId),
    { status: ok ? 'succeeded' : 'failed', result, error, completedAt: new Date(at).toISOString() },
    {
      condition: 'attribute_exists(pk) AND #s = :pending',
      names: { '#s': 'status' },
      values: { ':pending': 'pending' },
    },
  );
  return updated ?? (await getCommand(tenantId, commandId));
}

export async function getCommand(tenantId: string, commandId: string): Promise<CommandRecord | undefined> {
  return dataTable.get<CommandRecord>(commandKey(tenantId, commandId));
}
