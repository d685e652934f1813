import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AttemptRecord } from '../../../../shared/webhooks/lifecycle.ts';
import { api, type Session } from './api.ts';
import {
  ActionButton,
  Choice,
  ErrorText,
  Field,
  Form,
  Head,
  SessionChoice,
  Status,
  useLoad,
  when,
} from './ui.tsx';

interface Config {
  webhookUrl?: string | null;
  approvedDomains?: string[];
  enabled?: boolean;
  secretToken?: string | null;
}
/** A filter's choice; the empty value is "any". */
const orAny = (v: string) => ({ value: v, text: v || 'any' });
interface Delivery {
  id: string;
  event: string;
  sessionId: string | null;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  attemptLog: AttemptRecord[];
}

const STATUSES = ['', 'pending', 'sending', 'retrying', 'delivered', 'failed'];
const EVENTS = [
  '',
  'message.inbound',
  'message.status',
  'message.edited',
  'message.deleted',
  'session.status',
  'command.result',
  'chatbot.reply',
  'chat.takeover',
];

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
  const [saved, setSaved] = useState(false);
  return (
    <Form
      class="stack"
      onSubmit={async () => {
        setSaved(false);
        await api('POST', '/api/webhook/config', {
          webhookUrl: url,
          approvedDomains: domains,
          enabled,
          ...(secret ? { secretToken: secret } : {}),
        });
        setSecret('');
        setSaved(true);
      }}
    >
      <label>
        Webhook URL
        <input type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </label>
      <Field
        label="Approved domains (comma-separated; the URL's host must be one of them)"
        value={domains}
        onInput={setDomains}
      />
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
    </Form>
  );
}

/**
 * The delivery log, newest first, filtered by status, session and event (the API filters); a
 * delivery's attempts open under it; an undelivered one can be sent again.
 */
function Deliveries() {
  const [status, setStatus] = useState('');
  const [sessionId, setSessionId] = useState('');
  const [event, setEvent] = useState('');
  const [open, setOpen] = useState<string>();
  const sessions = useLoad(() =>
    api<{ sessions: Session[] }>('GET', '/api/sessions').then((r) => r.sessions),
  );
  const log = useLoad(() => {
    const q = new URLSearchParams({ limit: '50' });
    if (status) q.set('status', status);
    if (sessionId) q.set('sessionId', sessionId);
    if (event) q.set('event', event);
    return api<{ deliveries: Delivery[] }>('GET', `/api/webhook/deliveries?${q}`).then((r) => r.deliveries);
  }, 5000);
  useEffect(() => {
    log.reload();
  }, [status, sessionId, event]);
  return (
    <div>
      <h3>Deliveries</h3>
      <fieldset class="row filters">
        <legend>Filters</legend>
        <Choice label="Status" value={status} options={STATUSES.map(orAny)} onChange={setStatus} />
        <SessionChoice
          label="Session"
          sessions={sessions.data ?? []}
          first={orAny('')}
          value={sessionId}
          onChange={setSessionId}
        />
        <Choice label="Event" value={event} options={EVENTS.map(orAny)} onChange={setEvent} />
      </fieldset>
      <ErrorText error={log.error ?? sessions.error} />
      <table aria-label="Deliveries">
        <Head columns={['Event', 'Status', 'Attempts', 'Last answer', 'Created', '']} />
        <tbody>
          {(log.data ?? []).map((d) => (
            <Fragment key={d.id}>
              <tr data-delivery={d.id}>
                <td>{d.event}</td>
                <td>
                  <Status value={d.status} />
                </td>
                <td>
                  <button
                    type="button"
                    class="link"
                    aria-expanded={open === d.id}
                    aria-label={`Attempts of ${d.event} ${d.id}`}
                    onClick={() => setOpen(open === d.id ? undefined : d.id)}
                  >
                    {d.attempts}
                  </button>
                </td>
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
              {open === d.id && (
                <tr class="attempts">
                  <td colSpan={6}>
                    <Attempts delivery={d} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every attempt of one delivery, in order: when, where, the answer or error, how long, the outcome. */
function Attempts({ delivery: d }: { delivery: Delivery }) {
  if (d.attemptLog.length === 0) return <p class="muted">No attempt yet.</p>;
  return (
    <table aria-label={`Attempts of ${d.id}`}>
      <Head columns={['Round', 'Attempt', 'When', 'Answer', 'Took', 'Outcome']} />
      <tbody>
        {d.attemptLog.map((a) => (
          <tr key={`${a.round}-${a.attempt}`}>
            <td>{a.round}</td>
            <td>{a.attempt}</td>
            <td>{when(a.at)}</td>
            <td>{a.statusCode ?? a.error ?? ''}</td>
            <td>{Math.round(a.durationMs)} ms</td>
            <td>
              <Status value={a.outcome} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
