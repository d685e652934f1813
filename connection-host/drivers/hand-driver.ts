import type { DriverEvents, DriverLink, NetworkDriver } from './driver.ts';

/**
 * A driver for tests of the host, whose links a test opens and closes by hand (through the events
 * each connect was given); each link records the message ids it was asked to send. The command
 * tests share it (connection-host/commands.test.ts, tests/integration/command-ready-wait.test.ts);
 * it lives here because the host's own tests may not import from tests/ (the image's build
 * context holds them).
 */
export function handDriver() {
  const links: Array<{ events: DriverEvents; sent: string[] }> = [];
  const nothing = async () => {};
  const driver: NetworkDriver = {
    name: 'simulator',
    async connect(_request, events) {
      const sent: string[] = [];
      links.push({ events, sent });
      return {
        send: async (messageId: string) => {
          sent.push(messageId);
        },
        presence: nothing,
        read: nothing,
        react: nothing,
        pin: nothing,
        checkNumbers: async () => [],
        edit: nothing,
        revoke: nothing,
        postStatus: nothing,
        groupAction: async () => ({}),
        rejectCall: nothing,
        probe: nothing,
        logout: nothing,
        close: nothing,
      } satisfies DriverLink;
    },
    clearAuth: nothing,
  };
  /** The events of the latest link: what the test calls to open or close it. */
  const latest = (): DriverEvents => {
    const link = links.at(-1);
    if (!link) throw new Error('the driver was never connected');
    return link.events;
  };
  /** Every message id sent, over all the links, in order. */
  const sent = () => links.flatMap((l) => l.sent);
  return { driver, links, latest, sent };
}
