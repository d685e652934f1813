import { useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf, request, type Session } from './api.ts';
import { SessionDetail } from './session-detail.tsx';
import {
  ActionButton,
  Choice,
  DeleteButton,
  ErrorText,
  Field,
  Form,
  Head,
  Status,
  useLoad,
  when,
} from './ui.tsx';

const LIVE_MS = 2000;

/** Every session with its live status (polled), and the controls that change it. */
export function SessionsPage() {
  const list = useLoad(
    () => api<{ sessions: Session[] }>('GET', '/api/sessions').then((r) => r.sessions),
    LIVE_MS,
  );
  const [linking, setLinking] = useState<string>();
  const [open, setOpen] = useState<string>();
  const shown = list.data?.find((s) => s.sessionId === open);
  return (
    <section>
      <h2>Sessions</h2>
      <NewSession
        onCreated={(id) => {
          setLinking(id);
          list.reload();
        }}
      />
      {linking && <Linking sessionId={linking} onDone={() => list.reload()} />}
      <ErrorText error={list.error} />
      {shown && <SessionDetail session={shown} onChanged={list.reload} onClose={() => setOpen(undefined)} />}
      <table>
        <Head columns={['Name', 'Status', 'Number', 'Created', 'Actions']} />
        <tbody>
          {(list.data ?? [])
            .filter((s) => s.dbStatus !== 'inactive')
            .map((s) => (
              <tr key={s.sessionId} data-session={s.sessionId}>
                <td>{s.name || s.sessionId}</td>
                <td>
                  <Status value={s.status} />
                  {s.reason && <small> {s.reason}</small>}
                </td>
                <td>{s.mobile_number ?? ''}</td>
                <td>{when(s.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Health and history of ${s.name || s.sessionId}`}
                    aria-expanded={open === s.sessionId}
                    onClick={() => setOpen(open === s.sessionId ? undefined : s.sessionId)}
                  >
                    Details
                  </button>{' '}
                  <ActionButton
                    label={`Reconnect ${s.name || s.sessionId}`}
                    onClick={async () => {
                      await api('POST', `/api/sessions/${s.sessionId}/reconnect`);
                      await list.reload();
                    }}
                  >
                    Reconnect
                  </ActionButton>
                  <DeleteButton
                    label={`Delete ${s.name || s.sessionId}`}
                    confirm={`Log out and delete ${s.name || s.sessionId}?`}
                    path={`/api/sessions/${s.sessionId}`}
                    onDeleted={list.reload}
                  />
                </td>
              </tr>
            ))}
        </tbody>
      </table>
    </section>
  );
}

function NewSession(props: { onCreated: (sessionId: string) => void }) {
  const [name, setName] = useState('');
  const [method, setMethod] = useState<'qr' | 'phone'>('qr');
  const [phone, setPhone] = useState('');
  return (
    <Form
      class="row"
      onSubmit={async () => {
        const r = await api<{ session: { sessionId: string } }>('POST', '/api/sessions', {
          ...(name ? { name } : {}),
          method,
          ...(method === 'phone' ? { phoneNumber: phone } : {}),
        });
        setName('');
        props.onCreated(r.session.sessionId);
      }}
    >
      <Field label="Session name" maxLength={100} value={name} onInput={setName} />
      <Choice
        label="Link with"
        value={method}
        options={[
          { value: 'qr', text: 'QR code' },
          { value: 'phone', text: 'Pairing code' },
        ]}
        onChange={(m) => setMethod(m as 'qr' | 'phone')}
      />
      {method === 'phone' && <Field label="Phone number" inputMode="tel" value={phone} onInput={setPhone} />}
      <button type="submit">New session</button>
    </Form>
  );
}

/**
 * A session being linked: its QR code (fetched with the token, shown from memory; the network
 * rotates it, so it is fetched again on every poll) or pairing code, until the status turns READY.
 */
function Linking(props: { sessionId: string; onDone: () => void }) {
  const { sessionId } = props;
  const done = useRef(props.onDone);
  done.current = props.onDone;
  const [status, setStatus] = useState('REGISTERING');
  const [qr, setQr] = useState<string>();
  const [pairing, setPairing] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let stopped = false;
    let image: string | undefined;
    const tick = async () => {
      try {
        const { session } = await api<{ session: Session }>('GET', `/api/sessions/${sessionId}`);
        if (stopped) return;
        setStatus(session.status);
        setError(undefined);
        if (session.status === 'READY') {
          done.current();
          return;
        }
        if (session.status === 'QR_READY') {
          const png = await (await request('GET', `/api/sessions/${sessionId}/qr`)).blob();
          if (stopped) return;
          if (image) URL.revokeObjectURL(image);
          image = URL.createObjectURL(png);
          setQr(image);
        } else if (session.status === 'PAIRING') {
          const r = await api<{ pairingCode: string | null }>('GET', `/api/sessions/${sessionId}/qr`);
          setPairing(r.pairingCode ?? undefined);
        }
      } catch (err) {
        if (!stopped) setError(messageOf(err));
      }
      if (!stopped) timer = setTimeout(tick, 1000);
    };
    let timer = setTimeout(tick, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
      if (image) URL.revokeObjectURL(image);
    };
  }, [sessionId]);
  return (
    <div class="linking" aria-live="polite">
      <p>
        Linking <code>{sessionId}</code>: <Status value={status} />
      </p>
      {status === 'READY' ? (
        <p>Linked. The phone is connected.</p>
      ) : status === 'PAIRING' && pairing ? (
        <p>
          On the phone, enter the pairing code <strong class="pairing">{pairing}</strong>
        </p>
      ) : qr ? (
        <img src={qr} alt="QR code" width={264} height={264} />
      ) : (
        <p>Waiting for the network…</p>
      )}
      <ErrorText error={error} />
    </div>
  );
}
