// Evidence recall on long multi-session conversations (LoCoMo, docs/benchmark-datasets.md), through the same
// lib/ functions as the API: every conversation goes into a namespace of its own, once as one memory per turn
// and once in the conversation form (one remember per session); a turn's text carries the caption of the photo
// its speaker shared, if any. Each question of categories 1–4 is asked through recall (top 10). frac@10: the
// share of a question's evidence turns among the matches, averaged over questions; recall@10: the share of
// questions whose evidence is all there.
// Answers: on the conversation form (role = the speaker's name), each question is also asked through `ask` as
// the API runs it (no chat model configured: the built-in extractive answerer) and its answer scored against
// LoCoMo's gold answer: the share of the gold answer's content words in it, and token F1 as LoCoMo's own
// evaluation computes it. BENCH_LOCOMO_SAMPLE=k asks only every k-th question of each conversation (for quick
// iteration; published figures use all), BENCH_LOCOMO_ANSWERS=only stores the conversation form alone and
// measures the answers without the recall rows (keeping those of the last full run), BENCH_LOCOMO_ANSWERS_LOG
// names a file to which each question, its gold answer and the answer given are appended (JSON lines).
import fs from "node:fs";
import path from "node:path";
import { stemmer } from "stemmer";
import { db } from "@/lib/db";
import { ask } from "@/lib/memory/answer/ask";
import { citedIndices } from "@/lib/memory/answer/chat";
import { sentencesOf } from "@/lib/memory/store/chunking";
import { memoryItems } from "@/lib/memory/write/memory-items";
import { remember } from "@/lib/memory/write/remember";
import { recall } from "@/lib/memory/search/recall";
import { AskBody, RecallBody, RememberBody } from "@/lib/memory/common/schemas";
import { DATE_FOCUS, ENTITY_BOOST, ENTITY_HOP } from "@/lib/memory/search/ranking";
import { searchChunks } from "@/lib/memory/search/search";
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
  /** The gold answer. */
  answer: string;
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
  qa: { question: string; category: number; evidence?: string[]; answer?: string | number }[];
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
        answer: String(q.answer ?? ""),
      }))
      .filter((q) => q.evidence.length > 0);
    return { id: item.sample_id ?? `conversation-${index + 1}`, sessions, questions };
  });
}

type Principal = Awaited<ReturnType<typeof benchPrincipal>>;

/** Stores a conversation in a new namespace, in the given form; every memory's metadata names its turn. */
export async function loadConversation(principal: Principal, conversation: Conversation, form: Form) {
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
  search?: {
    neighbourShare?: number;
    speakerFocus?: number;
    entityBoost?: number;
    dateFocus?: number;
    entityHop?: number;
    turnPrior?: { asking: number; short: number };
    feedbackWeight?: number;
  };
}

/** The weight an entity step is measured at when it is off by default (its row says what it would add). */
const ENTITY_HOP_MEASURED = 0.05;

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
  // The entity steps (issue 33): each left out, or, when off by default, switched on at the weight it was measured at.
  ENTITY_BOOST > 0
    ? { name: "without the query's entities", forms: ["conversation"], search: { entityBoost: 0 } }
    : { name: "with the query's entities (boost 0.1)", forms: ["conversation"], search: { entityBoost: 0.1 } },
  DATE_FOCUS < 1
    ? { name: "without the query's dates", forms: ["conversation"], search: { dateFocus: 1 } }
    : { name: "with the query's dates (focus 0.5)", forms: ["conversation"], search: { dateFocus: 0.5 } },
  ENTITY_HOP > 0
    ? { name: "without the entity hop", forms: ["conversation"], search: { entityHop: 0 } }
    : {
        name: `with the entity hop (weight ${ENTITY_HOP_MEASURED})`,
        forms: ["conversation"],
        search: { entityHop: ENTITY_HOP_MEASURED },
      },
  {
    name: "without what a turn tells (asking and short turns)",
    forms: ["conversation"],
    search: { turnPrior: { asking: 1, short: 1 } },
  },
  { name: "without the feedback step", forms: ["conversation"], search: { feedbackWeight: 0 } },
  {
    name: "without any entity step",
    forms: ["conversation"],
    search: { entityBoost: 0, dateFocus: 1, entityHop: 0 },
  },
];

/** The form whose answers are measured: how the API stores a conversation, each turn under its speaker's name. */
const ANSWER_FORM: Form = "conversation";

