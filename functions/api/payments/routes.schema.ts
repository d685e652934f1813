import { z } from '@hono/zod-openapi';
import { json, ok, routesTagged } from '#shared/http/schemas';
import { UPI_ID_PATTERN } from './upi.ts';

/**
 * The definitions of the routes of routes.ts: their schemas, which also make /openapi.json.
 */

const route = routesTagged('payments');

/** Largest amount accepted, in rupees (above every UPI per-transaction limit). */
export const MAX_AMOUNT = 10_000_000;

export const linkRoute = route({
  method: 'post',
  path: '/link',
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
    200: ok({
      upi_id: z.string(),
      upi_name: z.string(),
      amount: z.number(),
      booking_id: z.string().nullable(),
      upi_uri: z.string().openapi({
        example: 'upi://pay?pa=shop@okaxis&pn=Asha%20Clinic&am=499.50&tn=Booking%20B17&cu=INR',
      }),
      qr_image_url: z.string().openapi({ description: 'Presigned URL of a PNG QR of upi_uri, valid 7 days' }),
      gpay_deep_link: z.string(),
    }),
    422: json(
      z.object({ success: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
      'No payee configured (PAYMENT_NOT_CONFIGURED)',
    ),
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

export const settingsRoute = route({
  method: 'get',
  path: '/settings',
  summary: "The tenant's payment settings and the payee in effect",
  responses: { 200: json(settingsResponse) },
});

export const saveSettingsRoute = route({
  method: 'put',
  path: '/settings',
  summary: "Set the tenant's UPI payee (overrides PAYMENT_UPI_ID / PAYMENT_UPI_NAME)",
  request: { body: { content: { 'application/json': { schema: Settings } } } },
  responses: { 200: json(settingsResponse) },
});

export const deleteSettingsRoute = route({
  method: 'delete',
  path: '/settings',
  summary: "Remove the tenant's payee (links fall back to the environment's, if any)",
  responses: { 200: json(settingsResponse) },
});
