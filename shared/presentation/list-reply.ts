/**
 * A list reply as the payloads show it: the webhook's `message.inbound` and the SSE feed's message
 * event show the customer's chosen row the same way.
 */
export const listReplyOf = (r: { id: string; title: string; description?: string }) => ({
  id: r.id,
  title: r.title,
  description: r.description ?? null,
});
