import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Session } from './api.ts';
import { Choice, ErrorText, Form, SessionChoice, useLoad } from './ui.tsx';

const PROFILES = ['clinic', 'appliances', 'ecommerce', 'salon'] as const;

/** The chatbot's tenant-wide key, beside one session's. */
export const TENANT_WIDE = { value: 'global', text: 'every session (tenant-wide)' };

/** The key a piece of knowledge is saved under: tenant-wide, or one session. */
export function KeyPicker(props: { sessions: Session[]; value: string; onChange: (key: string) => void }) {
  return (
    <SessionChoice
      label="Applies to"
      sessions={props.sessions}
      first={TENANT_WIDE}
      value={props.value}
      onChange={props.onChange}
    />
  );
}

/** A 404 (nothing saved yet) is an empty editor, not an error. */
const orNothing = <T,>(p: Promise<T>) =>
  p.catch((err) => {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  });

/**
 * The brain (JSON facts) and persona prompt of one key, each checked before it is saved: the brain
 * must parse as JSON here, then the API validates it and its `message` names the field it refused.
 * `version` changes when a template is applied, so the editors read what is stored again.
 */
export function KnowledgeEditors(props: { sessions: Session[]; version: number }) {
  const [key, setKey] = useState('global');
  const stored = useLoad(() =>
    Promise.all([
      orNothing(
        api<{ brain: unknown; resolvedFrom: string }>('GET', `/api/v1/chatbot/brain?sessionKey=${key}`),
      ),
      orNothing(
        api<{ prompt: string; resolvedFrom: string }>('GET', `/api/v1/chatbot/prompt?sessionKey=${key}`),
      ),
    ]),
  );
  useEffect(() => {
    stored.reload();
  }, [key, props.version]);
  const [brain, setBrain] = useState('');
  const [prompt, setPrompt] = useState('');
  const [saved, setSaved] = useState<string>();
  useEffect(() => {
    const [b, p] = stored.data ?? [];
    setBrain(b ? JSON.stringify(b.brain, null, 2) : '');
    setPrompt(p?.prompt ?? '');
  }, [stored.data]);
  return (
    <div class="knowledge">
      <KeyPicker sessions={props.sessions} value={key} onChange={setKey} />
      <ErrorText error={stored.error} />
      <Form
        class="stack"
        label="Brain editor"
        onSubmit={async () => {
          setSaved(undefined);
          let brainData: unknown;
          try {
            brainData = JSON.parse(brain);
          } catch (err) {
            throw new Error(`The brain is not valid JSON: ${(err as Error).message}`);
          }
          const r = await api<{ version: number }>('POST', '/api/v1/chatbot/brain', {
            sessionKey: key,
            brainData,
          });
          setSaved(`Brain saved (version ${r.version}).`);
        }}
      >
        <label>
          Brain (JSON)
          <textarea
            rows={10}
            spellcheck={false}
            value={brain}
            onInput={(e) => setBrain(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Save brain</button>
      </Form>
      <Form
        class="stack"
        label="Prompt editor"
        onSubmit={async () => {
          setSaved(undefined);
          const r = await api<{ version: number }>('POST', '/api/v1/chatbot/prompt', {
            sessionKey: key,
            prompt,
          });
          setSaved(`Prompt saved (version ${r.version}).`);
        }}
      >
        <label>
          Prompt
          <textarea rows={5} value={prompt} onInput={(e) => setPrompt(e.currentTarget.value)} />
        </label>
        <button type="submit">Save prompt</button>
      </Form>
      {saved && <p role="status">{saved}</p>}
    </div>
  );
}

/**
 * Starts from a ready-made profile (GET /api/v1/chatbot/templates/{profile}): its brain and prompt
 * are saved tenant-wide and its intents file replaces the tenant's (which sets the tenant's profile).
 */
export function Templates(props: { onApplied: () => void }) {
  const [profile, setProfile] = useState<(typeof PROFILES)[number]>('clinic');
  const [done, setDone] = useState<string>();
  return (
    <Form
      class="row"
      onSubmit={async () => {
        setDone(undefined);
        if (!confirm(`Replace the tenant-wide brain, prompt and intents with the ${profile} template?`))
          return;
        const t = await api<{ brain: unknown; prompt: string; intents: unknown }>(
          'GET',
          `/api/v1/chatbot/templates/${profile}`,
        );
        await api('POST', '/api/v1/chatbot/brain', { sessionKey: 'global', brainData: t.brain });
        await api('POST', '/api/v1/chatbot/prompt', { sessionKey: 'global', prompt: t.prompt });
        await api('POST', '/api/v1/chatbot/intents', { tenant: profile, intents: t.intents });
        setDone(`The ${profile} template is in place.`);
        props.onApplied();
      }}
    >
      <Choice
        label="Template"
        value={profile}
        options={PROFILES}
        onChange={(p) => setProfile(p as typeof profile)}
      />
      <button type="submit">Apply template</button>
      {done && <p role="status">{done}</p>}
    </Form>
  );
}
