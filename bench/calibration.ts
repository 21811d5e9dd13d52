// `BENCH_ONLY=calibration npm run bench`: how well recall's published `score` (lib/memory/search/calibration.ts)
// says how likely a match is relevant, on every judged set there is: SciFact and MS MARCO (BEIR qrels) and the
// LoCoMo development conversations (a turn is relevant when it is a question's evidence). Recall runs as the API
// runs it (top_k 10, no min_score); each match it lists is one sample. Prints, per set and over all of them, the
// reliability table (in each band of published scores, the share of matches that were relevant), the expected
// calibration error and the Brier score; then the logistic fit of the same features on these samples, each set
// weighing the same, which is where the constants in lib/memory/search/calibration.ts come from.
import { RecallBody } from "@/lib/memory/common/schemas";
import { recall } from "@/lib/memory/search/recall";
import { CALIBRATION, relevanceFeatures, relevanceOf, type RelevanceFeatures } from "@/lib/memory/search/calibration";
import { searchChunks } from "@/lib/memory/search/search";
import { conversationSets, loadConversation } from "./conversations";
import { loadDataset } from "./lib/beir";
import { benchPrincipal, cachedEmbedder, loadIntoNamespace } from "./quality";
import { db } from "@/lib/db";

/** One match recall listed: what its published score is made of, the score, and whether it was judged relevant. */
export interface CalibrationSample {
  set: string;
  features: RelevanceFeatures;
  published: number;
  relevant: boolean;
}

export interface ReliabilityBand {
  from: number;
  to: number;
  matches: number;
  /** Mean published score of the band's matches. */
  meanScore: number;
  /** Share of the band's matches judged relevant. */
  relevant: number;
}

export interface CalibrationFigures {
  set: string;
  matches: number;
  /** Share of all listed matches judged relevant. */
  baseRate: number;
  /** Expected calibration error over ten bands: |mean score − share relevant|, weighed by the band's matches. */
  ece: number;
  brier: number;
  bands: ReliabilityBand[];
}

export interface CalibrationResult {
  figures: CalibrationFigures[];
  /** The logistic fit on these samples: weights in the order of CALIBRATION.weights, then the intercept. */
  fitted: { weights: number[]; intercept: number };
  /** The fit of CALIBRATION.meaningOnly on the vector leg's matches alone (similarity, intercept). */
  meaningFitted: { weight: number; intercept: number };
  /** How the scores of CALIBRATION.meaningOnly fare on those matches. */
  meaningFigures: CalibrationFigures[];
}

/** A match of the vector leg alone: its similarity and whether it was judged relevant. */
interface MeaningSample {
  set: string;
  similarity: number;
  relevant: boolean;
}

const TOP_K = 10;
const BANDS = 10;

/** The matches recall lists for every judged question, labelled; and those of the vector leg alone. */
async function calibrationSamples(
  datasetsDir: string,
  log: (line: string) => void,
): Promise<{ samples: CalibrationSample[]; meaning: MeaningSample[] }> {
  cachedEmbedder();
  const principal = await benchPrincipal();
  const samples: CalibrationSample[] = [];
  const meaning: MeaningSample[] = [];
  const sample = async (set: string, namespaceId: string, query: string, isRelevant: (memoryId: string) => boolean) => {
    const nearest = await searchChunks({ orgId: principal.orgId, namespaceId, query, topK: TOP_K, mode: "vector" });
    for (const match of nearest)
      meaning.push({ set, similarity: Math.max(0, match.cosine), relevant: isRelevant(match.memoryId) });
    const { matches } = await recall(principal, RecallBody.parse({ namespace_id: namespaceId, query, top_k: TOP_K }));
    for (const match of matches)
      samples.push({
        set,
        features: relevanceFeatures(match),
        published: match.relevance,
        relevant: isRelevant(match.memoryId),
      });
  };
  // TREC DL's graded judgments: 1 is "related, does not answer"; its binary measures count 2 and above.
  const relevantGrade: Record<string, number> = { scifact: 1, "msmarco-trecdl-subset": 2 };
  for (const name of ["scifact", "msmarco-trecdl-subset"]) {
    const dataset = loadDataset(datasetsDir, name);
    const namespace = await loadIntoNamespace(principal, dataset, log);
    const docOf = new Map(
      (
        await (
          await db()
        ).memory.findMany({ where: { namespaceId: namespace.id }, select: { id: true, metadata: true } })
      ).map((m) => [m.id, (m.metadata as { doc_id: string }).doc_id]),
    );
    for (const query of dataset.queries) {
      const qrels = dataset.qrels.get(query.id)!;
      await sample(
        name,
        namespace.id,
        query.text,
        (memoryId) => (qrels.get(docOf.get(memoryId) ?? "") ?? 0) >= relevantGrade[name],
      );
    }
    log(`  ${name}: ${dataset.queries.length} queries`);
  }
  for (const set of conversationSets(datasetsDir)) {
    for (const conversation of set.conversations) {
      const { namespaceId, turnOf } = await loadConversation(principal, conversation, "turns");
      for (const question of conversation.questions) {
        const evidence = new Set(question.evidence);
        await sample(`LoCoMo ${set.name}`, namespaceId, question.text, (memoryId) =>
          evidence.has(turnOf.get(memoryId) ?? ""),
        );
      }
    }
    log(`  LoCoMo ${set.name}: ${set.conversations.length} conversations`);
  }
  return { samples, meaning };
}

