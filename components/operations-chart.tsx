"use client";
// Operations per day as stacked bars (Recharts), with the same numbers as a table for screen readers and
// for anyone who wants the figures.
import { plural } from "./format";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface DailyOperations {
  /** YYYY-MM-DD (UTC). */
  day: string;
  counts: Record<string, number>;
}

const COLORS = ["#4f46e5", "#0ea5e9", "#10b981", "#f59e0b", "#f43f5e", "#8b5cf6", "#64748b"];
/** The bars of the operations beyond the most frequent ones, one colour for them all (the last, grey). */
const OTHERS = "other operations";

/**
 * The series the bars show: each operation while there are no more than colours, else the most frequent
 * (one colour fewer) and the rest summed as OTHERS. Colours repeating made two operations one to the eye.
 */
export function chartSeries(days: DailyOperations[]) {
  const totals = new Map<string, number>();
  for (const d of days) for (const [op, n] of Object.entries(d.counts)) totals.set(op, (totals.get(op) ?? 0) + n);
  const byCount = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([op]) => op);
  if (byCount.length <= COLORS.length) return { series: byCount.sort(), grouped: new Set<string>() };
  const shown = byCount.slice(0, COLORS.length - 1);
  return { series: [...shown.sort(), OTHERS], grouped: new Set(byCount.slice(COLORS.length - 1)) };
}

export function OperationsChart({ title, days }: { title: string; days: DailyOperations[] }) {
  const operations = [...new Set(days.flatMap((d) => Object.keys(d.counts)))].sort();
  const { series, grouped } = chartSeries(days);
  const rows = days.map((d) => {
    const row: Record<string, number | string> = { day: d.day.slice(5) };
    for (const [op, n] of Object.entries(d.counts)) {
      const name = grouped.has(op) ? OTHERS : op;
      row[name] = ((row[name] as number | undefined) ?? 0) + n;
    }
    return row;
  });
  const total = days.reduce((sum, d) => sum + Object.values(d.counts).reduce((a, b) => a + b, 0), 0);
  return (
    <figure className="min-w-0">
      <figcaption className="text-sm font-medium text-slate-700">
        {title}: {plural(total, "operation")}
      </figcaption>
      <div className="mt-2 h-56 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {/* Hidden from assistive technology (the caption says the total): not a keyboard stop either. */}
          <BarChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="day" tick={{ fontSize: 11 }} interval="preserveStartEnd" minTickGap={12} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
            <Tooltip />
            {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
            {series.map((operation, i) => (
              // No grow-in animation: the figures are there at once (and in a screenshot).
              <Bar key={operation} dataKey={operation} stackId="ops" fill={COLORS[i]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <details className="mt-2 text-xs text-slate-600">
        <summary className="cursor-pointer">Show the numbers</summary>
        <div className="mt-2 max-h-64 overflow-auto">
          <table className="min-w-full text-left">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th className="pr-4 font-medium">Day</th>
                {operations.map((operation) => (
                  <th key={operation} className="pr-4 font-medium">
                    {operation}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day}>
                  <td className="pr-4">{d.day}</td>
                  {operations.map((operation) => (
                    <td key={operation} className="pr-4 tabular-nums">
                      {d.counts[operation] ?? 0}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
