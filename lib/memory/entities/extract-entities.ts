import * as chrono from "chrono-node";
import nlp from "compromise";
import { z } from "zod";
import { scopesContain, type Scopes } from "@/lib/auth/scopes";
import { ENTITY_KINDS, type EntityKind } from "../common/entity-kinds";
import { markedNames } from "./marked-names";
import { partsOfSpeech } from "./pos-tags";
import { RecentlyUsed } from "../common/recently-used";

/**
 * Raised whenever what extractEntities finds changes: memories extracted by an older version are extracted again
 * by the maintenance job (lib/memory/entities/reextract-entities.ts), as a change of embedding model re-embeds.
 */
export const ENTITY_EXTRACTOR_VERSION = "wink-compromise-chrono-5";

export { ENTITY_KINDS, type EntityKind };

export interface ExtractedEntity {
  kind: EntityKind;
  /** As the memory writes it ("Grand Canyon", "Mel"); for a date, the day, month or year it resolves to. */
  name: string;
  /** What mentions of one entity share within a namespace (see entityKey); for a date, its ISO form. */
  key: string;
  /** How many times the memory mentions it. */
  mentions: number;
  /**
   * Found only as a common word opening a sentence ("Max chewed the hose"): a name only where a memory written
   * with it names it elsewhere ("a beagle named Max"); see confirmedEntities.
   */
  tentative: boolean;
}

const DAY = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
const MONTH = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", month: "long", year: "numeric" });

/** Words that end a proper-noun phrase of a kind compromise's lexicon does not know. */
const KIND_BY_LAST_WORD: [RegExp, EntityKind][] = [
  [
    /^(inc|corp|corporation|ltd|llc|company|co|university|college|school|academy|institute|foundation|association|society|club|studio|studios|church|bank|hospital|agency|group|team|band|charity)$/i,
    "organization",
  ],
  [
    /^(canyon|park|lake|river|mountain|mountains|beach|island|islands|bay|valley|street|st|avenue|road|city|county|state|museum|zoo|forest|falls|coast|hill|hills|center|centre|square|bridge)$/i,
    "place",
  ],
  [
    /^(festival|parade|conference|concert|fair|marathon|race|day|week|championship|cup|olympics|summit|expo|party|wedding|ceremony|show|tour)$/i,
    "event",
  ],
];
/** Words before a title that say what it is: "the book Becoming Nicole", "reading Becoming Nicole". */
const WORK_CUE =
  /\b(book|novel|movie|film|song|album|show|series|game|play|podcast|poem|read|reading|watched|watching|listened|listening|to)\s*$/i;
