import { z } from '@hono/zod-openapi';
import { ProxyUrlInput } from '#shared/sessions/proxy-url';

/** The longest `rejectMessage`: a short note, not a broadcast. */
const REJECT_MESSAGE_MAX = 1000;

/**
 * Session settings a caller may give at creation and change later (`PATCH /api/sessions/{id}`).
 * One owner for their validation: both routes spread these fields.
 */
export const SettingsFields = {
  rejectCalls: z.boolean().optional().openapi({
    description: 'Decline every call to the account as it rings (docs/sessions.md, "Calls"); default false',
  }),
  rejectMessage: z.string().trim().min(1).max(REJECT_MESSAGE_MAX).nullable().optional().openapi({
    description: 'Text sent to a caller after a call is declined by rejectCalls; null clears it',
  }),
  proxyUrl: ProxyUrlInput.nullable().optional().openapi({
    description:
      'The proxy the session links through: http://, https:// or socks5:// with user:password@ if needed (docs/sessions.md, "Proxy"). Answered masked; sent back masked, the stored password is kept. null removes it',
    example: 'socks5://user:secret@proxy.example.com:1080',
  }),
};

/** The settings as stored on the session: absent fields unchanged, `null` clears. */
export type SettingsInput = {
  rejectCalls?: boolean;
  rejectMessage?: string | null;
  proxyUrl?: string | null;
};
