import { useState } from 'preact/hooks';
import { api, request } from './api.ts';
import { ActionButton, ErrorText, Head, useLoad, when } from './ui.tsx';

interface Lead {
  phone_number: string;
  formatted_number: string;
  name: string | null;
  session_id: string;
  extracted_at: string;
}

/** Saves a blob as a file, through a link the page clicks (the token never goes into a URL). */
function save(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ExportsPage() {
  const leads = useLoad(() =>
    api<{ contacts: Lead[] }>('GET', '/api/sessions/leads').then((r) => r.contacts),
  );
  const [link, setLink] = useState<string>();
  return (
    <section>
      <h2>Exports</h2>
      <h3>Contacts</h3>
      <p>Every contact of the active sessions, as a CSV file (opens in a spreadsheet).</p>
      <ActionButton
        onClick={async () => {
          setLink(undefined);
          const res = await request('POST', '/api/sessions/contacts/export', {
            exportType: 'csv',
            bom: true,
          });
          if (res.headers.get('content-type')?.startsWith('text/csv')) {
            save(await res.blob(), 'contacts.csv');
            return;
          }
          // A large export is written to storage; the API answers a link that expires.
          const body = (await res.json()) as { downloadUrl: string };
          setLink(body.downloadUrl);
        }}
      >
        Download contacts CSV
      </ActionButton>
      {link && (
        <p>
          The export is large: <a href={link}>download it here</a> (the link expires).
        </p>
      )}
      <h3>Groups</h3>
      <p>Every group of the active sessions with its members and message count, as a CSV file.</p>
      <ActionButton
        onClick={async () => {
          const res = await request('POST', '/api/sessions/groups/export', { format: 'csv', bom: true });
          save(await res.blob(), 'groups.csv');
        }}
      >
        Download groups CSV
      </ActionButton>
      <h3>Leads</h3>
      <ErrorText error={leads.error} />
      <table>
        <Head columns={['Name', 'Number', 'Session', 'Seen']} />
        <tbody>
          {(leads.data ?? []).map((l) => (
            <tr key={`${l.session_id} ${l.phone_number}`}>
              <td>{l.name ?? ''}</td>
              <td>{l.formatted_number || l.phone_number}</td>
              <td>{l.session_id}</td>
              <td>{when(l.extracted_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
