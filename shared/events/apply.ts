import { logger } from '../log/logger.ts';
import { saveMessage, advanceStatus } from '../messages/repository.ts';
import { addAlias, applySessionState } from '../sessions/repository.ts';
import { recordCommandResult } from '../commands/results.ts';
import { saveContacts, saveGroup, saveLidMapping } from '../contacts/repository.ts';
import type { HostEvent } from './types.ts';

/**
 * Applies one host event to the store. Every branch is idempotent: the same SQS message twice
 * (or a late one) leaves the store as it was.
 */
export async function applyHostEvent(e: HostEvent): Promise<void> {
  switch (e.kind) {
    case 'session.status': {
      const updated = await applySessionState(e.tenantId, e.sessionId, e.at, {
        status: e.status,
        reason: e.reason,
        qr: e.qr,
        pairingCode: e.pairingCode,
        mobile_number: e.mobile,
      });
      if (updated && e.mobile) await addAlias(e.tenantId, e.mobile, e.sessionId);
      logger.info({ sessionId: e.sessionId, status: e.status, applied: Boolean(updated) }, 'session status');
      return;
    }
    case 'message.inbound': {
      const m = e.message;
      await saveMessage({
        tenantId: e.tenantId,
        sessionId: e.sessionId,
        messageId: m.id,
        direction: 'inbound',
        chatId: m.chatId,
        senderPhone: m.senderPhone,
        senderLid: m.senderLid,
        senderName: m.senderName,
        groupId: m.groupId,
        kind: m.kind,
        text: m.text,
        caption: m.caption,
        fileName: m.fileName,
        mimetype: m.mimetype,
        mediaKey: m.mediaKey,
        status: 'delivered',
        timestampMs: m.timestampMs,
        statusAt: e.at,
      });
      if (m.senderPhone) {
        await saveContacts(e.tenantId, e.sessionId, [{ phone: m.senderPhone, name: m.senderName }], m.timestampMs);
      }
      return;
    }
    case 'message.status':
      await advanceStatus(e.tenantId, e.sessionId, e.messageId, e.status, e.at, e.reason);
      return;
    case 'contacts':
      await saveContacts(e.tenantId, e.sessionId, e.contacts);
      return;
    case 'group':
      await saveGroup(e.tenantId, e.sessionId, e);
      return;
    case 'lid.mapping':
      await saveLidMapping(e.tenantId, e.sessionId, e.lid, e.phone);
      return;
    case 'command.result':
      await recordCommandResult(e.tenantId, e.commandId, e.ok, e.result, e.error, e.at);
      return;
  }
}
