import { holdsAt } from "../search/holding-matches";
import { aboutOthers } from "../search/about-others";
import type { RecalledMatch } from "../search/recall";
import type { SourceJson } from "../common/schemas";

/**
 * The sources an answer is made from. When two of them are statements of one slot (one replaced the other), the
 * question is about that slot: the one of them that held at the time asked about (now, `as_of`, or a past year
 * the question names). Otherwise those that held then and, unless the question names them, are not statements
 * about another person (recall ranks those lower: about-others.ts); all of them when that leaves none. The others
 * stay among the sources, so the answer can cite what held before.
 */
export function answeringSources(
  query: string,
  matches: RecalledMatch[],
  sources: SourceJson[],
  asOf: Date | undefined,
  identityId: string | undefined,
): { answering: SourceJson[]; ofChangedSlot: boolean } {
  const holds = holdsAt(asOf ?? new Date(), asOf !== undefined);
  const matchOf = (source: SourceJson) => matches.find((m) => m.memoryId === source.memory_id);
  // Two statements of one slot both found: the question is about that slot, and what held of it answers.
  const ids = new Set(sources.map((source) => source.memory_id));
  const slot = sources.filter(
    (source) =>
      (ids.has(source.superseded_by ?? "") || sources.some((s) => s.superseded_by === source.memory_id)) &&
      holds(matchOf(source)!),
  );
  if (slot.length > 0) return { answering: slot, ofChangedSlot: true };
  const answering = sources.filter((source) => {
    const match = matchOf(source);
    return match !== undefined && holds(match) && !(identityId !== undefined && aboutOthers(query, match));
  });
  return { answering: answering.length > 0 ? answering : sources, ofChangedSlot: false };
}

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/**
 * Where the answer's first citation is a memory that replaced another among the sources, says so, citing both
 * ("That changed on 14 February 2026; before then, [2]."), so that the answer tells what holds and that it
 * changed. The value that held before is left to its source: an answer about now does not repeat it.
 */
export function whatChanged(answer: string, sources: SourceJson[]): string {
  const cited = Number(/\[(\d+)\]/.exec(answer)?.[1]);
  const source = sources.find((s) => s.index === cited);
  if (!source) return answer;
  const replaced = sources.filter((s) => s.superseded_by === source.memory_id);
  if (replaced.length === 0) return answer;
  const before = replaced.map((s) => `[${s.index}]`).join(", ");
  return `${answer} That changed on ${DAY.format(new Date(source.valid_at))}; before then, ${before}.`;
}
