import { api, type Session } from './api.ts';
import { ActionButton, ErrorText, Status, useAction, useLoad } from './ui.tsx';

interface Switches {
  chatbotEnabled: boolean;
  pureExtractor: boolean;
  voiceReplies: boolean;
}

/**
 * One session's switches as the API resolves them (tenant-wide settings included): whether the bot
 * answers, whether it only extracts data (pure extractor: never replies), whether it answers voice
 * notes by voice.
 */
export function SessionSwitches({ session: s }: { session: Session }) {
  const name = s.name || s.sessionId;
  const state = useLoad(() =>
    api<Switches>('GET', `/api/v1/chatbot/switches?sessionKey=${encodeURIComponent(s.mobid)}`),
  );
  const on = state.data?.chatbotEnabled;
  return (
    <li>
      {name} <Status value={on === undefined ? '…' : on ? 'on' : 'off'} />{' '}
      {[true, false].map((enable) => (
        <ActionButton
          key={String(enable)}
          label={`${enable ? 'Enable' : 'Disable'} the chatbot for ${name}`}
          onClick={async () => {
            await api('POST', '/api/v1/chatbot/toggle', { mobid: s.mobid, enabled: enable });
            await state.reload();
          }}
        >
          {enable ? 'Enable' : 'Disable'}
        </ActionButton>
      ))}
      {state.data && (
        <>
          <Check
            label={`Pure extractor for ${name}`}
            text="Pure extractor"
            checked={state.data.pureExtractor}
            onChange={async (enabled) => {
              await api('POST', '/api/v1/chatbot/pure-extractor', { sessionKey: s.mobid, enabled });
              await state.reload();
            }}
          />
          <Check
            label={`Voice replies for ${name}`}
            text="Voice replies"
            checked={state.data.voiceReplies}
            onChange={async (enabled) => {
              await api('POST', '/api/v1/chatbot/voice-replies', { sessionKey: s.mobid, enabled });
              await state.reload();
            }}
          />
        </>
      )}
      <ErrorText error={state.error} />
    </li>
  );
}

/** A checkbox that saves at once; while it saves it is disabled, and a refusal is shown beside it. */
function Check(props: {
  label: string;
  text: string;
  checked: boolean;
  onChange: (checked: boolean) => Promise<void>;
}) {
  const action = useAction();
  return (
    <span class="action">
      <label class="check">
        <input
          type="checkbox"
          aria-label={props.label}
          checked={props.checked}
          disabled={action.busy}
          onChange={(e) => {
            const checked = e.currentTarget.checked;
            return action.run(() => props.onChange(checked));
          }}
        />
        {props.text}
      </label>
      <ErrorText error={action.error} />
    </span>
  );
}