export async function measureConversations(options: {
  datasetsDir: string;
  log: (line: string) => void;
  forms?: Form[];
}) {
  cachedEmbedder();
  const principal = await benchPrincipal();
  const answersOnly = process.env.BENCH_LOCOMO_ANSWERS === "only";
  const sample = Math.max(1, Number(process.env.BENCH_LOCOMO_SAMPLE || 1));
  const rows: ConversationRow[] = [];
  const answers: AnswerRow[] = [];
  for (const set of conversationSets(options.datasetsDir)) {
    for (const form of answersOnly ? [ANSWER_FORM] : (options.forms ?? FORMS)) {
      const started = performance.now();
      const loaded = [];
      for (const conversation of set.conversations) loaded.push(await loadConversation(principal, conversation, form));
      const turns = loaded.reduce((sum, l) => sum + l.turnOf.size, 0);
      options.log(
        `  LoCoMo ${set.name}, ${form}: ${turns} turns stored in ` +
          `${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
      if (form === ANSWER_FORM) {
        answers.push(await measureAnswers(principal, set, loaded, sample));
        const a = answers.at(-1)!;
        options.log(
          `  LoCoMo ${set.name}, ${form}, ask (${a.answerer}${sample > 1 ? `, 1 question in ${sample}` : ""}): ` +
            `gold words present ${a.overall.present.toFixed(3)}, F1 ${a.overall.f1.toFixed(3)} ` +
            `(${a.categories.map((c) => `${c.category} ${c.present.toFixed(2)}/${c.f1.toFixed(2)}`).join(", ")}), ` +
            `${a.overall.words.toFixed(1)} words/answer, ${a.overall.nothing} "nothing in memory", ` +
            `violations: ${a.violations.length} (${a.ms.toFixed(0)} ms/question)`,
        );
        for (const v of a.violations.slice(0, 10)) options.log(`    violation: ${v}`);
      }
      if (answersOnly) continue;
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
  // A run of the answers alone keeps the recall rows of the last full run.
  if (answersOnly) rows.push(...savedRecallRows());
  return { rows, answers };
}

function savedRecallRows(): ConversationRow[] {
  const saved = path.join(import.meta.dirname, "results", "conversations.json");
  if (!fs.existsSync(saved)) return [];
  return (JSON.parse(fs.readFileSync(saved, "utf8")) as { rows?: ConversationRow[] }).rows ?? [];
}

/**
 * The answer score at each step of the extractive answerer, whole dev set (conversations 1–5, 762 questions),
 * as measured when the step was committed: what each general rule added.
 */
const ANSWER_STEPS: { step: string; present: number; f1: number; words: number }[] = [
  {
    step: "before (commit 150309c): relevant sources only, up to 3 sentences ≥ 0.6 × the best, 'X said:'",
    present: 0.32,
    f1: 0.073,
    words: 28.4,
  },
  {
    step:
      "ask answers once recall is confident (words and meaning agreeing count) from all its top matches with " +
      "evidence ('nothing in memory' 201 → 39); relative dates resolved; speaker as 'Caroline:'; asking " +
      "sentences discounted",
    present: 0.468,
    f1: 0.093,
    words: 41.6,
  },
  {
    step:
      "short answers (071cd7f): a when/where/who/how-many question gets the date, place, person or number alone, " +
      "from the best sentence (for when, the best close candidate holding a date); any other question the clause " +
      "holding its words and the next clause (or the next sentence's first), with the speaker",
    present: 0.351,
    f1: 0.205,
    words: 15.5,
  },
  {
    step: "a shared photo's label left out of clauses; continuations under three words left out",
    present: 0.354,
    f1: 0.206,
    words: 15.8,
  },
  {
    step: "a clause keeps the word joining it to the one before ('since our last chat'); the answer's first drops it",
    present: 0.354,
    f1: 0.206,
    words: 15.9,
  },
  {
    step:
      "issue 54: a when-question keeps a recurrence, time of day or range as said ('every Sunday at 03:00 UTC'; " +
      "0.362 / 0.208 alone); ask answers from every match recall lists with evidence, no longer only once one is " +
      "'confident' ('nothing in memory' 29 → 0); where and who questions, like when, take the best close " +
      "candidate holding a place or a person",
    present: 0.366,
    f1: 0.211,
    words: 16.4,
  },
];

/** Rules tried on the whole dev set and left out, with what they gave (present / F1 / words per answer). */
const ANSWER_TRIED = [
  "the clause's words the question does not say, alone ('horseback riding'): 0.319 / 0.220 / 8.8 (1 question in 4; " +
    "the clause alone there: 0.353 / 0.219); that span then the clause: 0.367 / 0.206 / 17.5 (1 in 4)",
  "the date alone followed by the clause it comes from: temporal F1 0.51 → 0.20 (1 in 4)",
  "recall's first source preferred over the best-scoring sentence: 0.366 / 0.219 against 0.367 / 0.215 (1 in 4)",
  "questions asking for several things (activities, books …) answered with a clause of each close candidate: " +
    "0.361 / 0.203 / 17.4 against 0.354 / 0.206 / 15.8",
];

/** docs/benchmarks.md's section on the answers `ask` gives without a chat model. */
export function answerSection(conv: { commit: string; date: string; answers?: AnswerRow[] }): string[] {
  if (!conv.answers?.length) return [];
  const lines = [
    "## Conversations: answers without a chat model (LoCoMo answer score)",
    "",
    `Commit ${conv.commit}, ${conv.date}. \`BENCH_ONLY=conversations npm run bench\` (or, for the answers alone, ` +
      "`BENCH_ONLY=conversations BENCH_LOCOMO_ANSWERS=only npm run bench`; `BENCH_LOCOMO_SAMPLE=k` asks every k-th " +
      "question only, for quick iteration): on the conversation form, each question of categories 1–4 is asked " +
      "through `ask` with its defaults (top 5, no context; no chat model configured, so the built-in extractive " +
      "answerer answers) and its answer, citations `[n]` left out, scored against LoCoMo's gold answer. present: " +
      "the share of the gold answer's content words (lower-cased, stop words and punctuation left out, Porter-" +
      "stemmed) found in the answer; F1: token F1 as LoCoMo's evaluation computes it (commas, punctuation and " +
      "articles removed, Porter stem; multi-hop gold lists scored item by item against the answer's comma-separated " +
      "parts, open-domain gold up to its first `;`). Targets (issue 32): present ≥ 0.60, F1 ≥ 0.25, at most three " +
      "sentences, every cited index valid.",
    "",
    `| conversations | answerer | ${Object.values(CATEGORIES)
      .map((c) => `${c} present / F1 (questions)`)
      .join(
        " | ",
      )} | overall present | overall F1 | words/answer | "nothing in memory" | sources hold evidence | violations |`,
    `|---|---|${Object.values(CATEGORIES)
      .map(() => "---|")
      .join("")}---|---|---|---|---|---|`,
  ];
  for (const a of conv.answers) {
    lines.push(
      `| ${a.set}${a.sample > 1 ? ` (1 question in ${a.sample})` : ""} | ${a.answerer} | ` +
        a.categories.map((c) => `${c.present.toFixed(3)} / ${c.f1.toFixed(3)} (${c.questions})`).join(" | ") +
        ` | ${a.overall.present.toFixed(3)} | ${a.overall.f1.toFixed(3)} | ${a.overall.words.toFixed(1)} | ` +
        `${a.overall.nothing} | ${a.overall.withEvidence === undefined ? "" : a.overall.withEvidence.toFixed(3)} | ` +
        `${a.violations.length} |`,
    );
  }
  for (const a of conv.answers)
    for (const c of a.ceilings ?? [])
      lines.push(
        `| ${a.set}${a.sample > 1 ? ` (1 question in ${a.sample})` : ""} | ceiling: ${c.answer} | ` +
          c.categories.map((k) => `${k.present.toFixed(3)} / ${k.f1.toFixed(3)}`).join(" | ") +
          ` | ${c.overall.present.toFixed(3)} | ${c.overall.f1.toFixed(3)} | | | 1.000 | |`,
      );
  lines.push("");
  if (conv.answers.some((a) => a.ceilings?.length))
    lines.push(
      "The ceiling rows answer from LoCoMo's gold evidence turns (each with the day it was said), as if recall and " +
        "the choice of sentence were both perfect: every evidence turn whole, or the one sentence of them with the " +
        "best F1 (chosen knowing the gold answer). An extractive answer of whole sentences stays under the second " +
        "row's F1; the gold words no turn holds (an answer that sums up or infers) it cannot give at all. 'sources " +
        "hold evidence': the share of questions where at least one of the sources `ask` answered from is an " +
        "evidence turn; for the others no choice of sentence reaches the gold answer. Together: present ≥ 0.60 is " +
        "85 % of the second ceiling's present, while the sources hold evidence for about 70 % of the questions; " +
        "reaching it takes recall that finds the evidence more often and a reader that picks the answering words " +
        "(a chat or reading-comprehension model, behind `OPENAI_BASE_URL`), not another extraction rule.",
      "",
    );
  if (ANSWER_STEPS.length) {
    lines.push(
      "What each rule of the extractive answerer added, measured on the whole dev set as it was committed:",
      "",
      "| step | present | F1 | words/answer |",
      "|---|---|---|---|",
      ...ANSWER_STEPS.map(
        (s) => `| ${s.step} | ${s.present.toFixed(3)} | ${s.f1.toFixed(3)} | ${s.words.toFixed(1)} |`,
      ),
      "",
      "Tried and left out (present / F1 / words per answer):",
      "",
      ...ANSWER_TRIED.map((t) => `- ${t}`),
      "",
      "Short answers trade the share of gold words present for precision: the F1 target (0.25) is nearer, the " +
        "present target (0.60) further; what remains is mostly choosing the sentence that answers (single-hop: the " +
        "gold answer is in the chosen sentence for about a third of the questions).",
      "",
    );
  }
  return lines;
}

export interface AnswerFigures {
  category: string;
  questions: number;
  /** Mean share of the gold answer's content words (stemmed, stop words left out) found in the answer. */
  present: number;
  /** Mean token F1 against the gold answer, normalized and stemmed as LoCoMo's evaluation does. */
  f1: number;
  /** Mean words per answer (citations left out). */
  words: number;
  /** Answers that said nothing in memory answers. */
  nothing: number;
  /** Share of questions with an evidence turn among the sources the answer was drawn from. */
  withEvidence?: number;
}

export interface AnswerRow {
  set: string;
  form: Form;
  answerer: string;
  /** 1 when every question was asked; k when every k-th. */
  sample: number;
  categories: AnswerFigures[];
  overall: AnswerFigures;
  /** Answers of more than three sentences, or citing an index that is not a source's. */
  violations: string[];
  ms: number;
  /** What answers taken whole from the gold evidence turns score (see evidenceCeilings). */
  ceilings?: AnswerCeiling[];
}

export interface AnswerCeiling {
  answer: string;
  categories: { category: string; present: number; f1: number }[];
  overall: { present: number; f1: number };
}

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/**
 * What an extractive answer could score at best, with recall and the choice of sentence both perfect: the gold
 * evidence turns themselves (each with the day it was said, as the answerer resolves dates), whole, and the one
 * sentence of them that scores best. Words that are not in any turn (a gold answer that sums up or infers) no
 * extraction can give.
 */
export function evidenceCeilings(set: ConversationSet, sample: number): AnswerCeiling[] {
  const perQuestion: { category: number; whole: [number, number]; sentence: [number, number] }[] = [];
  for (const conversation of set.conversations) {
    const turns = new Map(
      conversation.sessions.flatMap((s) => s.turns.map((t) => [t.diaId, { ...t, day: DAY.format(s.occurredAt) }])),
    );
    for (const [number, question] of conversation.questions.entries()) {
      if (number % sample !== 0) continue;
      const evidence = question.evidence.map((id) => turns.get(id)!);
      const score = (answer: string): [number, number] => [
        goldWordsPresent(answer, question.answer),
        locomoF1(answer, question.answer, question.category),
      ];
      const sentences = evidence.flatMap((t) => sentencesOf(t.text).map((text) => `${t.speaker} (${t.day}): ${text}`));
      perQuestion.push({
        category: question.category,
        whole: score(evidence.map((t) => `${t.speaker} (${t.day}): ${t.text}`).join(" ")),
        sentence: sentences.map(score).reduce((best, s) => (s[1] > best[1] ? s : best), [0, 0]),
      });
    }
  }
  const ceiling = (answer: string, pick: (q: (typeof perQuestion)[number]) => [number, number]): AnswerCeiling => {
    const figures = (of: typeof perQuestion) => ({
      present: mean(of.map((q) => pick(q)[0])),
      f1: mean(of.map((q) => pick(q)[1])),
    });
    return {
      answer,
      categories: Object.entries(CATEGORIES).map(([number, category]) => ({
        category,
        ...figures(perQuestion.filter((q) => q.category === Number(number))),
      })),
      overall: figures(perQuestion),
    };
  };
  return [
    ceiling("every evidence turn, whole", (q) => q.whole),
    ceiling("the evidence sentence with the best F1", (q) => q.sentence),
  ];
}

const MAX_ANSWER_SENTENCES = 3;

async function measureAnswers(
  principal: Principal,
  set: ConversationSet,
  loaded: { namespaceId: string; turnOf: Map<string, string> }[],
  sample: number,
): Promise<AnswerRow> {
  const perQuestion: {
    category: number;
    present: number;
    f1: number;
    words: number;
    nothing: boolean;
    evidence: boolean;
  }[] = [];
  const violations: string[] = [];
  const answerers = new Set<string>();
  let elapsed = 0;
  for (const [index, conversation] of set.conversations.entries()) {
    for (const [number, question] of conversation.questions.entries()) {
      if (number % sample !== 0) continue;
      const t0 = performance.now();
      const result = await ask(
        principal,
        AskBody.parse({ namespace_id: loaded[index].namespaceId, query: question.text }),
      );
      elapsed += performance.now() - t0;
      answerers.add(result.model);
      const sentences = sentencesOf(result.answer).length;
      const invalid = citedIndices(result.answer).filter((i) => i < 1 || i > result.sources.length);
      const where = `${conversation.id} "${question.text}"`;
      if (sentences > MAX_ANSWER_SENTENCES) violations.push(`${where}: ${sentences} sentences`);
      if (invalid.length) violations.push(`${where}: cites [${invalid.join("], [")}] of ${result.sources.length}`);
      if (result.sources.length > 0 && citedIndices(result.answer).length === 0)
        violations.push(`${where}: cites no source`);
      const answer = withoutCitations(result.answer);
      if (process.env.BENCH_LOCOMO_ANSWERS_LOG)
        fs.appendFileSync(
          process.env.BENCH_LOCOMO_ANSWERS_LOG,
          JSON.stringify({
            category: question.category,
            question: question.text,
            gold: question.answer,
            answer: result.answer,
          }) + "\n",
        );
      perQuestion.push({
        category: question.category,
        present: goldWordsPresent(answer, question.answer),
        f1: locomoF1(answer, question.answer, question.category),
        words: answer.split(/\s+/).filter(Boolean).length,
        nothing: result.sources.length === 0,
        evidence: result.sources.some((s) => question.evidence.includes(loaded[index].turnOf.get(s.memory_id) ?? "")),
      });
    }
  }
  const figures = (category: string, of: typeof perQuestion): AnswerFigures => ({
    category,
    questions: of.length,
    present: mean(of.map((q) => q.present)),
    f1: mean(of.map((q) => q.f1)),
    words: mean(of.map((q) => q.words)),
    nothing: of.filter((q) => q.nothing).length,
    withEvidence: of.filter((q) => q.evidence).length / Math.max(1, of.length),
  });
  return {
    set: set.name,
    form: ANSWER_FORM,
    answerer: [...answerers].join(", "),
    sample,
    categories: Object.entries(CATEGORIES).map(([number, name]) =>
      figures(
        name,
        perQuestion.filter((q) => q.category === Number(number)),
      ),
    ),
    overall: figures("overall", perQuestion),
    violations,
    ms: elapsed / Math.max(1, perQuestion.length),
    ceilings: evidenceCeilings(set, sample),
  };
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
}

/** The `[n]` markers point at sources; they are not words of the answer. */
function withoutCitations(answer: string): string {
  return answer.replace(/\[\d+(?:\s*,\s*\d+)*\]/g, " ");
}

/** LoCoMo's normalization (task_eval/evaluation.py): commas dropped, lower case, punctuation and articles removed. */
function locomoTokens(text: string): string[] {
  const lowered = text.replace(/,/g, "").toLowerCase();
  const unpunctuated = lowered.replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, "");
  return unpunctuated
    .replace(/\b(a|an|the|and)\b/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => stemmer(w));
}

function tokenF1(prediction: string, gold: string): number {
  const predicted = locomoTokens(prediction);
  const expected = locomoTokens(gold);
  const counts = new Map<string, number>();
  for (const t of expected) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of predicted) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      same++;
      counts.set(t, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / expected.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * Token F1 as LoCoMo reports it: multi-hop answers (category 1) are lists, each gold item scored against its
 * best-matching comma-separated part of the answer and averaged; open-domain gold answers (category 3) count
 * up to their first ";" (what follows is the annotators' reasoning).
 */
export function locomoF1(prediction: string, gold: string, category: number): number {
  if (category === 1) {
    const parts = prediction.split(",").map((p) => p.trim());
    return mean(gold.split(",").map((g) => Math.max(...parts.map((p) => tokenF1(p, g.trim())))));
  }
  return tokenF1(prediction, category === 3 ? gold.split(";")[0].trim() : gold);
}

const STOP_WORDS = new Set(
  (
    "a an the and or but of to in on at for with by from as is are was were be been being it its this that these " +
    "those there their they them he him his she her hers i me my we us our you your do does did has have had not " +
    "no so if than then too very can could would should will just about into over after before also"
  ).split(" "),
);

/** The gold answer's content words (lower-cased, stop words and punctuation left out, stemmed) found in the answer. */
export function goldWordsPresent(answer: string, gold: string): number {
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w && !STOP_WORDS.has(w))
      .map((w) => stemmer(w));
  const expected = new Set(words(gold));
  if (expected.size === 0) return 1;
  const got = new Set(words(answer));
  return [...expected].filter((w) => got.has(w)).length / expected.size;
}
