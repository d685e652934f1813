import { randomBytes, randomInt } from 'node:crypto';
import { must } from '#shared/must';
import { type Account, Accounts, type Link, lidPhone } from './accounts.ts';

/**
 * Linking a device to an account and the link's life: QR or pairing-code linking that the
 * simulated phone completes by itself (or on `scan`, for a held session), login with a token, a
 * second link replacing the first, and the faults tests ask for (a frozen or dropped link).
 */

const LINK_DELAY_MS = 300;

export class LinkingNetwork extends Accounts {
  private nextLinkId = 1;
  /** Sessions whose phone waits for `scan` instead of linking by itself (a test that must see the QR). */
  private held = new Set<string>();

  newLinkId(): number {
    return this.nextLinkId++;
  }

  /**
   * A device connects. With a valid token it is opened at once; without one it goes through QR or
   * pairing-code linking, which the simulated phone completes after a short delay.
   */
  attach(
    sessionId: string,
    link: Link,
    auth: { token?: string; method: 'qr' | 'phone'; phoneNumber?: string },
  ): void {
    const a = this.account(sessionId);
    if (auth.token) {
      if (!a.token || a.token !== auth.token) {
        link.push({ type: 'close', reason: 'logged_out', detail: 'device was logged out (401)' });
        link.end();
        return;
      }
      // Linking sets the mobile with the token; logging out clears the token only.
      const mobile = must(a.mobile, `the mobile of linked session ${sessionId}`);
      this.replaceLink(a, link);
      link.push({ type: 'open', mobile });
      this.flush(a);
      return;
    }
    this.replaceLink(a, link);
    if (auth.method === 'phone') {
      link.push({ type: 'pairing-code', code: randomBytes(4).toString('hex').toUpperCase() });
    } else {
      link.push({ type: 'qr', qr: `2@${randomBytes(24).toString('base64')},sim,${sessionId}` });
    }
    const scan = () => {
      if (a.link !== link) return;
      a.mobile = auth.phoneNumber ?? `91${randomInt(7_000_000_000, 9_999_999_999)}`;
      a.token = randomBytes(16).toString('hex');
      link.push({ type: 'linked', token: a.token, mobile: a.mobile });
      link.push({ type: 'open', mobile: a.mobile });
      this.flush(a);
    };
    setTimeout(() => {
      if (this.held.has(sessionId)) a.scan = scan;
      else scan();
    }, LINK_DELAY_MS);
  }

  detach(sessionId: string, link: Link): void {
    const a = this.accounts.get(sessionId);
    if (a?.link === link) a.link = undefined;
  }

  private replaceLink(a: Account, link: Link): void {
    if (a.frozen && a.frozen !== link) {
      a.frozen.end();
      a.frozen = undefined;
    }
    if (a.link && a.link !== link) {
      a.link.push({
        type: 'close',
        reason: 'replaced',
        detail: 'connection replaced by another device (440)',
      });
      a.link.end();
    }
    a.link = link;
  }

  /**
   * A link opened: first what earlier links were given and never acknowledged (in order; a message
   * from behind a LID with its mapping again, which that link may not have passed on either), then
   * what waited for a link.
   */
  private flush(a: Account): void {
    if (!a.link || !a.token) return;
    const link = a.link;
    const frames = a.pending.splice(0);
    const waiting = new Set(frames.flatMap((f) => (f.type === 'message' ? [f.id] : [])));
    for (const { frame } of a.kept.values()) {
      if (waiting.has(frame.id)) continue;
      const phone = frame.lid ? lidPhone(a, frame.lid) : undefined;
      if (frame.lid && phone) link.push({ type: 'lid-mapping', lid: frame.lid, phone });
      link.push(frame);
    }
    for (const f of frames) link.push(f);
  }

  /** True when the device's link is alive; a frozen link answers nothing, like a dead socket. */
  probe(sessionId: string, token: string): boolean {
    const a = this.accounts.get(sessionId);
    return a?.token === token && !(a.frozen && a.frozen === a.link);
  }

  /** The phone of `sessionId` will not scan by itself: it waits for `scan`. */
  holdLinking(sessionId: string): void {
    this.held.add(sessionId);
  }

  /**
   * The phone scans the QR (or takes the pairing code) of a held session now, or as soon as it is
   * shown. Answers false for a session no device ever connected as.
   */
  scan(sessionId: string): boolean {
    this.held.delete(sessionId);
    const a = this.accounts.get(sessionId);
    if (!a) return false;
    const scan = a.scan;
    a.scan = undefined;
    scan?.();
    return true;
  }

  /** The link stays open but nothing more flows on it: what a zombie socket looks like. */
  freeze(identifier: string): boolean {
    const a = this.find(identifier);
    if (!a?.link) return false;
    a.frozen = a.link;
    return true;
  }

  disconnect(identifier: string): boolean {
    const a = this.find(identifier);
    if (!a?.link) return false;
    const link = a.link;
    a.link = undefined;
    link.push({ type: 'close', reason: 'transient', detail: 'connection lost (428)' });
    link.end();
    return true;
  }

  logout(sessionId: string, token: string): void {
    const a = this.accounts.get(sessionId);
    if (!a || a.token !== token) return;
    a.token = undefined;
    // Messages for the unlinked device are not shown to the next device linked by QR.
    a.kept.clear();
    a.keptBytes = 0;
    a.link?.end();
    a.link = undefined;
  }
}