/** Words of a proper-noun phrase that are never part of a name ("I'm" is tagged PROPN). */
const NOT_A_NAME =
  /^(i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|ok|okay|hey|hi|wow|woah|whoa|yay|oof|yum|haha|omg|congrats|wanna|gotta|yes|no|oh|lol|thanks|thank|mon|tue|tues|wed|thu|thur|thurs|fri|sat|january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;

/**
 * The entities a memory names: proper-noun phrases (people, organizations, places, works, events, or other
 * names) and dates, relative ones ("yesterday", "last May") resolved against when the memory happened. The
 * speaker of a conversation turn is one of its entities. Offline and deterministic: the same text, time and
 * speaker always give the same entities. With `datesOnly`, only the dates (as they would be found with the names):
 * the names' tagging is nine tenths of the time (compromise and wink), and a query about dates alone has no use
 * for them. With `orgId` (the organization whose text it is), the tags of its phrases are kept for its next
 * texts (phraseTags).
 */
export function extractEntities(
  text: string,
  context: { occurredAt: Date; speaker?: string | null; datesOnly?: boolean; orgId?: string } = {
    occurredAt: new Date(),
  },
): ExtractedEntity[] {
  const found = new Map<string, ExtractedEntity>();
  const add = (kind: EntityKind, name: string, key: string, tentative = false) => {
    if (!key) return;
    const id = `${kind === "date" ? "date" : "name"}:${key}`;
    const existing = found.get(id);
    if (existing) {
      existing.mentions++;
      // A name is a person's once anything says so ("Tom" the speaker and "Tom" in a sentence).
      if (existing.kind === "other" && kind !== "other") existing.kind = kind;
      if (!tentative) existing.tentative = false;
    } else found.set(id, { kind, name, key, mentions: 1, tentative });
  };
  if (context.speaker && !context.datesOnly && !GENERIC_ROLES.has(context.speaker.toLowerCase()))
    add("person", context.speaker.trim(), entityKey(context.speaker));
  for (const phrase of context.datesOnly ? [] : properNounPhrases(text))
    add(
      kindOf(phrase.name, phrase.before, context.orgId),
      phrase.name,
      entityKey(phrase.name),
      phrase.opensSentence && isCommonWord(phrase.name, context.orgId),
    );
  for (const date of datesIn(text, context.occurredAt)) add("date", date.name, date.key);
  if (NON_LATIN_LETTER.test(text)) {
    for (const phrase of context.datesOnly ? [] : otherScriptNames(text))
      add("other", phrase.name, entityKey(phrase.name), phrase.opensSentence);
    for (const marked of context.datesOnly ? [] : markedNames(text))
      add(marked.kind, marked.name, entityKey(marked.name));
    for (const date of otherScriptDates(text)) add("date", date.name, date.key);
  }
  return [...found.values()];
}

/** A letter of a script other than Latin. */
const NON_LATIN_LETTER = /(?!\p{Script=Latin})\p{L}/u;
/**
 * A capitalized word of two letters or more, or a run of them, in a cased script other than Latin (Greek, Cyrillic,
 * Armenian, Georgian…): the English models above read none of these.
 */
const OTHER_SCRIPT_NAME = /(?<![\p{L}\p{M}\p{N}])\p{Lu}[\p{Ll}\p{M}]+(?:[ -]\p{Lu}[\p{Ll}\p{M}]+)*(?![\p{L}\p{M}])/gu;
/** A year standing alone, or a date written the Chinese and Japanese way (2023年5月14日, 2023年5月). */
const OTHER_SCRIPT_DATE = /(?<!\d)((?:19|20)\d\d)(?:年(?:(\d{1,2})月(?:(\d{1,2})日)?)?)?(?!\d)/gu;

/**
 * The names of text in cased scripts other than Latin, by their capitals alone (kind "other": nothing here tells a
 * person from a place); a word opening a sentence is tentative, as in English. Inflected forms are apart
 * ("Москва", "Москве"). Scripts without capitals (Chinese, Japanese, Korean, Thai) give none here: marked-names.ts
 * reads their names by the honorific or suffix that marks them.
 */
function otherScriptNames(text: string): { name: string; opensSentence: boolean }[] {
  return [...text.matchAll(OTHER_SCRIPT_NAME)]
    .filter((match) => NON_LATIN_LETTER.test(match[0]))
    .map((match) => ({
      name: match[0],
      opensSentence: /(^|[.!?。！？:;]\s*)$/u.test(text.slice(0, match.index).trimEnd()),
    }));
}

/** Dates of text in other scripts that chrono (English) cannot read: a bare year, or 2023年5月(14日). */
function otherScriptDates(text: string): { name: string; key: string }[] {
  return [...text.matchAll(OTHER_SCRIPT_DATE)].flatMap(([, year, month, day]) => {
    if (!month) return [{ name: year, key: year }];
    const when = new Date(Date.UTC(Number(year), Number(month) - 1, day ? Number(day) : 1));
    if (Number.isNaN(when.getTime()) || when.getUTCMonth() !== Number(month) - 1) return [];
    const iso = when.toISOString();
    return day
      ? [{ name: DAY.format(when), key: iso.slice(0, 10) }]
      : [{ name: MONTH.format(when), key: iso.slice(0, 7) }];
  });
}

/**
 * The entities of memories written together, each memory's as extractEntities found them, without the tentative
 * ones that no memory of them names otherwise and that every reader of the memory could read: "Max chewed the
 * hose" names Max beside "a beagle named Max" (its scopes holding the first's), and "Glad you came" names
 * nobody. Only memories written together confirm a name, and only those a reader of the memory may also read, so
 * that no key learns a name from a memory outside its scopes.
 */
export function confirmedEntities(written: { entities: ExtractedEntity[]; scopes: Scopes }[]): ExtractedEntity[][] {
  return written.map(({ entities, scopes }) =>
    entities.filter(
      (entity) =>
        !entity.tentative ||
        written.some(
          (other) =>
            scopesContain(other.scopes, scopes) && other.entities.some((e) => e.key === entity.key && !e.tentative),
        ),
    ),
  );
}

/** The roles of a chat transcript, which are not anybody's name. */
const GENERIC_ROLES = new Set(["user", "assistant", "system", "tool", "speaker"]);

/**
 * How mentions of one entity are told apart from others: lower case, without a possessive ("Mel's"), quotes,
 * punctuation or a leading article, spaces collapsed.
 */
export function entityKey(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/['’]s\b/g, "")
    .replace(/[^\p{L}\p{N}&+]+/gu, " ")
    .trim()
    .replace(/^the /, "");
}

/** The words compromise's lexicon knows (its inflected forms included), read once. */
const LEXICON = new Set(
  Object.keys(
    z.object({ one: z.object({ lexicon: z.record(z.string(), z.unknown()) }) }).parse(nlp.model()).one.lexicon,
  ),
);

/**
 * Whether a word the tagger took for a name only because it opens a sentence is a common word ("Glad you came",
 * "Check this out", "Talk soon"): one word, not an acronym, that compromise's lexicon knows in lower case and
 * reads as no name. A word it does not know ("Okonkwo", "Kigali") stays a name.
 */
function isCommonWord(phrase: string, orgId: string | undefined): boolean {
  if (phrase.includes(" ") || /^[\p{Lu}\p{N}]{2,}$/u.test(phrase)) return false;
  const word = phrase.toLowerCase();
  if (!LEXICON.has(word)) return false;
  const tags = tagsOf(word, orgId);
  return !(tags.properNoun || tags.person || tags.place || tags.organization);
}

/** What compromise's tagger says of a phrase read alone. */
interface PhraseTags {
  organization: boolean;
  place: boolean;
  person: boolean;
  properNoun: boolean;
}

/**
 * compromise's tags of phrases, by organization and phrase: tagging a phrase was half of extractEntities' time
 * (1.8 ms of a SciFact abstract's 3.4), depends on the phrase alone, and a namespace's names recur. Kept per
 * organization, as the lexical leg's word terms are, so that how fast a write answers never tells one organization
 * which names another has written; without an organization, nothing is kept.
 */
const phraseTags = new RecentlyUsed<string, PhraseTags>(20_000);

function tagsOf(phrase: string, orgId: string | undefined): PhraseTags {
  const key = orgId === undefined ? undefined : `${orgId}\0${phrase}`;
  const known = key === undefined ? undefined : phraseTags.get(key);
  if (known) return known;
  const doc = nlp(phrase);
  const tags = {
    organization: doc.has("#Organization"),
    place: doc.has("#Place"),
    person: doc.has("#Person"),
    properNoun: doc.has("#ProperNoun"),
  };
  if (key !== undefined) phraseTags.set(key, tags);
  return tags;
}

/**
 * The proper-noun phrases of the text, by wink's English "lite" model (pos-tags.ts), which tags parts of speech
 * well and fast (0.3 ms a turn on the LoCoMo development conversations) but names no people, places or
 * organizations: compromise's lexicon tells those apart on the phrases found here (kindOf), where running it on
 * the whole text costs ten times as much (docs/entities.md).
 */
function properNounPhrases(text: string): { name: string; before: string; opensSentence: boolean }[] {
  const phrases: { name: string; before: string; opensSentence: boolean }[] = [];
  const { values, tags } = partsOfSpeech(text);
  let words: string[] = [];
  let start = -1;
  const flush = (end: number) => {
    // Leading and trailing words that are no part of a name are dropped ("Hey Jon" → "Jon").
    while (words.length && NOT_A_NAME.test(words[0])) {
      words.shift();
      start++;
    }
    if (words.length)
      phrases.push({
        name: words.join(" "),
        before: values.slice(Math.max(0, start - 3), start).join(" "),
        opensSentence: start === 0 || /^[.!?…]+$/.test(values[start - 1]),
      });
    words = [];
    start = end;
  };
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    // "Habitat for Humanity", "Bank of America": a lower-case "for"/"of" between two names joins them.
    const joins =
      words.length > 0 && /^(of|for|de|the)$/.test(value) && tags[i + 1] === "PROPN" && /^\p{Lu}/u.test(values[i + 1]);
    if ((tags[i] === "PROPN" && /^[\p{Lu}\p{N}]/u.test(value) && !NOT_A_NAME.test(value)) || joins) {
      if (!words.length) start = i;
      words.push(value);
    } else if (words.length) flush(i);
  }
  if (words.length) flush(values.length);
  return phrases.filter((p) => /\p{L}/u.test(p.name));
}

function kindOf(name: string, before: string, orgId: string | undefined): EntityKind {
  const tags = tagsOf(name, orgId);
  if (tags.organization) return "organization";
  if (tags.place) return "place";
  const last = name.split(" ").at(-1) ?? "";
  for (const [pattern, kind] of KIND_BY_LAST_WORD) if (pattern.test(last)) return kind;
  if (WORK_CUE.test(before) && name.includes(" ")) return "work";
  if (tags.person) return "person";
  return "other";
}

export type Season = "spring" | "summer" | "fall" | "winter";
/** The month each season starts in (northern hemisphere; winter is named by the year its December is in). */
export const SEASON_START: Record<Season, number> = { spring: 2, summer: 5, fall: 8, winter: 11 };
const SEASON_PHRASE = /\b(last|this|next|in the|over the)\s+(spring|summer|fall|autumn|winter)\b/gi;
const YEAR_PHRASE = /\b(?:(last|this|next) year|(?:in|since|during|of|back in|until|by) ((?:19|20)\d\d))\b/gi;

/**
 * "last summer" said on 8 May 2023 is the summer of 2022; "this summer", 2023's; "next summer", the next one to
 * start.
 */
function seasonOf(which: string, season: Season, occurredAt: Date): number {
  const year = occurredAt.getUTCFullYear();
  const startThisYear = Date.UTC(year, SEASON_START[season], 1);
  const endThisYear = Date.UTC(year, SEASON_START[season] + 3, 1);
  const now = occurredAt.getTime();
  if (which === "last") return endThisYear <= now ? year : year - 1;
  if (which === "next") return startThisYear > now ? year : year + 1;
  return year;
}

/** Seasons and years, which chrono-node leaves out. */
function seasonsAndYears(text: string, occurredAt: Date): { name: string; key: string }[] {
  const dates: { name: string; key: string }[] = [];
  for (const match of text.matchAll(SEASON_PHRASE)) {
    const season = (match[2].toLowerCase() === "autumn" ? "fall" : match[2].toLowerCase()) as Season;
    const which = match[1].toLowerCase();
    const year = seasonOf(which === "last" || which === "next" ? which : "this", season, occurredAt);
    dates.push({ name: `${season[0].toUpperCase()}${season.slice(1)} ${year}`, key: `${year}-${season}` });
  }
  for (const match of text.matchAll(YEAR_PHRASE)) {
    const shift = { last: -1, this: 0, next: 1 }[match[1]?.toLowerCase() ?? ""] ?? 0;
    const year = match[2] ? Number(match[2]) : occurredAt.getUTCFullYear() + shift;
    dates.push({ name: String(year), key: String(year) });
  }
  return dates;
}

/** Dates the text names, resolved against when it was said; a day, month, season or year, as precise as the text is. */
function datesIn(text: string, occurredAt: Date): { name: string; key: string }[] {
  return [...chronoDates(text, occurredAt), ...seasonsAndYears(text, occurredAt)];
}

function chronoDates(text: string, occurredAt: Date): { name: string; key: string }[] {
  return chrono.parse(text, occurredAt, { forwardDate: false }).flatMap((result) => {
    // "now" is when the memory happened, which its event time already says.
    if (/^(right )?now$/i.test(result.text.trim())) return [];
    const start = result.start;
    const when = start.date();
    // A time of day alone ("at 5 pm") names no date worth linking memories by.
    if (!start.isCertain("day") && !start.isCertain("month") && !start.isCertain("year") && !isRelative(result.text))
      return [];
    const iso = when.toISOString();
    if (start.isCertain("day") || isRelativeDay(result.text))
      return [{ name: DAY.format(when), key: iso.slice(0, 10) }];
    if (start.isCertain("month") || isRelativeMonth(result.text))
      return [{ name: MONTH.format(when), key: iso.slice(0, 7) }];
    return [{ name: String(when.getUTCFullYear()), key: iso.slice(0, 4) }];
  });
}

function isRelative(phrase: string): boolean {
  return isRelativeDay(phrase) || isRelativeMonth(phrase) || /\b(year)\b/i.test(phrase);
}
function isRelativeDay(phrase: string): boolean {
  return /\b(yesterday|today|tonight|tomorrow|days?|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i.test(
    phrase,
  );
}
function isRelativeMonth(phrase: string): boolean {
  return /\b(weeks?|months?)\b/i.test(phrase);
}
