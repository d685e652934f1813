import { createRoute, z } from '@hono/zod-openapi';
import { env } from '#shared/config/env';
import { router } from '#shared/http/context';
import { ServiceError, ValidationError } from '#shared/http/errors';
import { bearer, errorResponses, json } from '#shared/http/schemas';
import { requireAuth } from '../auth/middleware.ts';
import { paymentQrUrl } from './qr.ts';
import { deletePaymentSettings, getPaymentSettings, putPaymentSettings } from './settings.ts';
import { resolvePayee, UPI_ID_PATTERN, upiNote, upiUri } from './upi.ts';

const tags = ['payments'];

/** Largest amount accepted, in rupees (above every UPI per-transaction limit). */
const MAX_AMOUNT = 10_000_000;

const linkRoute = createRoute({
  method: 'post',
  path: '/link',
  tags,
  security: bearer,
  summary: 'A UPI payment link and its QR code (docs/payments.md)',
  request: {
    body: {
      content: {
        'application/json': {
          schema: z.object({
            amount: z.union([z.number(), z.string()]).optional().openapi({
              type: 'number',
              description: 'Rupees, greater than 0, at most two decimals',
              example: 499.5,
            }),
            bookingId: z.string().trim().max(100).optional(),
            customerName: z.string().trim().max(100).optional(),
          }),
        },
      },
    },
  },
  responses: {
    200: json(
      z.object({
        success: z.literal(true),
        upi_id: z.string(),
        upi_name: z.string(),
        amount: z.number(),
        booking_id: z.string().nullable(),
        upi_uri: z.string().openapi({
          example: 'upi://pay?pa=shop@okaxis&pn=Asha%20Clinic&am=499.50&tn=Booking%20B17&cu=INR',
        }),
        qr_image_url: z
          .string()
          .openapi({ description: 'Presigned URL of a PNG QR of upi_uri, valid 7 days' }),
        gpay_deep_link: z.string(),
      }),
    ),
    422: json(
      z.object({ success: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
      'No payee configured (PAYMENT_NOT_CONFIGURED)',
    ),
    ...errorResponses,
  },
});

const Settings = z
  .object({
    upiId: z.string().trim().regex(UPI_ID_PATTERN, 'a UPI id such as shop.owner@okaxis'),
    upiName: z.string().trim().min(1).max(100),
  })
  .openapi('PaymentSettings');

const settingsResponse = z.object({
  success: z.literal(true),
  settings: z
    .object({ upiId: z.string(), upiName: z.string(), updatedAt: z.string() })
    .nullable()
    .openapi({ description: "The tenant's own payee, or null" }),
  effective: z
    .object({ upiId: z.string(), upiName: z.string(), source: z.enum(['tenant', 'environment']) })
    .nullable()
    .openapi({ description: 'The payee payment links use now, or null (links answer 422)' }),
});

function amountOf(v: number | string | undefined): number {
  const n = typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  if (n === undefined) throw new ValidationError('amount: required, a number greater than 0', 'amount');
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw new ValidationError('amount: must be a number greater than 0', 'amount');
  if (n <= 0) throw new ValidationError('amount: must be greater than 0', 'amount');
  if (n > MAX_AMOUNT) throw new ValidationError(`amount: at most ${MAX_AMOUNT}`, 'amount');
  if (Math.abs(Math.round(n * 100) - n * 100) > 1e-6)
    throw new ValidationError('amount: at most two decimals (paise)', 'amount');
  return Math.round(n * 100) / 100;
}

async function effectivePayee(tenantId: string) {
  const e = env();
  return resolvePayee(await getPaymentSettings(tenantId), {
    PAYMENT_UPI_ID: e.PAYMENT_UPI_ID,
    PAYMENT_UPI_NAME: e.PAYMENT_UPI_NAME,
  });
}

/** Mounted at `/api/v1/payments`. Everything is scoped to the caller's tenant. */
export function paymentRoutes() {
  const r = router();
  r.use('*', requireAuth);

  r.openapi(linkRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const body = c.req.valid('json');
    const amount = amountOf(body.amount);
    const payee = await effectivePayee(tenant);
    if (!payee)
      throw new ServiceError(
        'PAYMENT_NOT_CONFIGURED',
        'no UPI payee: set one with PUT /api/v1/payments/settings (upiId, upiName) or PAYMENT_UPI_ID',
      );
    const uri = upiUri({
      payee,
      amount,
      note: upiNote(body.bookingId || undefined, body.customerName || undefined),
    });
    return c.json(
      {
        success: true as const,
        upi_id: payee.upiId,
        upi_name: payee.upiName,
        amount,
        booking_id: body.bookingId || null,
        upi_uri: uri,
        qr_image_url: await paymentQrUrl(tenant, uri),
        gpay_deep_link: uri,
      },
      200,
    );
  });

  r.openapi(
    createRoute({
      method: 'get',
      path: '/settings',
      tags,
      security: bearer,
      summary: "The tenant's payment settings and the payee in effect",
      responses: { 200: json(settingsResponse), ...errorResponses },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const settings = (await getPaymentSettings(tenant)) ?? null;
      const payee = await effectivePayee(tenant);
      return c.json({ success: true as const, settings, effective: payee ?? null }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'put',
      path: '/settings',
      tags,
      security: bearer,
      summary: "Set the tenant's UPI payee (overrides PAYMENT_UPI_ID / PAYMENT_UPI_NAME)",
      request: { body: { content: { 'application/json': { schema: Settings } } } },
      responses: { 200: json(settingsResponse), ...errorResponses },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      const settings = await putPaymentSettings(tenant, c.req.valid('json'));
      const payee = await effectivePayee(tenant);
      return c.json({ success: true as const, settings, effective: payee ?? null }, 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'delete',
      path: '/settings',
      tags,
      security: bearer,
      summary: "Remove the tenant's payee (links fall back to the environment's, if any)",
      responses: { 200: json(settingsResponse), ...errorResponses },
    }),
    async (c) => {
      const tenant = c.get('auth').tenant;
      await deletePaymentSettings(tenant);
      const payee = await effectivePayee(tenant);
      return c.json({ success: true as const, settings: null, effective: payee ?? null }, 200);
    },
  );
  return r;
}
