import { z } from '@hono/zod-openapi';

/** `/{identifier}`: a session named by its mobile number, mobid or session id (usage routes). */
export const SessionIdentifierParam = z.object({
  identifier: z
    .string()
    .min(1)
    .max(100)
    .openapi({
      description: 'Mobile number, mobid or session id',
      param: { name: 'identifier', in: 'path' },
    }),
});