/** Reliability of `score` over `samples`: ten equal bands of scores. */
export function reliability(set: string, samples: { score: number; relevant: boolean }[]): CalibrationFigures {
  const bands: ReliabilityBand[] = Array.from({ length: BANDS }, (_, i) => ({
    from: i / BANDS,
    to: (i + 1) / BANDS,
    matches: 0,
    meanScore: 0,
    relevant: 0,
  }));
  let brier = 0;
  for (const { score, relevant } of samples) {
    const band = bands[Math.min(BANDS - 1, Math.floor(score * BANDS))];
    band.matches += 1;
    band.meanScore += score;
    band.relevant += relevant ? 1 : 0;
    brier += (score - (relevant ? 1 : 0)) ** 2;
  }
  let ece = 0;
  for (const band of bands) {
    if (band.matches === 0) continue;
    ece += Math.abs(band.meanScore - band.relevant);
    band.meanScore /= band.matches;
    band.relevant /= band.matches;
  }
  const n = Math.max(1, samples.length);
  return {
    set,
    matches: samples.length,
    baseRate: samples.filter((s) => s.relevant).length / n,
    ece: ece / n,
    brier: brier / n,
    bands,
  };
}

/**
 * Logistic regression by Newton's method (iteratively reweighted least squares) of `relevant` on the features,
 * each sample weighed by `weight` (so that each set counts the same). Returns the weights and the intercept.
 */
export function fitLogistic(
  rows: { x: number[]; relevant: boolean; weight: number }[],
  iterations = 30,
): { weights: number[]; intercept: number } {
  const d = rows[0].x.length + 1;
  let w = new Array<number>(d).fill(0);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const gradient = new Array<number>(d).fill(0);
    const hessian = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (const row of rows) {
      const x = [...row.x, 1];
      const p = 1 / (1 + Math.exp(-x.reduce((z, v, j) => z + v * w[j], 0)));
      for (let j = 0; j < d; j++) {
        gradient[j] += row.weight * (p - (row.relevant ? 1 : 0)) * x[j];
        for (let k = 0; k < d; k++) hessian[j][k] += row.weight * p * (1 - p) * x[j] * x[k];
      }
    }
    for (let j = 0; j < d; j++) hessian[j][j] += 1e-6;
    const step = solve(hessian, gradient);
    w = w.map((v, j) => v - step[j]);
  }
  return { weights: w.slice(0, -1), intercept: w[d - 1] };
}

