import { parseJid } from '../phone/jid.ts';
import { phoneOfLid } from './repository.ts';

/**
 * LID → phone digits, the one cache of them in the service. Bounded in entries and, when given
 * `maxBytes`, in bytes (the least recently used entry goes first), and in age, so a link that lives for weeks or a warm Lambda never grows without
 * end; a forgotten mapping is found again where it came from (the network, the store).
 */
export class LidCache {
  private readonly entries = new Map<string, { phone: string; at: number }>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private heldBytes = 0;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(opts: { maxEntries?: number; maxBytes?: number; ttlMs?: number; now?: () => number } = {}) {
    this.maxEntries = opts.maxEntries ?? 5_000;
    this.maxBytes = opts.maxBytes ?? Number.POSITIVE_INFINITY;
    this.ttlMs = opts.ttlMs ?? 3_600_000;
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the entries hold, about (strings, the entry object, the map slot). */
  get bytes(): number {
    return this.heldBytes;
  }

  get(lid: string): string | undefined {
    const e = this.entries.get(lid);
    if (!e) return undefined;
    this.remove(lid, e);
    if (this.now() - e.at >= this.ttlMs) return undefined;
    this.heldBytes += entryBytes(lid, e.phone);
    this.entries.set(lid, e);
    return e.phone;
  }

  /** Keeps a mapping; true when it is news (unknown until now, or known with another phone). */
  set(lid: string, phone: string): boolean {
    const news = this.get(lid) !== phone;
    const old = this.entries.get(lid);
    if (old) this.remove(lid, old);
    this.entries.set(lid, { phone, at: this.now() });
    this.heldBytes += entryBytes(lid, phone);
    while (this.entries.size > this.maxEntries || (this.heldBytes > this.maxBytes && this.entries.size > 1)) {
      const oldest = this.entries.entries().next();
      if (oldest.done) break;
      this.remove(oldest.value[0], oldest.value[1]);
    }
    return news;
  }

  private remove(lid: string, e: { phone: string }): void {
    this.entries.delete(lid);
    this.heldBytes -= entryBytes(lid, e.phone);
  }
}

/** About what one entry holds: two strings (16 bytes each plus their characters), the entry, its slot. */
const entryBytes = (lid: string, phone: string) => 32 + lid.length + phone.length + 64;

/** `<lid>@lid` (with or without a device) or the bare LID → the bare LID. */
export const bareLid = (lid: string) => parseJid(lid)?.user ?? lid;

/**
 * Phones the store has revealed, for every tenant and session this process serves. A LID's phone does
 * not change, so hits are kept; misses are not, since the mapping may be stored after the message.
 */
const revealed = new LidCache({ maxEntries: 50_000 });

/** The phone behind a LID (bare or `<lid>@lid`) as the network revealed it to this session. */
export async function lookupPhoneOfLid(
  tenantId: string,
  sessionId: string,
  lid: string,
): Promise<string | undefined> {
  const bare = bareLid(lid);
  const key = `${tenantId}#${sessionId}#${bare}`;
  const hit = revealed.get(key);
  if (hit) return hit;
  // Mappings are stored under the bare LID; one stored under its JID form is found too.
  const phone =
    (await phoneOfLid(tenantId, sessionId, bare)) ??
    (bare !== lid ? await phoneOfLid(tenantId, sessionId, lid) : undefined);
  if (phone) revealed.set(key, phone);
  return phone;
}

/** Lookups for one request: each LID is read at most once, found or not. */
export class LidLookup {
  private readonly pending = new Map<string, Promise<string | undefined>>();
  constructor(private readonly tenantId: string) {}

  phoneOf(sessionId: string, lid: string): Promise<string | undefined> {
    const key = `${sessionId}#${bareLid(lid)}`;
    let p = this.pending.get(key);
    if (!p) {
      p = lookupPhoneOfLid(this.tenantId, sessionId, lid);
      this.pending.set(key, p);
    }
    return p;
  }
}
