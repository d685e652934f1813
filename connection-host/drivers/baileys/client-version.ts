import { fetchLatestBaileysVersion, fetchLatestWaWebVersion, type WAVersion } from '@whiskeysockets/baileys';
import type { Logger } from '#shared/log/logger';

/** Finds the network's current client version; `undefined` when it cannot be had. */
export type VersionLookup = (signal: AbortSignal) => Promise<WAVersion | undefined>;

/**
 * Baileys' own lookups: the web client's current revision first, then the version Baileys' main
 * branch announces. Either may be unreachable (no internet from the host): then there is none.
 */
export const baileysVersionLookup: VersionLookup = async (signal) => {
  const web = await fetchLatestWaWebVersion({ signal }).catch(() => undefined);
  if (web?.isLatest) return web.version as WAVersion;
  if (signal.aborted) return undefined;
  const lib = await fetchLatestBaileysVersion({ signal }).catch(() => undefined);
  return lib?.isLatest ? (lib.version as WAVersion) : undefined;
};

/**
 * The client version every link of the host announces. A login refused with 405 (the network raised
 * its minimum) makes the host look the current version up itself and use it from the next login
 * on, for every session, with no operator. `BAILEYS_VERSION` (pinned) overrides: never looked up.
 * One lookup at a time for the whole host, at most one per `minIntervalMs`, each bounded by
 * `timeoutMs`.
 */
export class ClientVersion {
  private fetched?: WAVersion;
  private lookingUp?: Promise<WAVersion | undefined>;
  private lastLookup = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly opts: {
      pinned?: WAVersion;
      lookup?: VersionLookup;
      timeoutMs?: number;
      minIntervalMs?: number;
      log?: Logger;
    } = {},
  ) {}

  /** The version to announce: pinned, else the one looked up, else Baileys' built-in one (undefined). */
  get current(): WAVersion | undefined {
    return this.opts.pinned ?? this.fetched;
  }

  /** After a 405: looks the current version up (shared by concurrent callers); resolves to `current`. */
  async refresh(): Promise<WAVersion | undefined> {
    if (this.opts.pinned) {
      this.opts.log?.warn(
        { version: this.opts.pinned.join('.') },
        'login refused (405) with BAILEYS_VERSION pinned: not looking up a newer version; update BAILEYS_VERSION',
      );
      return this.current;
    }
    if (this.lookingUp) return this.lookingUp;
    if (Date.now() - this.lastLookup < (this.opts.minIntervalMs ?? 60_000)) return this.current;
    this.lastLookup = Date.now();
    this.lookingUp = this.lookUp().finally(() => {
      this.lookingUp = undefined;
    });
    return this.lookingUp;
  }

  private async lookUp(): Promise<WAVersion | undefined> {
    const timeoutMs = this.opts.timeoutMs ?? 10_000;
    const signal = AbortSignal.timeout(timeoutMs);
    const timedOut = new Promise<undefined>((resolve) =>
      signal.addEventListener('abort', () => resolve(undefined), { once: true }),
    );
    // The lookup may ignore its signal: the race bounds it anyway.
    const found = await Promise.race([
      (this.opts.lookup ?? baileysVersionLookup)(signal).catch(() => undefined),
      timedOut,
    ]);
    if (found && found.join('.') !== this.fetched?.join('.')) {
      this.opts.log?.warn(
        { version: found.join('.') },
        'login refused (405): announcing the current client version from now on',
      );
      this.fetched = found;
    } else if (!found)
      this.opts.log?.error(
        { timeoutMs },
        'login refused (405) and the current client version could not be looked up',
      );
    return this.current;
  }
}
