import { useEffect, useState } from 'preact/hooks';
import { ApiError, api } from './api.ts';
import { ActionButton, ErrorText, Field, Form, useLoad } from './ui.tsx';

interface Intent {
  id: string;
  enabled?: boolean;
  category: string;
  action: string;
  training_phrases: Record<string, string[]>;
  responses?: Record<string, string>;
  [more: string]: unknown;
}
interface IntentsFile {
  intents: Intent[];
  [more: string]: unknown;
}

const LANG = 'en';

/**
 * The tenant's intents (GET/POST /api/v1/chatbot/intents): each with its English training phrases,
 * which can be added and deleted, and new intents. Every change saves the whole file, as the API
 * takes it, and shows the API's message when it refuses it; what the file holds beyond these
 * fields (other languages, the runtime policy) is kept as it was.
 */
export function IntentsEditor(props: { version: number }) {
  const file = useLoad(() =>
    api<{ intents: IntentsFile }>('GET', '/api/v1/chatbot/intents').then(
      (r) => r.intents,
      (err) => {
        if (err instanceof ApiError && err.status === 404) return { intents: [] } as IntentsFile;
        throw err;
      },
    ),
  );
  useEffect(() => {
    file.reload();
  }, [props.version]);
  const save = async (intents: Intent[]) => {
    await api('POST', '/api/v1/chatbot/intents', { intents: { ...file.data, intents } });
    await file.reload();
  };
  const intents = file.data?.intents ?? [];
  const change = (id: string, f: (i: Intent) => Intent) => save(intents.map((i) => (i.id === id ? f(i) : i)));
  return (
    <div>
      <ErrorText error={file.error} />
      <ul class="plain intents" aria-label="Intents">
        {intents.map((intent) => (
          <li key={intent.id}>
            <strong>{intent.id}</strong> <small class="muted">{intent.category}</small>
            <ActionButton
              class="danger"
              label={`Delete intent ${intent.id}`}
              onClick={() => save(intents.filter((i) => i.id !== intent.id))}
            >
              Delete
            </ActionButton>
            <ul aria-label={`Phrases of ${intent.id}`}>
              {(intent.training_phrases[LANG] ?? []).map((p, n) => (
                <li key={`${n}${p}`}>
                  {p}{' '}
                  <ActionButton
                    class="link"
                    label={`Delete phrase ${p}`}
                    onClick={() =>
                      change(intent.id, (i) => ({
                        ...i,
                        training_phrases: {
                          ...i.training_phrases,
                          [LANG]: (i.training_phrases[LANG] ?? []).filter((_, k) => k !== n),
                        },
                      }))
                    }
                  >
                    ✕
                  </ActionButton>
                </li>
              ))}
            </ul>
            <AddPhrase
              intentId={intent.id}
              onAdd={(phrase) =>
                change(intent.id, (i) => ({
                  ...i,
                  training_phrases: {
                    ...i.training_phrases,
                    [LANG]: [...(i.training_phrases[LANG] ?? []), phrase],
                  },
                }))
              }
            />
          </li>
        ))}
      </ul>
      <NewIntent onAdd={(intent) => save([...intents, intent])} />
    </div>
  );
}

function AddPhrase(props: { intentId: string; onAdd: (phrase: string) => Promise<void> }) {
  const [phrase, setPhrase] = useState('');
  return (
    <Form
      class="row"
      onSubmit={async () => {
        await props.onAdd(phrase);
        setPhrase('');
      }}
    >
      <Field label={`New phrase for ${props.intentId}`} value={phrase} onInput={setPhrase} />
      <button type="submit" aria-label={`Add phrase to ${props.intentId}`}>
        Add phrase
      </button>
    </Form>
  );
}

function NewIntent(props: { onAdd: (intent: Intent) => Promise<void> }) {
  const [id, setId] = useState('');
  const [phrase, setPhrase] = useState('');
  const [reply, setReply] = useState('');
  return (
    <Form
      class="row"
      label="New intent"
      onSubmit={async () => {
        await props.onAdd({
          id,
          category: 'custom',
          action: id,
          training_phrases: { [LANG]: phrase ? [phrase] : [] },
          ...(reply ? { responses: { [LANG]: reply } } : {}),
        });
        setId('');
        setPhrase('');
        setReply('');
      }}
    >
      <Field label="Intent id" value={id} onInput={setId} />
      <Field label="First phrase" value={phrase} onInput={setPhrase} />
      <Field label="Its reply" value={reply} onInput={setReply} />
      <button type="submit">Add intent</button>
    </Form>
  );
}
