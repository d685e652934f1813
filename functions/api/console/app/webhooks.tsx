import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api.ts';
import { ActionButton, ErrorText, Status, useLoad, when } from './ui.tsx';

interface Config {
  webhookUrl?: string | null;
  approvedDomains?: string[];
  enabled?: boolean;
  secretToken?: string | null;
}
interface Delivery {
  id: string;
  event: string;
  sessionId: string | null;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
}

const STATUSES = ['', 'pending', 'sending', 'retrying', 'delivered', 'failed'];

export function WebhooksPage() {
  return (
    <section>
      <h2>Webhooks</h2>
      <WebhookConfig />
      <Deliveries />
    </section>
  );
}

/** The tenant-wide webhook (per-session overrides stay in the API). The secret is write-only. */
function WebhookConfig() {
  const config = useLoad(() =>
    api<{ config: Config | null }>('GET', '/api/webhook/config').then((r) => r.config ?? {}),
  );
  return (
    <div>
      <h3>Configuration</h3>
      <ErrorText error={config.error} />
      {/* The form starts from what is stored, so it is shown only once that is known. */}
      {config.data ? <ConfigForm stored={config.data} /> : !config.error && <p class="muted">Loading…</p>}
    </div>
  );
}

function ConfigForm({ stored }: { stored: Config }) {
  const [url, setUrl] = useState(stored.webhookUrl ?? '');
  const [domains, setDomains] = useState((stored.approvedDomains ?? []).join(', '));
  const [secret, setSecret] = useState('');
  const [enabled, setEnabled] = useState(stored.enabled ?? true);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  return (
    <form
      class="stack"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(undefined);
        setSaved(false);
        try {
          await api('POST', '/api/webhook/config', {
            webhookUrl: url,
            approvedDomains: domains,
            enabled,
            ...(secret ? { secretToken: secret } : {}),
          });
          setSecret('');
          setSaved(true);
        } catch (err) {
          setError(messageOf(err));
        }
      }}
    >
      <label>
        Webhook URL
        <input type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </label>
      <label>
        Approved domains (comma-separated; the URL's host must be one of them)
        <input value={domains} onInput={(e) => setDomains(e.currentTarget.value)} />
      </label>
      <label>
        Signing secret (leave empty to keep the current one)
        <input
          type="password"
          autocomplete="off"
          value={secret}
          onInput={(e) => setSecret(e.currentTarget.value)}
        />
      </label>
      <label class="check">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />{' '}
        Enabled
      </label>
      <button type="submit">Save webhook</button>
      {saved && <p role="status">Saved.</p>}
      <ErrorText error={error} />
    </form>
  );
}

/** The delivery log, newest first, filtered by status; an undelivered one can be sent again. */
function Deliveries() {
  const [status, setStatus] = useState('');
  const log = useLoad(
    () =>
      api<{ deliveries: Delivery[] }>(
        'GET',
        `/api/webhook/deliveries?limit=50${status ? `&status=${status}` : ''}`,
      ).then((r) => r.deliveries),
    5000,
  );
  useEffect(() => {
    log.reload();
  }, [status]);
  return (
    <div>
      <h3>Deliveries</h3>
      <label>
        Status
        <select value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s || 'any'}
            </option>
          ))}
        </select>
      </label>
      <ErrorText error={log.error} />
      <table>
        <thead>
          <tr>
            <th>Event</th>
            <th>Status</th>
            <th>Attempts</th>
            <th>Last answer</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(log.data ?? []).map((d) => (
            <tr key={d.id} data-delivery={d.id}>
              <td>{d.event}</td>
              <td>
                <Status value={d.status} />
              </td>
              <td>{d.attempts}</td>
              <td>{d.lastStatusCode ?? d.lastError ?? ''}</td>
              <td>{when(d.createdAt)}</td>
              <td>
                {d.status !== 'delivered' && (
                  <ActionButton
                    onClick={async () => {
                      await api('POST', `/api/webhook/deliveries/${d.id}/redeliver`);
                      await log.reload();
                    }}
                  >
                    Redeliver
                  </ActionButton>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
