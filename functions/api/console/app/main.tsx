import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { must } from '../../../../shared/must.ts';
import { session, whenSignedOut } from './api.ts';
import { ChatbotPage } from './chatbot.tsx';
import { ExportsPage } from './exports.tsx';
import { InboxPage } from './inbox.tsx';
import { SessionsPage } from './sessions.tsx';
import { SignIn } from './sign-in.tsx';
import { TenantsPage } from './tenants.tsx';
import { UsagePage } from './usage.tsx';
import { WebhooksPage } from './webhooks.tsx';
import './style.css';

/** Every page, by the name its link shows; the URL's fragment (#inbox) names the page shown. */
const PAGES = {
  Sessions: SessionsPage,
  Inbox: InboxPage,
  Chatbot: ChatbotPage,
  Webhooks: WebhooksPage,
  Usage: UsagePage,
  Exports: ExportsPage,
  Tenants: TenantsPage,
} as const;
type PageName = keyof typeof PAGES;

/** The pages this user sees: **Tenants** only with the admin key. */
const pagesFor = (admin: boolean) =>
  (Object.keys(PAGES) as PageName[]).filter((p) => p !== 'Tenants' || admin);

const pageOf = (hash: string, admin = session.isAdmin()): PageName =>
  pagesFor(admin).find((p) => `#${p.toLowerCase()}` === hash.toLowerCase()) ?? 'Sessions';

function Console() {
  const [signedIn, setSignedIn] = useState(Boolean(session.token()));
  const [notice, setNotice] = useState<string>();
  const [page, setPage] = useState(pageOf(location.hash));
  useEffect(() => {
    whenSignedOut((reason) => {
      setNotice(reason);
      setSignedIn(false);
    });
    const follow = () => setPage(pageOf(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  if (!signedIn)
    return (
      <SignIn
        notice={notice}
        onSignedIn={() => {
          setNotice(undefined);
          setSignedIn(true);
          setPage(pageOf(location.hash));
        }}
      />
    );
  const Page = PAGES[page];
  return (
    <>
      <header>
        <nav aria-label="Console">
          {pagesFor(session.isAdmin()).map((p) => (
            <a key={p} href={`#${p.toLowerCase()}`} aria-current={p === page ? 'page' : undefined}>
              {p}
            </a>
          ))}
        </nav>
        <button
          type="button"
          class="link"
          onClick={() => {
            session.clear();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        <Page />
      </main>
    </>
  );
}

render(<Console />, must(document.getElementById('app'), 'the #app element of the console page'));
