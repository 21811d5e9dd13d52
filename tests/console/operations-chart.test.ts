// The overview's chart of operations per day: as many series as it has colours, each colour once.
import { expect, test } from "vitest";
import { chartSeries } from "@/components/operations-chart";

test("fourteen operations are six series and the rest together, each of a colour of its own", () => {
  const names = Array.from({ length: 14 }, (_, i) => `op${String(i).padStart(2, "0")}`);
  // op00 is the most frequent, op13 the least.
  const days = [{ day: "2026-11-30", counts: Object.fromEntries(names.map((name, i) => [name, 100 - i])) }];
  const { series, grouped } = chartSeries(days);
  expect(series).toEqual(["op00", "op01", "op02", "op03", "op04", "op05", "other operations"]);
  expect([...grouped].sort()).toEqual(names.slice(6));
});

test("seven operations or fewer are each a series, by name", () => {
  const days = [{ day: "2026-11-30", counts: { remember: 3, recall: 9, ask: 1 } }];
  expect(chartSeries(days)).toEqual({ series: ["ask", "recall", "remember"], grouped: new Set() });
});
