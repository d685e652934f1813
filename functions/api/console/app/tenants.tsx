import { useState } from 'preact/hooks';
import { api } from './api.ts';
import { ActionButton, DeleteButton, ErrorText, Field, Form, Head, Status, useLoad, when } from './ui.tsx';

interface Tenant {
  id: string;
  name: string;
  portal_id: string;
  disabled: boolean;
}

interface ApiKey {
  keyId: string;
  label?: string;
  prefix?: string;
  status: 'active' | 'revoked';
  createdAt: string;
  revokedAt?: string;
}

/** A plain API key, shown this once (the API keeps only its hash); the admin hands it to the tenant. */
function NewKey(props: { apiKey: string; what: string }) {
  return (
    <div class="new-key" role="status">
      <p>{props.what}, shown once (it cannot be read again):</p>
      <label>
        New API key
        <input readOnly value={props.apiKey} onFocus={(e) => e.currentTarget.select()} />
      </label>
    </div>
  );
}

/**
 * The admin's page (shown only to the admin key): create a tenant with its first API key, and open a
 * tenant by id to issue, list and revoke its keys or disable it. The API has no listing of all
 * tenants, so the tenants created in this tab are kept in a list here to open again.
 */
export function TenantsPage() {
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ tenant: Tenant; apiKey: string }>();
  const [mine, setMine] = useState<Tenant[]>([]);
  const [openId, setOpenId] = useState('');
  const [open, setOpen] = useState<string>();
  return (
    <section>
      <h2>Tenants</h2>
      <h3>New tenant</h3>
      <Form
        class="row"
        onSubmit={async () => {
          const r = await api<{ tenant: Tenant; apiKey: string }>('POST', '/api/admin/tenants', { name });
          setCreated(r);
          setMine((m) => [r.tenant, ...m]);
          setName('');
          setOpen(r.tenant.id);
        }}
      >
        <Field label="Tenant name" required value={name} onInput={setName} />
        <button type="submit">Create tenant</button>
      </Form>
      {created && (
        <NewKey what={`API key of ${created.tenant.name} (${created.tenant.id})`} apiKey={created.apiKey} />
      )}
      {mine.length > 0 && (
        <ul class="plain" aria-label="Created in this tab">
          {mine.map((t) => (
            <li key={t.id}>
              <button type="button" class="link" onClick={() => setOpen(t.id)}>
                {t.name} ({t.id})
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3>Open a tenant</h3>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (openId.trim()) setOpen(openId.trim());
        }}
      >
        <Field label="Tenant ID" placeholder="tnt_…" value={openId} onInput={setOpenId} />
        <button type="submit">Open</button>
      </form>
      {open && <TenantDetail key={open} id={open} />}
    </section>
  );
}

/** One tenant: its state, its keys (issue, revoke) and the switch that disables it. */
function TenantDetail({ id }: { id: string }) {
  const path = `/api/admin/tenants/${encodeURIComponent(id)}`;
  const tenant = useLoad(() => api<{ tenant: Tenant }>('GET', path).then((r) => r.tenant));
  const keys = useLoad(() => api<{ keys: ApiKey[] }>('GET', `${path}/keys`).then((r) => r.keys));
  const [label, setLabel] = useState('');
  const [issued, setIssued] = useState<string>();
  const t = tenant.data;
  return (
    <div class="tenant" data-tenant={id}>
      <h3>
        {t ? t.name : id} <small class="muted">{id}</small>{' '}
        {t && <Status value={t.disabled ? 'disabled' : 'active'} />}
      </h3>
      <ErrorText error={tenant.error ?? keys.error} />
      {t && (
        <ActionButton
          class={t.disabled ? undefined : 'danger'}
          onClick={async () => {
            await api('POST', `${path}/${t.disabled ? 'enable' : 'disable'}`);
            await tenant.reload();
          }}
        >
          {t.disabled ? 'Enable tenant' : 'Disable tenant'}
        </ActionButton>
      )}
      <Form
        class="row"
        onSubmit={async () => {
          const r = await api<{ apiKey: string }>('POST', `${path}/keys`, label ? { label } : {});
          setIssued(r.apiKey);
          setLabel('');
          await keys.reload();
        }}
      >
        <Field label="Key label" maxLength={100} value={label} onInput={setLabel} />
        <button type="submit">Issue key</button>
      </Form>
      {issued && <NewKey what="New key" apiKey={issued} />}
      <table aria-label="API keys">
        <Head columns={['Key', 'Label', 'Status', 'Created', '']} />
        <tbody>
          {(keys.data ?? []).map((k) => (
            <tr key={k.keyId}>
              <td>
                <code>{k.prefix ? `${k.prefix}…` : k.keyId}</code>
              </td>
              <td>{k.label}</td>
              <td>
                <Status value={k.status} />
              </td>
              <td>{when(k.createdAt)}</td>
              <td>
                {k.status === 'active' && (
                  <DeleteButton
                    label={`Revoke key ${k.prefix ?? k.keyId}`}
                    confirm="Revoke this key and every token it minted?"
                    path={`${path}/keys/${k.keyId}`}
                    onDeleted={keys.reload}
                  >
                    Revoke
                  </DeleteButton>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
