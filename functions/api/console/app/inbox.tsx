import { useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf, request, type ViewMessage } from './api.ts';
import { MessageMedia } from './message-media.tsx';
import { ActionButton, ErrorText, Form, Status, useLoad, when } from './ui.tsx';

/** One chat of one session, as the list shows it. */
interface Conversation {
  key: string;
  sessionId: string;
  chat: string;
  name: string;
  last: ViewMessage;
}

const RECENT = 500;

/** The tenant's recent messages grouped into chats, newest chat first (the API answers newest first). */
function conversations(messages: ViewMessage[]): Conversation[] {
  const byKey = new Map<string, Conversation>();
  for (const m of messages) {
    const key = `${m.sessionId} ${m.chat}`;
    let c = byKey.get(key);
    if (!c) {
      c = { key, sessionId: m.sessionId, chat: m.chat, name: '', last: m };
      byKey.set(key, c);
    }
    if (!c.name && !m.fromMe && m.senderName) c.name = m.senderName;
  }
  return [...byKey.values()].sort((a, b) => b.last.timestamp - a.last.timestamp);
}

/** The number part of a contact's address (`<digits>@s.whatsapp.net`); a group keeps its whole id. */
const recipient = (chat: string) => (chat.endsWith('@g.us') ? chat : (chat.split('@')[0] ?? chat));

/** A contact's chat is asked for by number; a group's is found among the session's recent messages. */
function historyQuery(sessionId: string, chat: string) {
  const q = new URLSearchParams({ sessionId, limit: chat.endsWith('@g.us') ? String(RECENT) : '200' });
  if (!chat.endsWith('@g.us')) q.set('phone', recipient(chat));
  return q.toString();
}

const RETRY_MS = 5000;

/**
 * The chat as the takeover routes name it: a contact by number, a hidden-number contact as
 * `<lid>@lid`; a group has none (the bot never answers groups, so there is nothing to take over).
 */
const takeoverChatId = (chat: string) =>
  chat.endsWith('@g.us') ? undefined : chat.endsWith('@lid') ? chat : recipient(chat);

/** WhatsApp's ticks for an outbound message's status; the status itself is the accessible name. */
const TICKS: Record<string, string> = { queued: '🕓', sent: '✓', delivered: '✓✓', read: '✓✓', failed: '!' };
function Ticks({ status }: { status: string }) {
  return (
    <span class={`ticks ${status}`} role="img" aria-label={status} title={status}>
      {TICKS[status] ?? status}
    </span>
  );
}

/**
 * The tenant's live stream (GET /api/portal for its id, then the portal's SSE stream): calls
 * `onMessage` for every inbound message. EventSource reconnects and resumes by itself after a drop;
 * a stream the server ended or refused (over the caps, a rotated portal id) is opened again here
 * after a pause, from the last event seen (`lastEventId`), so no message is missed. A stream brings
 * what is stored from its opening on, so `onOpen` runs at every opening: what came between the
 * page's last load and the stream (none had an id to resume from) is loaded then.
 */
function useTenantStream(onMessage: (payload: { sessionId: string }) => void, onOpen: () => void) {
  const [state, setState] = useState<'connecting' | 'live' | 'offline'>('connecting');
  const [error, setError] = useState<string>();
  const latest = useRef(onMessage);
  latest.current = onMessage;
  const opened = useRef(onOpen);
  opened.current = onOpen;
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    let lastEventId = '';
    const again = () => {
      if (!closed) retry = setTimeout(connect, RETRY_MS);
    };
    const connect = async () => {
      try {
        const { portal_id } = await api<{ portal_id: string }>('GET', '/api/portal');
        if (closed) return;
        setError(undefined);
        const resume = lastEventId ? `?lastEventId=${encodeURIComponent(lastEventId)}` : '';
        source = new EventSource(`/api/public/portal/${encodeURIComponent(portal_id)}/stream${resume}`);
        source.onopen = () => {
          setState('live');
          opened.current();
        };
        source.onerror = () => {
          setState('offline');
          if (source?.readyState === EventSource.CLOSED) again();
        };
        source.onmessage = (e) => {
          if (e.lastEventId) lastEventId = e.lastEventId;
          try {
            latest.current(JSON.parse(e.data as string) as { sessionId: string });
          } catch {
            // Not a message event: nothing to show.
          }
        };
      } catch (err) {
        setError(messageOf(err));
        setState('offline');
        again();
      }
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(retry);
      source?.close();
    };
  }, []);
  return { state, error };
}

