import type { HostEvent } from '#shared/events/types';
import type { ReconnectState } from '#shared/sessions/session';
import type { Handoff } from './handoff.ts';
import type { SessionRuntime } from './session-runtime.ts';

/**
 * What a session runtime's owner (runtime-registry.ts, or a test) hands in: its limits, the lease
 * fence, where events and reconnect state go, and the checks it asks the session's owner.
 */
export interface RuntimeOptions {
  /** Refused logins (`refused` ends) in a row, with no READY between, before the session is FAILED. */
  maxFailures: number;
  zombieIdleMs: number;
  sendIntervalMs: number;
  reconnectBaseMs: number;
  /** The backoff's cap (RECONNECT_MAX_DELAY_MS); 60 s when not given. */
  reconnectMaxDelayMs?: number;
  /** The fence of the shard lease under which this runtime runs. */
  fence: () => number | undefined;
  /**
   * Where host events go: the host's hand-off (events queue, media bucket, spool) unless given.
   * A test may hand in just `emitEvent` instead: a hand-off with that sender and no spool.
   */
  handoff?: Handoff;
  emitEvent?: (event: HostEvent) => Promise<void>;
  /** Where the reconnect state goes (session info shows it); nowhere when not given. */
  recordReconnect?: (state: ReconnectState) => Promise<void>;
  /** Called once when the runtime ends for good (terminal status): its owner forgets it. */
  onEnded?: (rt: SessionRuntime) => void;
  /**
   * Whether this host still runs the session (its epoch, connection-host/session-fence.ts). A 440
   * after the session moved is the new holder's login replacing ours: not ours to answer; and a
   * send is made only while it holds. Held when not given.
   */
  stillHolds?: () => Promise<boolean>;
  /**
   * Whether the session declines calls (`rejectCalls`), asked when one rings: read then, so a
   * change through the API holds from the next call on. Calls ring through when not given.
   */
  rejectsCalls?: () => Promise<boolean>;
}
