// Evidence recall on long multi-session conversations (LoCoMo, docs/benchmark-datasets.md), through the same
// lib/ functions as the API: every conversation goes into a namespace of its own, once as one memory per turn
// and once in the conversation form (one remember per session); a turn's text carries the caption of the photo
// its speaker shared, if any. Each question of categories 1–4 is asked through recall (top 10). frac@10: the
// share of a question's evidence turns among the matches, averaged over questions; recall@10: the share of
// questions whose evidence is all there.
import fs from "node:fs";
import path from "node:path";
import { db } from "@/lib/db";
import { memoryItems, remember } from "@/lib/memory/remember";
import { recall } from "@/lib/memory/recall";
import { RecallBody, RememberBody } from "@/lib/memory/schemas";
import { searchChunks } from "@/lib/memory/search";
import { createNamespace } from "@/lib/namespaces/namespaces";
import { benchPrincipal, cachedEmbedder } from "./quality";

export const CATEGORIES: Record<number, string> = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop" };

interface Turn {
  speaker: string;
  text: string;
  diaId: string;
}

interface Session {
  id: string;
  occurredAt: Date;
  turns: Turn[];
}

interface Question {
  text: string;
  category: number;
  evidence: string[];
}

export interface Conversation {
  id: string;
  sessions: Session[];
  questions: Question[];
}

export interface ConversationSet {
  /** Which conversations: the development half, or the held-out half when the full set is there. */
  name: string;
  conversations: Conversation[];
}

/**
 * How a conversation is stored: one plain memory per turn; the conversation form; or the conversation form
 * with one role for every turn ("speaker"), which measures what indexing who said each turn adds.
 */
export type Form = "turns" | "conversation" | "conversation, one role";
export const FORMS: Form[] = ["turns", "conversation, one role", "conversation"];

export interface CategoryFigures {
  category: string;
  questions: number;
  frac10: number;
  recall10: number;
}

export interface ConversationRow {
  set: string;
  form: Form;
  /** What was measured: `recall` (the engine as shipped), or an ablation of one of its steps. */
  variant: string;
  conversations: number;
  turns: number;
  categories: CategoryFigures[];
  overall: CategoryFigures;
  ms: number;
}

const DEV_FILE = "locomo-dev/locomo-dev.json";
const FULL_FILE = "locomo/locomo10.json";
/** LoCoMo's first five conversations are for development, its last five for reporting (docs/decisions.md). */
const DEV_CONVERSATIONS = 5;

/** The conversation sets in the datasets directory: the development half, and the held-out half if present. */
export function conversationSets(datasetsDir: string): ConversationSet[] {
  const full = path.join(datasetsDir, FULL_FILE);
  if (fs.existsSync(full)) {
    const all = parseLoCoMo(JSON.parse(fs.readFileSync(full, "utf8")));
    return [
      { name: "dev (1–5)", conversations: all.slice(0, DEV_CONVERSATIONS) },
      { name: "held-out (6–10)", conversations: all.slice(DEV_CONVERSATIONS) },
    ];
  }
  const dev = path.join(datasetsDir, DEV_FILE);
  if (fs.existsSync(dev))
    return [{ name: "dev (1–5)", conversations: parseLoCoMo(JSON.parse(fs.readFileSync(dev, "utf8"))) }];
  throw new Error(
    `LoCoMo not found: neither ${dev} nor ${full}. Download it with \`node scripts/fetch-datasets.mjs locomo\` ` +
      "(see docs/benchmark-datasets.md), or point BENCH_DATASETS_DIR at a directory that holds it.",
  );
}

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** LoCoMo's session dates, "1:56 pm on 8 May, 2023", as UTC instants. */
export function parseSessionDate(text: string): Date {
  const match = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})/i.exec(text);
  const month = match ? MONTHS.indexOf(match[5].toLowerCase()) : -1;
  if (!match || month < 0) throw new Error(`LoCoMo: unreadable session date "${text}"`);
  const hour = (Number(match[1]) % 12) + (match[3].toLowerCase() === "pm" ? 12 : 0);
  return new Date(Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2])));
}

/** Evidence as written upstream, a few entries malformed ("D8:6; D9:17", "D:11:26"): every turn id in it. */
export function evidenceIds(evidence: string[]): string[] {
  return [
    ...new Set(evidence.flatMap((entry) => [...entry.matchAll(/D:?(\d+):(\d+)/g)].map((m) => `D${m[1]}:${m[2]}`))),
  ];
}

type Upstream = {
  sample_id?: string;
  conversation: Record<string, unknown>;
  qa: { question: string; category: number; evidence?: string[] }[];
}[];

export function parseLoCoMo(upstream: Upstream): Conversation[] {
  return upstream.map((item, index) => {
    const sessions: Session[] = [];
    for (const [key, value] of Object.entries(item.conversation)) {
      const number = /^session_(\d+)$/.exec(key)?.[1];
      if (!number || !Array.isArray(value)) continue;
      sessions.push({
        id: key,
        occurredAt: parseSessionDate(String(item.conversation[`${key}_date_time`])),
        turns: (value as { speaker: string; text: string; dia_id: string; blip_caption?: string }[]).map((t) => ({
          speaker: t.speaker,
          // A photo the speaker shared is part of what was said: questions ask about what it showed.
          text: t.blip_caption ? `${t.text} [shared a photo: ${t.blip_caption}]` : t.text,
          diaId: t.dia_id,
        })),
      });
    }
    sessions.sort((a, b) => Number(a.id.slice(8)) - Number(b.id.slice(8)));
    const turnIds = new Set(sessions.flatMap((s) => s.turns.map((t) => t.diaId)));
    const questions = item.qa
      .filter((q) => CATEGORIES[q.category] !== undefined)
      .map((q) => ({
        text: q.question,
        category: q.category,
        evidence: evidenceIds(q.evidence ?? []).filter((id) => turnIds.has(id)),
      }))
      .filter((q) => q.evidence.length > 0);
    return { id: item.sample_id ?? `conversation-${index + 1}`, sessions, questions };
  });
}

