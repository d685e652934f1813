import { chatbotTurnKey } from '#shared/store/keys';
import { dataTable } from '#shared/store/tables';
import { waitFor } from './client.ts';

/**
 * The chatbot consumer has decided on this message (answered, or why not): its job is over. It
 * checks the decision, not its speed: a turn goes through two queues and may call the model (the
 * extraction), and the whole run shares two cores.
 */
export const chatbotTurnDone = (tenantId: string, sessionId: string, messageId: string) =>
  waitFor(
    async () =>
      (await dataTable.get<{ state: string }>(chatbotTurnKey(tenantId, sessionId, messageId), true))
        ?.state === 'done',
    30_000,
    `the chatbot turn of ${messageId}`,
  );
