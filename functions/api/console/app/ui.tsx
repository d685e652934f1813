import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf } from './api.ts';

/** An error as the API worded it, announced to screen readers. */
export function ErrorText({ error }: { error: string | undefined }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/**
 * Runs `load` now and every `everyMs` (when given) while the component is shown; answers its last
 * result, its last error and a `reload`. A load still running is not started twice: a reload asked
 * for meanwhile (a filter changed) runs once it ends, so the last answer shown is the newest query's.
 */
export function useLoad<T>(load: () => Promise<T>, everyMs?: number) {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const running = useRef(false);
  const again = useRef(false);
  const latest = useRef(load);
  latest.current = load;
  const reload = useCallback(async () => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    try {
      do {
        again.current = false;
        try {
          setData(await latest.current());
          setError(undefined);
        } catch (err) {
          setError(messageOf(err));
        }
      } while (again.current);
    } finally {
      running.current = false;
    }
  }, []);
  useEffect(() => {
    reload();
    if (!everyMs) return;
    const timer = setInterval(reload, everyMs);
    return () => clearInterval(timer);
  }, [reload, everyMs]);
  return { data, error, reload };
}

/**
 * One action at a time, run by a button, a form or a checkbox: `busy` while it runs (the control is
 * disabled or marked busy), and its error as the API worded it.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** A button that runs an action, disabled while it runs; the action's error is shown beside it. */
export function ActionButton(props: {
  onClick: () => Promise<unknown>;
  children: ComponentChildren;
  class?: string;
  label?: string;
}) {
  const action = useAction();
  return (
    <span class="action">
      <button
        type="button"
        class={props.class}
        aria-label={props.label}
        disabled={action.busy}
        onClick={() => action.run(props.onClick)}
      >
        {props.children}
      </button>
      <ErrorText error={action.error} />
    </span>
  );
}

/**
 * A danger button that deletes `path` (once `confirm`, when given, is answered yes), then runs
 * `onDeleted` (the list it stood in reloads); the API's error shows beside it.
 */
export function DeleteButton(props: {
  path: string;
  label: string;
  confirm?: string;
  onDeleted: () => Promise<unknown>;
  children?: ComponentChildren;
}) {
  return (
    <ActionButton
      class="danger"
      label={props.label}
      onClick={async () => {
        if (props.confirm && !confirm(props.confirm)) return;
        await api('DELETE', props.path);
        await props.onDeleted();
      }}
    >
      {props.children ?? 'Delete'}
    </ActionButton>
  );
}

/**
 * A form whose submit runs `onSubmit` (the page does not reload); the API's error is shown under
 * it as the API worded it, and the form is marked busy while it runs.
 */
export function Form(props: {
  onSubmit: () => Promise<unknown>;
  children: ComponentChildren;
  class?: string;
  label?: string;
}) {
  const action = useAction();
  return (
    <form
      class={props.class}
      aria-label={props.label}
      aria-busy={action.busy}
      onSubmit={(e) => {
        e.preventDefault();
        return action.run(props.onSubmit);
      }}
    >
      {props.children}
      <ErrorText error={action.error} />
    </form>
  );
}

/** One choice of a drop-down: its value, and the words shown when they differ from it. */
export type Option = string | number | { value: string | number; text: string };

/** A labelled drop-down; `onChange` gets the chosen value as text. */
export function Choice(props: {
  label: string;
  value: string | number;
  options: readonly Option[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {props.options.map((o) => {
          const { value, text } = typeof o === 'object' ? o : { value: o, text: String(o) };
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}

/**
 * A labelled drop-down of the tenant's sessions (by name, else id) after a first choice that
 * stands for none or all of them; `by` says which of a session's ids is the value.
 */
export function SessionChoice(props: {
  label: string;
  sessions: readonly { sessionId: string; mobid: string; name?: string | null }[];
  value: string;
  first: { value: string; text: string };
  by?: 'sessionId' | 'mobid';
  onChange: (value: string) => void;
}) {
  const by = props.by ?? 'sessionId';
  return (
    <Choice
      label={props.label}
      value={props.value}
      options={[props.first, ...props.sessions.map((s) => ({ value: s[by], text: s.name || s.sessionId }))]}
      onChange={props.onChange}
    />
  );
}

/** A table's header row; an empty heading is a column of actions. */
export function Head({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>{columns.map((c, n) => (c ? <th key={c}>{c}</th> : <th key={`_${n}`} />))}</tr>
    </thead>
  );
}

/** A status as a badge: the color says good, waiting or bad; the text says which. */
export function Status({ value }: { value: string }) {
  const tone = ['READY', 'delivered', 'read', 'succeeded', 'live', 'on', 'active'].includes(value)
    ? 'good'
    : ['FAILED', 'LOGGED_OUT', 'DISCONNECTED', 'failed', 'offline', 'off', 'disabled', 'revoked'].includes(
          value,
        )
      ? 'bad'
      : 'wait';
  return <span class={`badge ${tone}`}>{value}</span>;
}

/** A time (epoch ms or ISO text) in the reader's locale. */
export const when = (t: number | string | null | undefined) =>
  t === null || t === undefined || t === '' ? '' : new Date(t).toLocaleString();

/** A labelled text input; `onInput` gets its text as typed. */
export function Field(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  inputMode?: 'tel' | 'text';
  maxLength?: number;
  placeholder?: string;
  required?: boolean;
}) {
  const { label, onInput, ...input } = props;
  return (
    <label>
      {label}
      <input {...input} type="text" onInput={(e) => onInput(e.currentTarget.value)} />
    </label>
  );
}