export function InboxPage() {
  const recent = useLoad(() =>
    api<{ messages: ViewMessage[] }>('GET', `/view/messages/v1?limit=${RECENT}`).then((r) =>
      conversations(r.messages),
    ),
  );
  const [open, setOpen] = useState<Conversation>();
  const [tick, setTick] = useState(0);
  const stream = useTenantStream(
    () => {
      recent.reload();
      setTick((t) => t + 1);
    },
    () => recent.reload(),
  );
  return (
    <section class="inbox">
      <h2>Inbox</h2>
      <p class="muted">
        Live updates: <Status value={stream.state} />
      </p>
      <ErrorText error={stream.error ?? recent.error} />
      <div class="split">
        <ul class="conversations" aria-label="Conversations">
          {(recent.data ?? []).map((c) => (
            <li key={c.key}>
              <button type="button" class={open?.key === c.key ? 'selected' : ''} onClick={() => setOpen(c)}>
                <strong>{c.name || recipient(c.chat)}</strong>
                <span class="muted"> {when(c.last.timestamp * 1000)}</span>
                <br />
                <span class="preview">{c.last.text}</span>
              </button>
            </li>
          ))}
          {recent.data?.length === 0 && <li class="muted">No messages yet.</li>}
        </ul>
        {open ? <Chat conversation={open} tick={tick} /> : <p class="muted">Choose a conversation.</p>}
      </div>
    </section>
  );
}

/** One conversation's history, oldest first, and the reply box. `tick` changes when the stream brings news. */
function Chat(props: { conversation: Conversation; tick: number }) {
  const { sessionId, chat } = props.conversation;
  const history = useLoad(
    () =>
      api<{ messages: ViewMessage[] }>('GET', `/view/messages/v1?${historyQuery(sessionId, chat)}`).then(
        (r) => r.messages.filter((m) => m.chat === chat).reverse(),
      ),
    // Outbound messages change status (queued, sent, delivered) without a stream event.
    3000,
  );
  useEffect(() => {
    history.reload();
  }, [props.tick, sessionId, chat]);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File>();
  const fileInput = useRef<HTMLInputElement>(null);
  const takeover = takeoverChatId(chat);
  return (
    <div class="chat">
      <h3>
        {props.conversation.name || recipient(chat)} <small class="muted">via {sessionId}</small>
      </h3>
      {takeover && <Takeover sessionId={sessionId} chatId={takeover} />}
      <ErrorText error={history.error} />
      <ol class="messages" aria-label="Messages">
        {(history.data ?? []).map((m) => (
          <li key={m.id} class={m.fromMe ? 'out' : 'in'}>
            {(m.mediaUrl || m.fileName || m.transcription || m.ocrText) && <MessageMedia message={m} />}
            <span class="text">{m.text}</span>
            <small class="muted">
              {when(m.timestamp * 1000)} {m.fromMe && <Ticks status={m.status} />}
              {m.reason && ` ${m.reason}`}
            </small>
          </li>
        ))}
      </ol>
      <Form
        class="reply"
        onSubmit={async () => {
          if (file) {
            // The text fields go before the file: the API streams the file part as it arrives.
            const form = new FormData();
            form.set('sessionId', sessionId);
            form.set('to', recipient(chat));
            form.set('fileName', file.name);
            if (text.trim()) form.set('caption', text);
            form.set('file', file);
            await request('POST', '/api/messages/upload-send', form);
            setFile(undefined);
            if (fileInput.current) fileInput.current.value = '';
          } else {
            if (!text.trim()) return;
            await api('POST', '/api/messages/send', { sessionId, to: recipient(chat), text });
          }
          setText('');
          await history.reload();
        }}
      >
        <label for="reply">Reply</label>
        <textarea id="reply" rows={2} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <label class="file">
          Attach a file
          <input
            ref={fileInput}
            type="file"
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? undefined)}
          />
        </label>
        <button type="submit">Send</button>
      </Form>
    </div>
  );
}

interface Paused {
  chatId: string;
  until: string;
  by: 'phone' | 'api' | 'console';
}

/**
 * Whether the bot answers this chat, and the control to step in or hand it back (docs/chatbot.md,
 * "Human takeover"). A pause also starts from the phone or an API send, and ends by itself at
 * `until`, so the state is read again every few seconds rather than assumed.
 */
function Takeover(props: { sessionId: string; chatId: string }) {
  const { sessionId, chatId } = props;
  const state = useLoad(
    () =>
      api<{ paused: Paused[] }>(
        'GET',
        `/api/v1/chatbot/takeover?sessionId=${encodeURIComponent(sessionId)}`,
      ).then((r) => r.paused.find((p) => p.chatId === chatId) ?? null),
    5000,
  );
  useEffect(() => {
    state.reload();
  }, [sessionId, chatId]);
  const set = async (paused: boolean) => {
    await api('POST', '/api/v1/chatbot/takeover', { sessionId, chatId, paused });
    await state.reload();
  };
  const paused = state.data;
  return (
    <div class="takeover" aria-live="polite">
      {paused === undefined ? (
        <span class="muted">…</span>
      ) : paused ? (
        <>
          <span>
            <Status value="taken over" /> The bot stays silent here until {when(paused.until)} (by {paused.by}
            ).
          </span>
          <ActionButton onClick={() => set(false)}>Hand back</ActionButton>
        </>
      ) : (
        <>
          <span class="muted">The bot may answer this chat.</span>
          <ActionButton onClick={() => set(true)}>Take over</ActionButton>
        </>
      )}
      <ErrorText error={state.error} />
    </div>
  );
}