/** Solves A·x = b by Gaussian elimination with partial pivoting (A is small: a few features). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let i = 0; i < n; i++) {
    let pivot = i;
    for (let k = i + 1; k < n; k++) if (Math.abs(m[k][i]) > Math.abs(m[pivot][i])) pivot = k;
    [m[i], m[pivot]] = [m[pivot], m[i]];
    for (let k = i + 1; k < n; k++) {
      const f = m[k][i] / m[i][i];
      for (let j = i; j <= n; j++) m[k][j] -= f * m[i][j];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = m[i][n];
    for (let j = i + 1; j < n; j++) s -= m[i][j] * x[j];
    x[i] = s / m[i][i];
  }
  return x;
}

export async function measureCalibration(options: {
  datasetsDir: string;
  log: (line: string) => void;
}): Promise<CalibrationResult> {
  const { samples, meaning } = await calibrationSamples(options.datasetsDir, options.log);
  const sets = [...new Set(samples.map((s) => s.set))];
  const figures = [...sets, "all"].map((set) =>
    reliability(
      set,
      samples.filter((s) => set === "all" || s.set === set).map((s) => ({ score: s.published, relevant: s.relevant })),
    ),
  );
  for (const f of figures) {
    options.log(
      `  ${f.set}: ${f.matches} matches, ${(f.baseRate * 100).toFixed(1)}% relevant, ECE ${f.ece.toFixed(3)}, ` +
        `Brier ${f.brier.toFixed(3)}; ` +
        f.bands
          .filter((b) => b.matches > 0)
          .map((b) => `${b.from.toFixed(1)}–${b.to.toFixed(1)}: ${b.relevant.toFixed(2)} (${b.matches})`)
          .join(", "),
    );
  }
  const perSet = new Map(sets.map((set) => [set, samples.filter((s) => s.set === set).length]));
  const fitted = fitLogistic(
    samples.map((s) => ({
      x: CALIBRATION.features.map((name) => s.features[name]),
      relevant: s.relevant,
      weight: samples.length / sets.length / perSet.get(s.set)!,
    })),
  );
  options.log(
    `  logistic fit on these samples (${CALIBRATION.features.join(", ")}, intercept): ` +
      `${fitted.weights.map((w) => w.toFixed(3)).join(", ")}, ${fitted.intercept.toFixed(3)} ` +
      `(in use: ${CALIBRATION.weights.join(", ")}, ${CALIBRATION.intercept})`,
  );
  const meaningFit = fitLogistic(
    meaning.map((s) => ({
      x: [s.similarity],
      relevant: s.relevant,
      weight: meaning.length / sets.length / meaning.filter((m) => m.set === s.set).length,
    })),
  );
  const meaningFitted = { weight: meaningFit.weights[0], intercept: meaningFit.intercept };
  const meaningFigures = [...sets, "all"].map((set) =>
    reliability(
      set,
      meaning
        .filter((s) => set === "all" || s.set === set)
        .map((s) => ({
          score: relevanceOf({ rankScore: 0, coverage: 0, similarity: s.similarity }),
          relevant: s.relevant,
        })),
    ),
  );
  const { meaningOnly } = CALIBRATION;
  options.log(
    `  the vector leg's matches alone (${meaning.length}): fit (similarity, intercept) ` +
      `${meaningFitted.weight.toFixed(3)}, ${meaningFitted.intercept.toFixed(3)} ` +
      `(in use: ${meaningOnly.weight}, ${meaningOnly.intercept}); ECE of the scores in use ` +
      meaningFigures.map((f) => `${f.set} ${f.ece.toFixed(3)}`).join(", "),
  );
  return { figures, fitted, meaningFitted, meaningFigures };
}

/** The report's section (docs/benchmarks.md): the reliability table of each set and of all of them. */
export function calibrationSection(result: CalibrationResult & { commit: string; date: string }): string[] {
  const bandOf = (f: CalibrationFigures, i: number) => {
    const band = f.bands[i];
    return band.matches === 0 ? "–" : `${band.relevant.toFixed(2)} (${band.matches})`;
  };
  const tableRow = (f: CalibrationFigures) =>
    `| ${f.set} | ${f.matches} | ${(f.baseRate * 100).toFixed(1)}% | ${f.ece.toFixed(3)} | ` +
    `${f.brier.toFixed(3)} | ${Array.from({ length: BANDS }, (_, i) => bandOf(f, i)).join(" | ")} |`;
  const bandNames = Array.from(
    { length: BANDS },
    (_, i) => `${(i / BANDS).toFixed(1)}–${((i + 1) / BANDS).toFixed(1)}`,
  );
  return [
    '<a id="what-a-score-means"></a>',
    "## What a score means",
    "",
    `Commit ${result.commit}, ${result.date}. \`BENCH_ONLY=calibration npm run bench\`: every judged question of ` +
      "SciFact, MS MARCO (TREC DL grade 2 or more counts as relevant) and the LoCoMo development conversations " +
      "(a question's evidence turns) asked through recall as the API runs it (top_k 10, no min_score), through " +
      "lib/ on embedded PGlite with the local embedder. Each cell: the share of the matches published with a " +
      "score in that band that were judged relevant (and how many there were). Calibrated means the share is " +
      "close to the band's scores. ECE: expected calibration error over the ten bands; Brier: mean squared " +
      "error of the score against the judgment. How the score is made: " +
      "[decisions.md](decisions.md#what-a-score-means-calibrated-relevance).",
    "",
    `| set | matches | relevant | ECE | Brier | ${bandNames.join(" | ")} |`,
    `|---|---|---|---|---|${"---|".repeat(BANDS)}`,
    ...result.figures.map(tableRow),
    "",
    `A logistic fit on these samples (${CALIBRATION.features.join(", ")}, intercept): ` +
      `${result.fitted.weights.map((w) => w.toFixed(3)).join(", ")}, ${result.fitted.intercept.toFixed(3)}; ` +
      `in use: ${CALIBRATION.weights.join(", ")}, ${CALIBRATION.intercept}.`,
    "",
    "A match sharing no word with the query is scored on its similarity alone (these samples hold almost none), " +
      "by a fit on the top 10 of the vector leg alone for the same questions: " +
      `${result.meaningFitted.weight.toFixed(3)}, ${result.meaningFitted.intercept.toFixed(3)} (similarity, ` +
      `intercept; in use: ${CALIBRATION.meaningOnly.weight}, ${CALIBRATION.meaningOnly.intercept}). ` +
      "The sets disagree far more on what similarity alone means (the local embedder's), so its scores are " +
      "less calibrated per set:",
    "",
    `| set | matches | relevant | ECE | Brier | ${bandNames.join(" | ")} |`,
    `|---|---|---|---|---|${"---|".repeat(BANDS)}`,
    ...result.meaningFigures.map(tableRow),
    "",
  ];
}
