import { api } from './api.ts';
import { ErrorText, Status, useLoad, when } from './ui.tsx';

interface Usage {
  sessionId: string;
  session_name: string | null;
  mobile_number: string | null;
  usage: number;
  limit: number | null;
  remaining: number | null;
  status: string;
  period: string;
  resetsAt: string;
}
interface AiUsage {
  mobid: string;
  aiUsageCount: number;
  docAnalysisCount: number;
  audioTranscribeCount: number;
  totalMessages: number;
}

/** This month's messages against each session's quota, and the AI work done per session. */
export function UsagePage() {
  const quota = useLoad(() =>
    api<{ sessions: Usage[] }>('GET', '/api/sessions/usage').then((r) => r.sessions),
  );
  const ai = useLoad(() => api<{ sessions: AiUsage[] }>('GET', '/api/v1/ai/usage').then((r) => r.sessions));
  return (
    <section>
      <h2>Usage</h2>
      <h3>Messages this month</h3>
      <ErrorText error={quota.error} />
      <table>
        <thead>
          <tr>
            <th>Session</th>
            <th>Status</th>
            <th>Sent</th>
            <th>Quota left</th>
            <th>Resets</th>
          </tr>
        </thead>
        <tbody>
          {(quota.data ?? []).map((u) => (
            <tr key={u.sessionId}>
              <td>{u.session_name || u.sessionId}</td>
              <td>
                <Status value={u.status} />
              </td>
              <td>
                <meter min={0} max={u.limit ?? Math.max(u.usage, 1)} value={u.usage} /> {u.usage}
                {u.limit !== null && ` / ${u.limit}`}
              </td>
              <td>{u.remaining ?? 'no limit'}</td>
              <td>{when(u.resetsAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>AI telemetry</h3>
      <ErrorText error={ai.error} />
      <table>
        <thead>
          <tr>
            <th>Session</th>
            <th>AI replies</th>
            <th>Documents read</th>
            <th>Voice notes transcribed</th>
            <th>Messages</th>
          </tr>
        </thead>
        <tbody>
          {(ai.data ?? []).map((u) => (
            <tr key={u.mobid}>
              <td>{u.mobid}</td>
              <td>{u.aiUsageCount}</td>
              <td>{u.docAnalysisCount}</td>
              <td>{u.audioTranscribeCount}</td>
              <td>{u.totalMessages}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
