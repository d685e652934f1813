import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from './api.ts';

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

/** A button that runs an action, disabled while it runs; the action's error is shown beside it. */
export function ActionButton(props: {
  onClick: () => Promise<unknown>;
  children: ComponentChildren;
  class?: string;
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <span class="action">
      <button
        type="button"
        class={props.class}
        aria-label={props.label}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            await props.onClick();
          } catch (err) {
            setError(messageOf(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        {props.children}
      </button>
      <ErrorText error={error} />
    </span>
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <form
      class={props.class}
      aria-label={props.label}
      aria-busy={busy}
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          await props.onSubmit();
        } catch (err) {
          setError(messageOf(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      {props.children}
      <ErrorText error={error} />
    </form>
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
