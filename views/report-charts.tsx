// The report's charts as server-rendered SVG: no script, nothing fetched, prints as it shows. Colours are fill
// attributes (the Content-Security-Policy allows no inline style); each bar has a <title> for a hover label and
// the chart an aria-label saying what it shows.

const INK = "#1a1a1a";
const MUTED = "#5f6368";
const CURRENT = "#0b4fb3";
const PREVIOUS = "#a8c1ea";

const fmt = (n: number) => n.toLocaleString("en-US");

/** Bars per day of the period (engagement), the day's published count in each bar's label. */
export function DailyChart(props: {
  days: { date: string; published: number; total: number }[];
  label: string;
}) {
  const W = 720;
  const H = 200;
  const left = 44;
  const bottom = 24;
  const top = 12;
  const days = props.days;
  const max = Math.max(1, ...days.map((d) => d.total));
  const step = (W - left) / Math.max(1, days.length);
  const bar = Math.max(2, step * 0.7);
  const y = (v: number) => top + (H - top - bottom) * (1 - v / max);
  const ticks = [0, Math.round(max / 2), max];
  const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1]);
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={props.label}
      preserveAspectRatio="xMidYMid meet"
    >
      {ticks.map((v) => (
        <g>
          <line x1={left} x2={W} y1={y(v)} y2={y(v)} stroke="#e3e3e3" stroke-width="1" />
          <text x={left - 6} y={y(v) + 4} text-anchor="end" font-size="11" fill={MUTED}>
            {fmt(v)}
          </text>
        </g>
      ))}
      {days.map((d, i) => (
        <g>
          <rect
            x={left + i * step + (step - bar) / 2}
            y={y(d.total)}
            width={bar}
            height={Math.max(0, H - bottom - y(d.total))}
            fill={CURRENT}
          >
            <title>{`${d.date}: ${fmt(d.total)} engagement from ${fmt(d.published)} published`}</title>
          </rect>
          {labelled.has(i) ? (
            <text
              x={left + i * step + step / 2}
              y={H - 6}
              text-anchor={i === days.length - 1 && i > 0 ? "end" : "middle"}
              font-size="11"
              fill={INK}
            >
              {d.date.slice(5)}
            </text>
          ) : null}
        </g>
      ))}
    </svg>
  );
}

/** Horizontal bars per row: the period (dark) above the previous period (light), the figures written beside. */
export function CompareBars(props: {
  rows: { label: string; value: number; previous: number }[];
  label: string;
}) {
  const W = 720;
  const rowH = 40;
  const left = 130;
  const right = 110;
  const H = Math.max(1, props.rows.length) * rowH + 8;
  const max = Math.max(1, ...props.rows.flatMap((r) => [r.value, r.previous]));
  const w = (v: number) => ((W - left - right) * v) / max;
  return (
    <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.label}>
      {props.rows.map((r, i) => (
        <g>
          <text x={left - 8} y={i * rowH + 22} text-anchor="end" font-size="13" fill={INK}>
            {r.label}
          </text>
          <rect x={left} y={i * rowH + 6} width={w(r.value)} height="14" fill={CURRENT}>
            <title>{`${r.label}: ${fmt(r.value)} this period`}</title>
          </rect>
          <rect x={left} y={i * rowH + 22} width={w(r.previous)} height="10" fill={PREVIOUS}>
            <title>{`${r.label}: ${fmt(r.previous)} the period before`}</title>
          </rect>
          <text x={left + w(r.value) + 6} y={i * rowH + 18} font-size="12" fill={INK}>
            {fmt(r.value)}
          </text>
          <text x={left + w(r.previous) + 6} y={i * rowH + 32} font-size="11" fill={MUTED}>
            {fmt(r.previous)} before
          </text>
        </g>
      ))}
    </svg>
  );
}