type Principal = Awaited<ReturnType<typeof benchPrincipal>>;

/** Stores a conversation in a new namespace, in the given form; every memory's metadata names its turn. */
async function load(principal: Principal, conversation: Conversation, form: Form) {
  const namespace = await createNamespace(principal, {
    name: `bench-locomo-${conversation.id}-${form.replace(/\W+/g, "-")}`,
  });
  const target = { namespace_id: namespace.id };
  if (form === "turns") {
    const turns = conversation.sessions.flatMap((s) => s.turns);
    for (let i = 0; i < turns.length; i += 100) {
      const batch = turns.slice(i, i + 100).map((t) => ({ content: t.text, metadata: { dia_id: t.diaId } }));
      // Every turn is a memory of its own, also one repeating an earlier turn word for word.
      await remember(principal, target, batch, {}, { allowDuplicate: true });
    }
  } else {
    for (const session of conversation.sessions) {
      const body = RememberBody.parse({
        ...target,
        session_id: session.id,
        messages: session.turns.map((t) => ({
          role: form === "conversation" ? t.speaker : "speaker",
          content: t.text,
          occurred_at: session.occurredAt.toISOString(),
          metadata: { dia_id: t.diaId },
        })),
      });
      await remember(principal, target, memoryItems(body), {}, { sessionId: session.id });
    }
  }
  const turnOf = new Map<string, string>();
  for (const m of await (
    await db()
  ).memory.findMany({ where: { namespaceId: namespace.id }, select: { id: true, metadata: true } })) {
    turnOf.set(m.id, (m.metadata as { dia_id: string }).dia_id);
  }
  return { namespaceId: namespace.id, turnOf };
}

/** How the top 10 is found: recall as the API runs it, or the search with one step left out. */
export interface Variant {
  name: string;
  forms: Form[];
  search?: { neighbourShare?: number; speakerFocus?: number };
}

export const VARIANTS: Variant[] = [
  { name: "recall", forms: FORMS },
  {
    name: "without neighbour evidence",
    forms: ["conversation, one role", "conversation"],
    search: { neighbourShare: 0 },
  },
  {
    name: "without speaker focus",
    forms: ["conversation"],
    search: { speakerFocus: 1 },
  },
];

export async function measureConversations(options: {
  datasetsDir: string;
  log: (line: string) => void;
  forms?: Form[];
}) {
  cachedEmbedder();
  const principal = await benchPrincipal();
  const rows: ConversationRow[] = [];
  for (const set of conversationSets(options.datasetsDir)) {
    for (const form of options.forms ?? FORMS) {
      const started = performance.now();
      const loaded = [];
      for (const conversation of set.conversations) loaded.push(await load(principal, conversation, form));
      const turns = loaded.reduce((sum, l) => sum + l.turnOf.size, 0);
      options.log(
        `  LoCoMo ${set.name}, ${form}: ${turns} turns stored in ` +
          `${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      for (const variant of VARIANTS.filter((v) => v.forms.includes(form))) {
        const perQuestion: { category: number; frac: number }[] = [];
        let elapsed = 0;
        for (const [index, conversation] of set.conversations.entries()) {
          const { namespaceId, turnOf } = loaded[index];
          for (const question of conversation.questions) {
            const t0 = performance.now();
            const matches = variant.search
              ? await searchChunks({
                  orgId: principal.orgId,
                  namespaceId,
                  query: question.text,
                  topK: 10,
                  ...variant.search,
                })
              : (
                  await recall(
                    principal,
                    RecallBody.parse({ namespace_id: namespaceId, query: question.text, top_k: 10 }),
                  )
                ).matches;
            elapsed += performance.now() - t0;
            const found = new Set(matches.map((m) => turnOf.get(m.memoryId)));
            const frac = question.evidence.filter((id) => found.has(id)).length / question.evidence.length;
            perQuestion.push({ category: question.category, frac });
          }
        }
        const figures = (category: string, of: { frac: number }[]): CategoryFigures => ({
          category,
          questions: of.length,
          frac10: of.reduce((sum, q) => sum + q.frac, 0) / Math.max(1, of.length),
          recall10: of.filter((q) => q.frac === 1).length / Math.max(1, of.length),
        });
        const row: ConversationRow = {
          set: set.name,
          form,
          variant: variant.name,
          conversations: set.conversations.length,
          turns,
          categories: Object.entries(CATEGORIES).map(([number, name]) =>
            figures(
              name,
              perQuestion.filter((q) => q.category === Number(number)),
            ),
          ),
          overall: figures("overall", perQuestion),
          ms: elapsed / Math.max(1, perQuestion.length),
        };
        rows.push(row);
        options.log(
          `  LoCoMo ${set.name}, ${form}, ${variant.name}: frac@10 ${row.overall.frac10.toFixed(3)} ` +
            `(${row.categories.map((c) => `${c.category} ${c.frac10.toFixed(3)}`).join(", ")}), ` +
            `recall@10 ${row.overall.recall10.toFixed(3)}, ${row.ms.toFixed(1)} ms/query`,
        );
      }
    }
  }
  return rows;
}
