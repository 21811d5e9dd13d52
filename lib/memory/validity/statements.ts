// What a short statement is about, read from its words alone (offline, no model): whom it is about (its speaker,
// or a person it names by their relation to the speaker), whether it tells of a one-off event rather than of
// something that holds, and whether it says that something changed. Supersession is only inferred between
// statements about the same person, by one that says something changed ("we moved to Lisbon", "I quit", "from now
// on"), and never of an event that changed nothing ("had a walk today": it does not stop being true).

/** A leading speaker label ("Dana: …", as a transcript or an import writes it) is not part of the statement. */
const SPEAKER_LABEL = /^[\p{L}\p{N} ._'-]{1,40}:\s+/u;

/** People a speaker names by how they relate to them: a statement about one of them is not about the speaker. */
const RELATIONS = new Set([
  "brother",
  "sister",
  "sibling",
  "mother",
  "mom",
  "mum",
  "father",
  "dad",
  "parent",
  "parents",
  "husband",
  "wife",
  "partner",
  "boyfriend",
  "girlfriend",
  "son",
  "daughter",
  "cousin",
  "aunt",
  "uncle",
  "grandmother",
  "grandfather",
  "grandma",
  "grandpa",
  "friend",
  "flatmate",
  "roommate",
  "housemate",
  "neighbour",
  "neighbor",
  "neighbours",
  "neighbors",
  "colleague",
  "coworker",
]);

/** A clause whose subject is the speaker: I, we, and their contractions. */
const FIRST_PERSON_SUBJECT = /\b(i|i'm|i've|i'd|i'll|we|we're|we've|we'd|we'll)\b/;

/** Words that date a one-off event: today, last night, two weeks ago, next month, all week… */
const ONE_OFF_TIME =
  /\b(today|tonight|yesterday|this (morning|afternoon|evening)|all (day|week)|(last|next) (night|week|weekend|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\w+ (days|weeks|months) ago)\b/;

/**
 * Words that say something changed or holds from now on: verbs of change (moved, switched, quit, promoted,
 * adopted, …), and now / no longer / from now on / since / these days / instead.
 */
const CHANGE =
  /\b(now|nowadays|these days|anymore|any more|no longer|from now on|since|instead|new|newly|(?:re)?mov(?:e|ed|ing)|relocat(?:e|ed|ing)|transferr?(?:ed|ing)?|switch(?:ed|ing)?|chang(?:e|ed|ing)|replac(?:e|ed|ing)|swapp?(?:ed|ing)?|quit|quitting|left|leaving|join(?:ed|ing)|start(?:ed|ing)|stopp?(?:ed|ing)|promot(?:e|ed|ion)|upgrad(?:e|ed|ing)|downgrad(?:e|ed|ing)|dropp?(?:ed|ing)|adopt(?:ed|ing)|got|bought|sold|clos(?:e|ed|ing)|open(?:ed|ing)|rais(?:e|ed|ing)|lower(?:ed|ing)|cut|became|become|born|married|divorced|retired|hired|fired|went|turned|took over|stepp?(?:ed|ing) (?:away|down|up)|resign(?:ed|ing)|graduat(?:e|ed|ing)|passed away|ended|finished|gave up|took up|began)\b/;

/**
 * The longest statement inference reads as one: a fact about a person is said in a sentence or two ("We finally
 * moved to Lisbon last weekend!"; the knowledge-update set's longest is 15 words). A longer text is a passage that
 * holds several things, and a change word somewhere in it says nothing of a slot: 10% of 3,000 MS MARCO passages
 * given 100 identities were taken as replacing one another when passages were read as statements.
 */
const STATEMENT_MAX_WORDS = 30;
const STATEMENT_MAX_SENTENCES = 2;

/** Whether a text is short enough to be one statement of a fact (see STATEMENT_MAX_WORDS). */
export function isStatement(text: string): boolean {
  const said = text.replace(SPEAKER_LABEL, "").trim();
  if (said.split(/\s+/).length > STATEMENT_MAX_WORDS) return false;
  // A sentence ends with . ! or ? followed by a space and more text ("3.5 km" and "e.g. this" stay one).
  return said.split(/[.!?]+\s+(?=\S)/).length <= STATEMENT_MAX_SENTENCES;
}

function words(text: string): string {
  return text.replace(SPEAKER_LABEL, "").toLowerCase().replace(/[’]/g, "'");
}

/**
 * Whom a statement is about: `"self"` (its speaker: a clause with I or we, or no other subject named first) or
 * the relation a leading "my brother", "our neighbours'", "the flatmate's" names.
 */
export function statementSubject(text: string): string {
  const said = words(text);
  if (FIRST_PERSON_SUBJECT.test(said)) return "self";
  const lead = /^(?:my|our|the)\s+([a-z]+?)(?:'s|s'|')?\b/.exec(said);
  const noun = lead?.[1];
  if (noun && RELATIONS.has(noun)) return noun.replace(/s$/, "").replace(/^neighbor$/, "neighbour");
  return "self";
}

/** Whether a statement tells of a one-off event (dated today, last night, next month, …). */
export function isOneOffEvent(text: string): boolean {
  return ONE_OFF_TIME.test(words(text));
}

/** Whether a statement says something changed (or holds from now on): see CHANGE. */
export function saysItChanged(text: string): boolean {
  return CHANGE.test(words(text));
}
