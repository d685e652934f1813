/** One stacked series of a bar chart: a name, a value per day, a CSS class for its color. */
export interface Series {
  name: string;
  values: number[];
  tone: 'a' | 'b' | 'c';
}

const BAR = 16;
const GAP = 4;
const HEIGHT = 100;
const AXIS = 14;

/**
 * Bars per day, the series stacked, drawn as SVG by hand (no chart library: a few rectangles do).
 * The chart's accessible name says what it shows and its totals; each bar segment has a title
 * (hover, long-press) with its day, series and value; a legend names the colors.
 */
export function BarChart(props: { title: string; days: string[]; series: Series[] }) {
  const { days, series } = props;
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + Math.max(0, s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const width = days.length * (BAR + GAP);
  const sums = series.map((s) => `${s.name} ${s.values.reduce((a, b) => a + b, 0)}`).join(', ');
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <svg
        role="img"
        aria-label={`${props.title}, ${days.length} days from ${days[0]} to ${days.at(-1)}: ${sums}`}
        viewBox={`0 0 ${width} ${HEIGHT + AXIS}`}
        preserveAspectRatio="none"
      >
        <line class="axis" x1={0} y1={HEIGHT} x2={width} y2={HEIGHT} />
        {days.map((day, i) => {
          let y = HEIGHT;
          return (
            <g key={day}>
              {series.map((s) => {
                const v = Math.max(0, s.values[i] ?? 0);
                if (v === 0) return null;
                const h = (v / max) * (HEIGHT - 4);
                y -= h;
                return (
                  <rect key={s.name} class={`bar ${s.tone}`} x={i * (BAR + GAP)} y={y} width={BAR} height={h}>
                    <title>{`${day} ${s.name}: ${v}`}</title>
                  </rect>
                );
              })}
            </g>
          );
        })}
        <text class="tick" x={0} y={HEIGHT + AXIS - 2}>
          {days[0]?.slice(5)}
        </text>
        <text class="tick" x={width} y={HEIGHT + AXIS - 2} text-anchor="end">
          {days.at(-1)?.slice(5)}
        </text>
      </svg>
      <p class="legend">
        <span class="muted">peak {max} a day</span>
        {series.map((s) => (
          <span key={s.name}>
            <i class={`swatch ${s.tone}`} /> {s.name}
          </span>
        ))}
      </p>
    </figure>
  );
}
