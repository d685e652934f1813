import { useState } from 'preact/hooks';
import { api, messageOf, type Session } from './api.ts';
import { ActionButton, ErrorText, Status, useLoad } from './ui.tsx';

interface Rule {
  id: string;
  mobid: string;
  triggerType: string;
  keyword: string;
  replyType: string;
  response: string;
}

const TRIGGERS = ['exact', 'contains', 'regex', 'ai_fallback'] as const;

/** The chatbot's rules (list, add, delete) and whether it answers, per session. */
export function ChatbotPage() {
  const rules = useLoad(() => api<{ rules: Rule[] }>('GET', '/api/v1/chatbot/rules').then((r) => r.rules));
  const sessions = useLoad(() =>
    api<{ sessions: Session[] }>('GET', '/api/sessions').then((r) =>
      r.sessions.filter((s) => s.dbStatus !== 'inactive'),
    ),
  );
  return (
    <section>
      <h2>Chatbot</h2>
      <h3>On or off, per session</h3>
      <ErrorText error={sessions.error} />
      <ul class="plain">
        {(sessions.data ?? []).map((s) => (
          <BotSwitch key={s.sessionId} session={s} />
        ))}
      </ul>
      <h3>Rules</h3>
      <NewRule sessions={sessions.data ?? []} onAdded={rules.reload} />
      <ErrorText error={rules.error} />
      <table>
        <thead>
          <tr>
            <th>Session</th>
            <th>Trigger</th>
            <th>Keyword</th>
            <th>Reply</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(rules.data ?? []).map((r) => (
            <tr key={r.id}>
              <td>{r.mobid === '*' ? 'every session' : r.mobid}</td>
              <td>{r.triggerType}</td>
              <td>{r.keyword}</td>
              <td>{r.replyType === 'ai_response' ? '(AI reply)' : r.response}</td>
              <td>
                <ActionButton
                  class="danger"
                  label={`Delete rule ${r.keyword}`}
                  onClick={async () => {
                    await api('DELETE', `/api/v1/chatbot/rules/${r.id}`);
                    await rules.reload();
                  }}
                >
                  Delete
                </ActionButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function NewRule(props: { sessions: Session[]; onAdded: () => void }) {
  const [mobid, setMobid] = useState('*');
  const [triggerType, setTrigger] = useState<string>('contains');
  const [keyword, setKeyword] = useState('');
  const [response, setResponse] = useState('');
  const [error, setError] = useState<string>();
  return (
    <form
      class="row"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(undefined);
        try {
          await api('POST', '/api/v1/chatbot/rules', {
            mobid,
            triggerType,
            keyword,
            replyType: 'text',
            response,
          });
          setKeyword('');
          setResponse('');
          props.onAdded();
        } catch (err) {
          setError(messageOf(err));
        }
      }}
    >
      <label>
        Session
        <select value={mobid} onChange={(e) => setMobid(e.currentTarget.value)}>
          <option value="*">every session</option>
          {props.sessions.map((s) => (
            <option key={s.mobid} value={s.mobid}>
              {s.name || s.sessionId}
            </option>
          ))}
        </select>
      </label>
      <label>
        Trigger
        <select value={triggerType} onChange={(e) => setTrigger(e.currentTarget.value)}>
          {TRIGGERS.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        Keyword
        <input value={keyword} onInput={(e) => setKeyword(e.currentTarget.value)} />
      </label>
      <label>
        Reply text
        <input value={response} onInput={(e) => setResponse(e.currentTarget.value)} />
      </label>
      <button type="submit">Add rule</button>
      <ErrorText error={error} />
    </form>
  );
}

/** Whether the bot answers on one session (as the API resolves it, tenant-wide setting included), and the switch. */
function BotSwitch({ session: s }: { session: Session }) {
  const name = s.name || s.sessionId;
  const state = useLoad(() =>
    api<{ chatbotEnabled: boolean }>(
      'GET',
      `/api/v1/chatbot/switches?sessionKey=${encodeURIComponent(s.mobid)}`,
    ).then((r) => r.chatbotEnabled),
  );
  return (
    <li>
      {name} <Status value={state.data === undefined ? '…' : state.data ? 'on' : 'off'} />{' '}
      {[true, false].map((on) => (
        <ActionButton
          key={String(on)}
          label={`${on ? 'Enable' : 'Disable'} the chatbot for ${name}`}
          onClick={async () => {
            await api('POST', '/api/v1/chatbot/toggle', { mobid: s.mobid, enabled: on });
            await state.reload();
          }}
        >
          {on ? 'Enable' : 'Disable'}
        </ActionButton>
      ))}
      <ErrorText error={state.error} />
    </li>
  );
}
