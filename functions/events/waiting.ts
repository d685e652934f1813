/**
 * Keys with counts noted and not written, by when (wall clock) the first was noted, oldest first:
 * what chat-activity.ts and daily-received.ts write a minute on when no next message comes.
 */
export class Waiting {
  private readonly since = new Map<string, number>();

  /** A count was noted and not written: waits from now, unless it waited already. */
  note(key: string): void {
    if (!this.since.has(key)) this.since.set(key, Date.now());
  }

  /** Its counts were taken for a write. */
  done(key: string): void {
    this.since.delete(key);
  }

  /** Takes the keys that waited at least `ms` by `now`, oldest first. */
  takeOlder(now: number, ms: number): string[] {
    const taken: string[] = [];
    // In the order noted (a key noted again after `done` goes last), so the first too young ends it.
    for (const [key, at] of this.since) {
      if (now - at < ms) break;
      this.since.delete(key);
      taken.push(key);
    }
    return taken;
  }

  get any(): boolean {
    return this.since.size > 0;
  }
}
