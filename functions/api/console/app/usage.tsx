import { useEffect, useState } from 'preact/hooks';
import { api } from './api.ts';
import { BarChart } from './chart.tsx';
import { Choice, ErrorText, Head, Status, useLoad, when } from './ui.tsx';

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
interface Day {
  day: string;
  sent: number;
  received: number;
  botReplies: number;
  aiCalls: number;
  docAnalyses: number;
  audioTranscriptions: number;
  credits: number;
}
interface Daily {
  days: string[];
  sessions: Array<{ sessionId: string; session_name: string | null; days: Day[] }>;
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
        <Head columns={['Session', 'Status', 'Sent', 'Quota left', 'Resets']} />
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
      <OverTime />
      <h3>AI telemetry since each session began</h3>
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

/** Each session's messages and AI work per day, as charts (GET /api/sessions/usage/daily). */
function OverTime() {
  const [days, setDays] = useState(14);
  const daily = useLoad(() => api<Daily>('GET', `/api/sessions/usage/daily?days=${days}`), 30_000);
  // A new period is read at once, not at the next refresh.
  useEffect(() => {
    daily.reload();
  }, [days]);
  const pick = (d: Day[], k: keyof Omit<Day, 'day'>) => d.map((x) => x[k]);
  return (
    <div>
      <h3>Over time</h3>
      <Choice
        label="Period"
        value={days}
        options={[7, 14, 30, 90].map((n) => ({ value: n, text: `last ${n} days` }))}
        onChange={(n) => setDays(Number(n))}
      />
      <ErrorText error={daily.error} />
      {(daily.data?.sessions ?? []).map((s) => {
        const chartDays = daily.data?.days ?? [];
        const name = s.session_name || s.sessionId;
        return (
          <section key={s.sessionId} class="charts" aria-label={`Usage of ${name}`}>
            <h4>{name}</h4>
            <BarChart
              title={`Messages per day, ${name}`}
              days={chartDays}
              series={[
                { name: 'received', values: pick(s.days, 'received'), tone: 'a' },
                { name: 'sent', values: pick(s.days, 'sent'), tone: 'b' },
                { name: 'bot replies', values: pick(s.days, 'botReplies'), tone: 'c' },
              ]}
            />
            <BarChart
              title={`AI work per day, ${name}`}
              days={chartDays}
              series={[
                { name: 'model calls', values: pick(s.days, 'aiCalls'), tone: 'a' },
                { name: 'documents read', values: pick(s.days, 'docAnalyses'), tone: 'b' },
                { name: 'voice notes transcribed', values: pick(s.days, 'audioTranscriptions'), tone: 'c' },
              ]}
            />
          </section>
        );
      })}
    </div>
  );
}
