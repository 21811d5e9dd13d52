// Parts of speech by wink-nlp, read as its model was loaded, whatever was read before.
//
// wink-nlp learns every word its model lacks into the model, for good, and its tokenizer then splits text by
// what it has learned: "McDonald's" was "McDonald" and "'s" until some text had it whole, one token after. So
// the names found in a memory depended on what the process had read before, of any organization, and the
// learned words were never let go. Here each text is read against the model as loaded: after it, the words it
// taught are forgotten. Their entries stay, unreachable, at the end of wink's lists, which its packed
// features of unknown words follow by position (so they cannot be cut back), and the instance is made anew
// once those lists have grown by FORGOTTEN_WORDS_MAX.
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";

/**
 * The learned words kept (unreachable) before the instance is made anew: about 100 B each, and 0.1 s to make. SciFact
 * and MS MARCO texts teach 8.5 words each, so it is made anew about every 23,000 texts.
 */
const FORGOTTEN_WORDS_MAX = 200_000;

/** What winkNLP keeps of its words: `hash` (word → index) is what its tokenizer consults; `list` by index. */
interface WordFeature {
  hash: Record<string, number>;
  list: string[];
}

interface Reader {
  nlp: ReturnType<typeof winkNLP>;
  words: WordFeature;
  /** How many entries `words.list` had when the instance was made. */
  loaded: number;
  /** Up to which entry of `words.list` the learned words are forgotten. */
  forgotten: number;
}

function isWordFeature(value: unknown): value is WordFeature {
  if (typeof value !== "object" || value === null || !("hash" in value) || !("list" in value)) return false;
  return typeof value.hash === "object" && value.hash !== null && Array.isArray(value.list);
}

/** The lexeme feature of the core model winkNLP loaded (model.core() gives each call a model of its own). */
function lexemesOf(core: unknown): WordFeature {
  const features = typeof core === "object" && core !== null && "features" in core ? core.features : undefined;
  const lexeme =
    typeof features === "object" && features !== null && "lexeme" in features ? features.lexeme : undefined;
  if (!isWordFeature(lexeme)) throw new Error("wink-eng-lite-web-model: its core model has no lexeme feature.");
  return lexeme;
}

function newReader(): Reader {
  const loadCore = model.core;
  if (typeof loadCore !== "function") throw new Error("wink-eng-lite-web-model: its core model cannot be loaded.");
  let core: unknown;
  const nlp = winkNLP(
    {
      ...model,
      core: () => {
        core = loadCore();
        return core;
      },
    },
    // Sentences and parts of speech only: the default pipe's named entities, negation and sentiment change no
    // token or tag (none of 9,000 SciFact, MS MARCO and LoCoMo texts) and took a fifth of the time.
    ["sbd", "pos"],
  );
  // Read after the instance is made: loading its automata may have added words, which belong to the model.
  const words = lexemesOf(core);
  return { nlp, words, loaded: words.list.length, forgotten: words.list.length };
}

let reader: Reader | undefined;

/**
 * The tokens of `text` as wink-nlp's English lite model splits them, each with its universal part-of-speech tag
 * ("PROPN", "NOUN"…), in order: `{ values, tags }` (equal lengths). The same text gives the same tokens and tags
 * whatever the process read before.
 */
export function partsOfSpeech(text: string): { values: string[]; tags: string[] } {
  reader ??= newReader();
  const { nlp, words } = reader;
  try {
    const tokens = nlp.readDoc(text).tokens();
    return { values: tokens.out(), tags: tokens.out(nlp.its.pos) };
  } finally {
    for (let i = reader.forgotten; i < words.list.length; i++) delete words.hash[words.list[i]];
    reader.forgotten = words.list.length;
    if (words.list.length - reader.loaded > FORGOTTEN_WORDS_MAX) reader = undefined;
  }
}
