import { useState } from 'preact/hooks';
import { messageOf, signIn } from './api.ts';
import { ErrorText } from './ui.tsx';

/** The API key is exchanged for a token at once and never stored; only the token is kept. */
export function SignIn(props: { onSignedIn: () => void; notice?: string }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <main class="sign-in">
      <h1>Console</h1>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            await signIn(key.trim());
            setKey('');
            props.onSignedIn();
          } catch (err) {
            setError(messageOf(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autocomplete="off"
          required
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <ErrorText error={error ?? props.notice} />
      </form>
    </main>
  );
}
