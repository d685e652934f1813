import { z } from '@hono/zod-openapi';

export const HttpUrl = z
  .string()
  .trim()
  .max(2048)
  .url('must be a URL')
  .refine((v) => /^https?:\/\//i.test(v), 'must be an http(s) URL');

export const Button = z.object({
  id: z.string().trim().min(1).max(256),
  title: z.string().trim().min(1).max(20),
});

export const TemplateHeader = z.object({
  type: z.enum(['image', 'document', 'video']),
  url: HttpUrl,
  fileName: z.string().max(255).optional(),
});

export const TemplateInput = z
  .object({
    name: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'letters, digits, `_`, `.` and `-`, at most 100 characters'),
    body: z.string().min(1).max(4096).openapi({ description: 'Text with placeholders `{{1}}`, `{{2}}`, …' }),
    language: z.string().trim().min(2).max(15).default('en'),
    header: TemplateHeader.optional(),
    buttons: z.array(Button).min(1).max(3).optional(),
  })
  .openapi('TemplateInput');
export type TemplateInput = z.infer<typeof TemplateInput>;

export interface StoredTemplate extends TemplateInput {
  /** The placeholder numbers the body uses, ascending. */
  placeholders: number[];
  createdAt: string;
  updatedAt: string;
}

const PLACEHOLDER = /\{\{\s*(\d{1,3})\s*\}\}/g;

export function placeholdersOf(body: string): number[] {
  const found = new Set<number>();
  for (const m of body.matchAll(PLACEHOLDER)) found.add(Number(m[1]));
  return [...found].sort((a, b) => a - b);
}

/** Replaces `{{n}}` with `params[n-1]`; answers the first placeholder that has no value instead. */
export function fillPlaceholders(
  body: string,
  params: ReadonlyArray<string | number>,
): { text: string } | { missing: number } {
  for (const n of placeholdersOf(body)) {
    if (n < 1 || params[n - 1] === undefined) return { missing: n };
  }
  return { text: body.replace(PLACEHOLDER, (_, n: string) => String(params[Number(n) - 1])) };
}
