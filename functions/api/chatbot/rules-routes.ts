import { deleteRule, listRules, putRule } from '#shared/chatbot/rules';
import { router } from '#shared/http/context';
import { NotFoundError } from '#shared/http/errors';
import { deleteRuleRoute, listRulesRoute, saveRuleRoute } from './rules-routes.schema.ts';

/** `/rules`: static and AI rules per session key (mounted under `/api/v1/chatbot`). */
export function rulesRoutes() {
  const r = router();

  r.openapi(listRulesRoute, async (c) => {
    const { mobid } = c.req.valid('query');
    return c.json({ success: true as const, rules: await listRules(c.get('auth').tenant, mobid) }, 200);
  });

  r.openapi(saveRuleRoute, async (c) => {
    const rule = await putRule(c.get('auth').tenant, c.req.valid('json'));
    return c.json({ success: true as const, message: `rule ${rule.id} created`, rule }, 201);
  });

  r.openapi(deleteRuleRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!(await deleteRule(c.get('auth').tenant, id))) throw new NotFoundError(`rule "${id}" not found`);
    return c.json({ success: true as const, message: `rule ${id} deleted`, id }, 200);
  });
  return r;
}
