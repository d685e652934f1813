import { useState } from 'preact/hooks';
import { api, type Session } from './api.ts';
import { ErrorText, Field, Form, Head, Status, useLoad, when } from './ui.tsx';

interface StatusChange {
  status: string;
  reason: string | null;
  at: string;
}

/**
 * One session's health (its live state, the reconnect loop, the network's restriction), its status
 * history (GET /api/sessions/{id}/history, polled) and a rename form (PATCH /api/sessions/{id}).
 */
export function SessionDetail(props: { session: Session; onChanged: () => void; onClose: () => void }) {
  const s = props.session;
  const label = s.name || s.sessionId;
  const history = useLoad(
    () =>
      api<{ changes: StatusChange[] }>('GET', `/api/sessions/${s.sessionId}/history`).then((r) => r.changes),
    5000,
  );
  const [name, setName] = useState(s.name ?? '');
  return (
    <section class="detail" aria-label={`Session ${label}`}>
      <div class="row">
        <h3>{label}</h3>
        <button type="button" class="link" onClick={props.onClose}>
          Close
        </button>
      </div>
      <dl class="health">
        <dt>Status</dt>
        <dd>
          <Status value={s.status} /> {s.reason}
        </dd>
        {s.status === 'RECONNECTING' && (
          <>
            <dt>Reconnect attempt</dt>
            <dd>
              {s.reconnectAttempt}
              {s.nextRetryAt && <>, next at {when(s.nextRetryAt)}</>}
            </dd>
          </>
        )}
        <dt>Last disconnect</dt>
        <dd>
          {s.lastDisconnect
            ? `${when(s.lastDisconnect.at)}: ${s.lastDisconnect.reason}${s.lastDisconnect.code === null ? '' : ` (${s.lastDisconnect.code})`}`
            : 'none'}
        </dd>
        <dt>Restriction</dt>
        <dd>
          {s.restriction
            ? `${s.restriction.reason}${s.restriction.until ? ` until ${when(s.restriction.until)}` : ''}`
            : 'none'}
        </dd>
      </dl>
      <Form
        class="row"
        onSubmit={async () => {
          await api('PATCH', `/api/sessions/${s.sessionId}`, { name });
          props.onChanged();
        }}
      >
        <Field label="New name" maxLength={100} value={name} onInput={setName} />
        <button type="submit">Rename</button>
      </Form>
      <h4>Status history</h4>
      <ErrorText error={history.error} />
      <table aria-label="Status history">
        <Head columns={['When', 'Status', 'Reason']} />
        <tbody>
          {(history.data ?? []).map((h) => (
            <tr key={`${h.at}${h.status}`}>
              <td>{when(h.at)}</td>
              <td>
                <Status value={h.status} />
              </td>
              <td>{h.reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
