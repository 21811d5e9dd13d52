import type { SourceJson } from "../common/schemas";

// How the answerers (lib/memory/answer/chat.ts, lib/memory/answer/extractive.ts) read a source: its turns, who said
// each and when, so that "when did …" questions can be answered from the sources' dates.

export interface SourceTurn {
  content: string;
  /** Who said it, for a turn of a conversation; null for a plain memory. */
  role: string | null;
  occurredAt: string;
  /** Its position in its conversation; null for a plain memory. */
  position: number | null;
  /** Whether this is the matching memory itself rather than one of its neighbouring turns. */
  isMatch: boolean;
}

/**
 * A source's turns in conversation order: its neighbouring turns before it (`context`), the match,
 * then the turns after it. A plain memory, or a source asked without context, is its one turn.
 */
export function turnsOf(source: SourceJson): SourceTurn[] {
  const match: SourceTurn = {
    content: source.content,
    role: source.role,
    occurredAt: source.occurred_at,
    position: source.position,
    isMatch: true,
  };
  const position = source.position;
  if (position === null || source.context.length === 0) return [match];
  const turn = (t: SourceJson["context"][number]): SourceTurn => ({
    content: t.content,
    role: t.role,
    occurredAt: t.occurred_at,
    position: t.position,
    isMatch: false,
  });
  return [
    ...source.context.filter((t) => t.position < position).map(turn),
    match,
    ...source.context.filter((t) => t.position > position).map(turn),
  ];
}

const DAY = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });

/** The day of an ISO 8601 timestamp, in UTC, as people write it: `7 May 2023`. */
export function dayOf(timestamp: string): string {
  return DAY.format(new Date(timestamp));
}

/**
 * Whether a question asks for a time ("When did …", "What year …", "How long ago …"), so that the
 * extractive answer states the date of what it quotes.
 */
export function asksWhen(question: string): boolean {
  return (
    /\bwhen\b/i.test(question) ||
    /\b(what|which)\s+(date|day|month|year|time)\b/i.test(question) ||
    /\bhow\s+long\s+ago\b/i.test(question)
  );
}
