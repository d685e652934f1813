import type { WAMessage } from '@whiskeysockets/baileys';

/** How the driver fetches an inbound message's media: Baileys' download and the phone's re-upload. */
export interface MediaSource {
  /** The media's bytes; `signal` is passed on, though Baileys' download may ignore it. */
  download(message: WAMessage, signal: AbortSignal): Promise<Uint8Array>;
  /** Asks the sender's phone to upload the media again (the CDN copy expired); the message as updated. */
  reupload(message: WAMessage): Promise<WAMessage>;
}

export type MediaOutcome = { bytes: Uint8Array } | { missing: string };

/** The CDN's answers for media it no longer has: the phone must upload it again. */
const EXPIRED = new Set([404, 410]);

/** The HTTP status of a failed download: Baileys throws a Boom (`output.statusCode`), not `status`. */
function httpStatus(err: unknown): number | undefined {
  const e = err as { output?: { statusCode?: unknown }; status?: unknown } | undefined;
  const s = e?.output?.statusCode ?? e?.status;
  return typeof s === 'number' ? s : undefined;
}

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Fetches a message's media within `timeoutMs` in all, or says why it is missing; never throws and
 * never takes longer. Expired media (404/410) is asked of the phone again once, within the same
 * bound: Baileys' own re-upload never triggers in rc14 (it reads `error.status`, which its Boom
 * errors do not have). The bound is a race, not only the abort signal: Baileys' download does not
 * stop on it, and one hung download would otherwise hold every later message of the link.
 */
export async function fetchMedia(
  message: WAMessage,
  source: MediaSource,
  timeoutMs: number,
): Promise<MediaOutcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<MediaOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ missing: `the media did not arrive within ${timeoutMs / 1000} s` });
    }, timeoutMs);
  });
  const attempt = async (): Promise<MediaOutcome> => {
    try {
      return { bytes: await source.download(message, controller.signal) };
    } catch (err) {
      if (!EXPIRED.has(httpStatus(err) ?? 0)) return { missing: `the download failed: ${why(err)}` };
    }
    let fresh: WAMessage;
    try {
      fresh = await source.reupload(message);
    } catch (err) {
      return { missing: `the media expired and the phone did not upload it again: ${why(err)}` };
    }
    try {
      return { bytes: await source.download(fresh, controller.signal) };
    } catch (err) {
      return { missing: `the media expired; its re-upload could not be downloaded: ${why(err)}` };
    }
  };
  try {
    return await Promise.race([attempt(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
