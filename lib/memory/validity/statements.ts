// What a short statement is about, read from its words alone (offline, no model): whom it is about (its speaker,
// or a person it names by their relation to the speaker) and whether it tells of a one-off event rather than of
// something that holds. Supersession is only inferred between statements about the same person, and an event
// ("had a walk today") is not a fact a later statement replaces unless the two are very alike.

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
