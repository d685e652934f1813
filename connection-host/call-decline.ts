import type { CallUpdate } from '#shared/events/types';
import type { Logger } from '#shared/log/logger';
import type { DriverLink } from './drivers/driver.ts';
import type { HostEventBody } from './session-events.ts';

/**
 * A session's answer to a call (`rejectCalls`): its own module because it is the one place the
 * runtime acts on the link for an event rather than only reporting it.
 */
export interface CallDeps {
  emit(e: HostEventBody): Promise<void>;
  /** The session's link now (read once the setting is known: it may have changed meanwhile). */
  link(): DriverLink | undefined;
  /** Whether the session declines calls; calls ring through when not given. */
  rejectsCalls?: () => Promise<boolean>;
  log: Logger;
}

/**
 * Every step of a call is reported; a call that rings a session set to `rejectCalls` is declined
 * at once and reported `rejected` by the session (the events consumer sends `rejectMessage`).
 */
export async function answerCall(call: CallUpdate, deps: CallDeps): Promise<void> {
  // The caller is declined while the offer is handed on; the rejection is reported after it.
  const reported = deps.emit({ kind: 'call', call });
  if (call.status !== 'offer' || call.group || !deps.rejectsCalls) return reported;
  const reject = await deps.rejectsCalls().catch((err) => {
    deps.log.warn({ err }, 'reading the call setting failed: the call rings through');
    return false;
  });
  const link = deps.link();
  if (!reject || !link) return reported;
  try {
    await link.rejectCall(call.callId);
  } catch (err) {
    deps.log.warn({ err, callId: call.callId }, 'declining a call failed');
    return reported;
  }
  await reported;
  await deps.emit({
    kind: 'call',
    call: { ...call, status: 'rejected', bySession: true, timestampMs: Date.now() },
  });
}
