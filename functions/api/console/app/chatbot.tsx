import { useState } from 'preact/hooks';
import { api, type Session } from './api.ts';
import { IntentsEditor } from './chatbot-intents.tsx';
import { KnowledgeEditors, TENANT_WIDE, Templates } from './chatbot-knowledge.tsx';
import { SessionSwitches } from './chatbot-switches.tsx';
import { Choice, DeleteButton, ErrorText, Field, Form, Head, SessionChoice, Status, useLoad } from './ui.tsx';

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
  // Bumped when a template replaces the knowledge, so its editors read it again.
  const [version, setVersion] = useState(0);
  const sessions = useLoad(() =>
    api<{ sessions: Session[] }>('GET', '/api/sessions').then((r) =>
      r.sessions.filter((s) => s.dbStatus !== 'inactive'),
    ),
  );
  return (
    <section>
      <h2>Chatbot</h2>
      <h3>Switches, per session</h3>
      <ErrorText error={sessions.error} />
      <ul class="plain">
        {(sessions.data ?? []).map((s) => (
          <SessionSwitches key={s.sessionId} session={s} />
        ))}
      </ul>
      <h3>Try it</h3>
      <TryIt sessions={sessions.data ?? []} />
      <h3>Rules</h3>
      <NewRule sessions={sessions.data ?? []} onAdded={rules.reload} />
      <ErrorText error={rules.error} />
      <table>
        <Head columns={['Session', 'Trigger', 'Keyword', 'Reply', '']} />
        <tbody>
          {(rules.data ?? []).map((r) => (
            <tr key={r.id}>
              <td>{r.mobid === '*' ? 'every session' : r.mobid}</td>
              <td>{r.triggerType}</td>
              <td>{r.keyword}</td>
              <td>{r.replyType === 'ai_response' ? '(AI reply)' : r.response}</td>
              <td>
                <DeleteButton
                  label={`Delete rule ${r.keyword}`}
                  path={`/api/v1/chatbot/rules/${r.id}`}
                  onDeleted={rules.reload}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Start from a template</h3>
      <Templates onApplied={() => setVersion((v) => v + 1)} />
      <h3>Brain and prompt</h3>
      <KnowledgeEditors sessions={sessions.data ?? []} version={version} />
      <h3>Intents</h3>
      <IntentsEditor version={version} />
    </section>
  );
}

function NewRule(props: { sessions: Session[]; onAdded: () => void }) {
  const [mobid, setMobid] = useState('*');
  const [triggerType, setTrigger] = useState<string>('contains');
  const [keyword, setKeyword] = useState('');
  const [response, setResponse] = useState('');
  return (
    <Form
      class="row"
      onSubmit={async () => {
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
      }}
    >
      <SessionChoice
        label="Session"
        sessions={props.sessions}
        by="mobid"
        first={{ value: '*', text: 'every session' }}
        value={mobid}
        onChange={setMobid}
      />
      <Choice label="Trigger" value={triggerType} options={TRIGGERS} onChange={setTrigger} />
      <Field label="Keyword" value={keyword} onInput={setKeyword} />
      <Field label="Reply text" value={response} onInput={setResponse} />
      <button type="submit">Add rule</button>
    </Form>
  );
}

interface TryAnswer {
  tier: 'rule' | 'intent' | 'model' | null;
  silentReason: string | null;
  rule: { id: string; mobid: string; triggerType: string; keyword: string } | null;
  intent: { id: string; score: number; match: string } | null;
  candidates: { id: string; score: number; match: string }[];
  deferReason: string | null;
  reply: string | null;
}

/**
 * A message typed here is run through the chatbot's decision as a dry run (POST /api/v1/chatbot/try):
 * which tier would answer, the rule or intent with its score, and the reply. Nothing is sent and the
 * model is not called.
 */
function TryIt(props: { sessions: Session[] }) {
  const [sessionKey, setSessionKey] = useState('global');
  const [text, setText] = useState('');
  const [answer, setAnswer] = useState<TryAnswer>();
  return (
    <Form
      class="try"
      onSubmit={async () => {
        setAnswer(undefined);
        setAnswer(await api<TryAnswer>('POST', '/api/v1/chatbot/try', { sessionKey, text }));
      }}
    >
      <div class="row">
        <SessionChoice
          label="On"
          sessions={props.sessions}
          first={TENANT_WIDE}
          value={sessionKey}
          onChange={setSessionKey}
        />
        <label>
          Try it
          <input
            value={text}
            placeholder="a customer's message"
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Try</button>
      </div>
      {answer && <TryResult answer={answer} />}
    </Form>
  );
}

function TryResult({ answer: a }: { answer: TryAnswer }) {
  return (
    <dl class="try-result" aria-label="Dry run result">
      <dt>Answered by</dt>
      <dd>{a.tier ? <Status value={a.tier} /> : <>nobody: {a.silentReason}</>}</dd>
      {a.rule && (
        <>
          <dt>Rule</dt>
          <dd>
            {a.rule.triggerType} “{a.rule.keyword}” ({a.rule.mobid === '*' ? 'every session' : a.rule.mobid})
          </dd>
        </>
      )}
      {a.intent && (
        <>
          <dt>Intent</dt>
          <dd>
            {a.intent.id} (score {a.intent.score.toFixed(2)}, {a.intent.match})
          </dd>
        </>
      )}
      {a.candidates.length > 0 && (
        <>
          <dt>Intents weighed</dt>
          <dd>{a.candidates.map((c) => `${c.id} ${c.score.toFixed(2)}`).join(', ')}</dd>
        </>
      )}
      {a.deferReason && (
        <>
          <dt>Left to the model because</dt>
          <dd>{a.deferReason}</dd>
        </>
      )}
      <dt>Reply</dt>
      <dd>{a.reply ?? (a.tier === 'model' ? '(the model would write it; not called in a dry run)' : '—')}</dd>
    </dl>
  );
}
