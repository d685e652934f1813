import { names } from '#shared/aws/names';
import type { HostEvent } from '#shared/events/types';
import { sendJson } from '#shared/queue/send';

/** Every network event leaves the host through the events queue; consumers store and fan out. */
export function emitEvent(event: HostEvent): Promise<void> {
  return sendJson(names.eventsQueue(), event);
}
