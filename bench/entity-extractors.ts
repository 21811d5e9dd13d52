// `BENCH_ONLY=entities npm run bench`: how the candidate offline extractors of entities compare on the LoCoMo
// development conversations (the measurement behind docs/entities.md). In-process, no database: each extractor
// reads every turn, then every question; a question is "linked" when one of its evidence turns shares an entity
// with it that is not one of the conversation's two speakers (who are named in nearly every question).
import { performance } from "node:perf_hooks";
import nlp from "compromise";
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";
import { confirmedEntities, entityKey, extractEntities } from "@/lib/memory/entities/extract-entities";
import { conversationSets } from "./conversations";

export interface ExtractorRow {
  extractor: string;
  turns: number;
  msPerTurn: number;
  /** Names (no dates) per turn; here and below, the conversation's speakers are left out. */
  entitiesPerTurn: number;
  /** Distinct keys, summed over the conversations. */
  distinctEntities: number;
  questions: number;
  /** Questions naming an entity other than the speakers. */
  questionsWithEntity: number;
  /** Questions whose evidence turn shares a non-speaker entity with the question. */
  questionsLinked: number;
}

type Extractor = (text: string, context: { occurredAt: Date; speaker?: string }) => string[];

const wink = winkNLP(model);
const its = wink.its;

/** Runs of consecutive proper nouns, as wink's part-of-speech tagger finds them. */
const winkRuns: Extractor = (text) => {
  const runs: string[] = [];
  const run: string[] = [];
  wink
    .readDoc(text)
    .tokens()
    .each((token: { out: (what: unknown) => string }) => {
      if (token.out(its.pos) === "PROPN") run.push(token.out(its.value));
      else if (run.length) runs.push(run.splice(0).join(" "));
    });
  if (run.length) runs.push(run.join(" "));
  return runs;
};

const compromisePeoplePlacesOrganizations: Extractor = (text) => {
  const doc = nlp(text);
  return [...doc.people().out("array"), ...doc.places().out("array"), ...doc.organizations().out("array")] as string[];
};

const compromiseProperNouns: Extractor = (text) => nlp(text).match("#ProperNoun+").out("array") as string[];

/** The shipped extractor's names, each turn as a write of its own (its dates are left out, as the others find none). */
const shipped: Extractor = (text, context) =>
  confirmedEntities([{ entities: extractEntities(text, context), scopes: {} }])[0]
    .filter((e) => e.kind !== "date")
    .map((e) => e.name);

export const EXTRACTORS: [string, Extractor][] = [
  ["wink-nlp proper-noun runs", winkRuns],
  ["compromise people/places/organizations", compromisePeoplePlacesOrganizations],
  ["compromise #ProperNoun", compromiseProperNouns],
  ["shipped (wink runs + compromise lexicon + chrono dates)", shipped],
];

const TIMED_PASSES = 2;

const keysOf = (names: string[]) => new Set(names.map(entityKey).filter((key) => key.length > 0));

export function measureEntityExtractors(options: { datasetsDir: string; log: (line: string) => void }): ExtractorRow[] {
  const [dev] = conversationSets(options.datasetsDir);
  const rows: ExtractorRow[] = [];
  for (const [name, extract] of EXTRACTORS) {
    const row: ExtractorRow = {
      extractor: name,
      turns: 0,
      msPerTurn: 0,
      entitiesPerTurn: 0,
      distinctEntities: 0,
      questions: 0,
      questionsWithEntity: 0,
      questionsLinked: 0,
    };
    // Compiled and warmed before it is timed: the first extractor measured would pay for it otherwise.
    for (const turn of dev.conversations[0].sessions.flatMap((s) => s.turns).slice(0, 100))
      extract(turn.text, { occurredAt: dev.conversations[0].sessions[0].occurredAt, speaker: turn.speaker });
    // The fastest of TIMED_PASSES passes over every turn: other processes on the machine slow single passes.
    const allTurns = dev.conversations.flatMap((c) =>
      c.sessions.flatMap((session) => session.turns.map((turn) => ({ turn, occurredAt: session.occurredAt }))),
    );
    let ms = Infinity;
    for (let pass = 0; pass < TIMED_PASSES; pass += 1) {
      const started = performance.now();
      for (const { turn, occurredAt } of allTurns) extract(turn.text, { occurredAt, speaker: turn.speaker });
      ms = Math.min(ms, performance.now() - started);
    }
    let mentions = 0;
    for (const conversation of dev.conversations) {
      const speakers = new Set(conversation.sessions.flatMap((s) => s.turns.map((t) => entityKey(t.speaker))));
      // A speaker's short form ("Mel" for "Melanie") is the speaker too.
      const isSpeaker = (key: string) => [...speakers].some((s) => s === key || (key.length >= 3 && s.startsWith(key)));
      const turnKeys = new Map<string, Set<string>>();
      const distinct = new Set<string>();
      for (const session of conversation.sessions) {
        for (const turn of session.turns) {
          const names = extract(turn.text, { occurredAt: session.occurredAt, speaker: turn.speaker });
          const keys = new Set([...keysOf(names)].filter((key) => !isSpeaker(key)));
          turnKeys.set(turn.diaId, keys);
          for (const key of keys) distinct.add(key);
          mentions += keys.size;
          row.turns += 1;
        }
      }
      row.distinctEntities += distinct.size;
      const lastSession = conversation.sessions.at(-1)!.occurredAt;
      for (const question of conversation.questions) {
        const named = [...keysOf(extract(question.text, { occurredAt: lastSession }))].filter((key) => !isSpeaker(key));
        row.questions += 1;
        if (named.length > 0) row.questionsWithEntity += 1;
        if (question.evidence.some((id) => named.some((key) => turnKeys.get(id)?.has(key)))) row.questionsLinked += 1;
      }
    }
    row.msPerTurn = Number((ms / row.turns).toFixed(3));
    row.entitiesPerTurn = Number((mentions / row.turns).toFixed(3));
    options.log(
      `  ${name}: ${row.msPerTurn} ms/turn, ${row.entitiesPerTurn} entities/turn, ${row.distinctEntities} distinct, ` +
        `questions with an entity ${row.questionsWithEntity}/${row.questions}, ` +
        `linked to their evidence ${row.questionsLinked}/${row.questions}`,
    );
    rows.push(row);
  }
  return rows;
}
