import { env } from '#shared/config/env';
import { router } from '#shared/http/context';
import { ServiceError, ValidationError } from '#shared/http/errors';
import { requireAuth } from '../auth/middleware.ts';
import { paymentQrUrl } from './qr.ts';
import {
  deleteSettingsRoute,
  linkRoute,
  MAX_AMOUNT,
  saveSettingsRoute,
  settingsRoute,
} from './routes.schema.ts';
import { deletePaymentSettings, getPaymentSettings, putPaymentSettings } from './settings.ts';
import { resolvePayee, upiNote, upiUri } from './upi.ts';

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

  r.openapi(settingsRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const settings = (await getPaymentSettings(tenant)) ?? null;
    const payee = await effectivePayee(tenant);
    return c.json({ success: true as const, settings, effective: payee ?? null }, 200);
  });

  r.openapi(saveSettingsRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const settings = await putPaymentSettings(tenant, c.req.valid('json'));
    const payee = await effectivePayee(tenant);
    return c.json({ success: true as const, settings, effective: payee ?? null }, 200);
  });

  r.openapi(deleteSettingsRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    await deletePaymentSettings(tenant);
    const payee = await effectivePayee(tenant);
    return c.json({ success: true as const, settings: null, effective: payee ?? null }, 200);
  });
  return r;
}
