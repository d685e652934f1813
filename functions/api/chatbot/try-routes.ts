import { planTurn } from '#shared/chatbot/decide';
import { rulesForKeys } from '#shared/chatbot/rules';
import { GLOBAL_KEY } from '#shared/chatbot/session-keys';
import { router } from '#shared/http/context';
import { keysFor } from './knowledge-common.ts';
import { tryRoute } from './try-routes.schema.ts';

/**
 * `POST /try` (mounted under `/api/v1/chatbot`; docs/chatbot.md, "Trying a message"): the chatbot's
 * decision for a typed message, by the same evaluation order as a real turn (planTurn), without
 * calling the model, storing or sending anything.
 */
export function tryRoutes() {
  const r = router();
  r.openapi(tryRoute, async (c) => {
    const tenant = c.get('auth').tenant;
    const { sessionKey = GLOBAL_KEY, text } = c.req.valid('json');
    const keys = await keysFor(tenant, sessionKey);
    const plan = await planTurn({ tenantId: tenant, keys, text, lastText: text });
    const ruleId = plan.kind === 'silent' ? undefined : plan.ruleId;
    const rule = ruleId ? (await rulesForKeys(tenant, keys)).find((x) => x.id === ruleId) : undefined;
    const explanation = plan.kind === 'silent' ? undefined : plan.explanation;
    return c.json(
      {
        success: true as const,
        sessionKey,
        tier: plan.kind === 'silent' ? null : plan.kind === 'model' ? ('model' as const) : plan.tier,
        silentReason: plan.kind === 'silent' ? plan.reason : null,
        rule: rule
          ? { id: rule.id, mobid: rule.mobid, triggerType: rule.triggerType, keyword: rule.keyword }
          : null,
        intent: plan.kind === 'reply' ? (plan.intent ?? null) : null,
        candidates: explanation?.candidates ?? [],
        deferReason: explanation?.deferReason ?? null,
        reply: plan.kind === 'reply' ? plan.text : null,
      },
      200,
    );
  });
  return r;
}
