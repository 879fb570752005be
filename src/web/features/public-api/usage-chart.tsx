import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TApiUsageDay } from '../../../contract/api-usage';
import { USAGE_SERIES, shortDay } from './usage-series';

/**
 * Requests per day stacked by status class, with documents generated as a line. Loaded on demand:
 * the chart library is the heaviest part of Settings, and only enterprise users see it.
 */
export default function UsageChart({ days }: { days: TApiUsageDay[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <ComposedChart accessibilityLayer={false} data={days} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid vertical={false} stroke="#e5e7eb" />
        <XAxis dataKey="day" tickFormatter={shortDay} tick={{ fontSize: 12, fill: '#6b7280' }} tickLine={false} axisLine={false} minTickGap={24} />
        <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: '#6b7280' }} tickLine={false} axisLine={false} />
        <Tooltip labelFormatter={(day) => shortDay(String(day))} cursor={{ fill: 'rgba(99, 102, 241, 0.06)' }} />
        {USAGE_SERIES.filter((s) => s.kind === 'bar').map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.label} stackId="requests" fill={s.color} maxBarSize={28} isAnimationActive={false} />
        ))}
        {USAGE_SERIES.filter((s) => s.kind === 'line').map((s) => (
          <Line key={s.key} dataKey={s.key} name={s.label} stroke={s.color} strokeWidth={2} dot={false} type="linear" isAnimationActive={false} />
        ))}
      </ComposedChart>
    </ResponsiveContainer>
  );
}
