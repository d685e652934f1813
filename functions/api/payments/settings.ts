import { paymentSettingsKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import type { Payee } from './upi.ts';

export interface PaymentSettings extends Payee {
  updatedAt: string;
}

export async function getPaymentSettings(tenantId: string): Promise<PaymentSettings | undefined> {
  const item = await dataTable.get<PaymentSettings>(paymentSettingsKey(tenantId));
  return item ? { upiId: item.upiId, upiName: item.upiName, updatedAt: item.updatedAt } : undefined;
}

export async function putPaymentSettings(tenantId: string, payee: Payee): Promise<PaymentSettings> {
  const settings = { ...payee, updatedAt: new Date().toISOString() };
  await dataTable.put({ ...paymentSettingsKey(tenantId), type: 'paymentSettings', tenantId, ...settings });
  return settings;
}

export async function deletePaymentSettings(tenantId: string): Promise<void> {
  await dataTable.delete(paymentSettingsKey(tenantId));
}
