// `node scripts/fetch-datasets.mjs [scifact] [msmarco] [locomo]`: downloads the public benchmark datasets (all
// three without an argument; MS MARCO is a 1 GB download) into BENCH_DATASETS_DIR (default bench/.cache/datasets)
// in the layout `npm run bench` reads. Downloads are kept in its .downloads folder. Needs `unzip` on the PATH.
// What each dataset is and how the MS MARCO subset is made: docs/benchmark-datasets.md.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const datasetsDir = path.resolve(root, process.env.BENCH_DATASETS_DIR || "bench/.cache/datasets");
const downloadsDir = path.join(datasetsDir, ".downloads");
const BEIR = "https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets";
const LOCOMO = "https://raw.githubusercontent.com/snap-research/locomo/main/data/locomo10.json";
const MSMARCO_SUBSET_SIZE = 5_000;

async function download(url, file) {
  if (fs.existsSync(file)) return file;
  console.log(`Downloading ${url}`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written under a temporary name, so an interrupted download is not taken for a complete one next time.
  await fs.promises.writeFile(`${file}.part`, response.body);
  fs.renameSync(`${file}.part`, file);
  return file;
}

function unzipTo(zip, dir) {
  execFileSync("unzip", ["-o", "-q", zip, "-d", dir], { stdio: "inherit" });
}

/** Lines of one file inside a zip, streamed (MS MARCO's corpus is 3 GB unpacked). */
async function* zipEntryLines(zip, entry) {
  const unzip = spawn("unzip", ["-p", zip, entry], { stdio: ["ignore", "pipe", "inherit"] });
  yield* readline.createInterface({ input: unzip.stdout, crlfDelay: Infinity });
}

async function fetchSciFact() {
  const zip = await download(`${BEIR}/scifact.zip`, path.join(downloadsDir, "scifact.zip"));
  fs.rmSync(path.join(datasetsDir, "scifact"), { recursive: true, force: true });
  unzipTo(zip, datasetsDir); // scifact/{corpus.jsonl, queries.jsonl, qrels/test.tsv, qrels/train.tsv}
}

/**
 * The 43 judged TREC-DL-2019 queries of BEIR's MS MARCO test split, every passage judged relevant to them
 * (grades 1–3), and passages judged not relevant to them (grade 0) until there are 5,000.
 */
async function fetchMsMarcoSubset() {
  const zip = await download(`${BEIR}/msmarco.zip`, path.join(downloadsDir, "msmarco.zip"));
  const judgments = [];
  for await (const line of zipEntryLines(zip, "msmarco/qrels/test.tsv")) {
    const [queryId, passageId, grade] = line.trim().split("\t");
    if (queryId && queryId !== "query-id") judgments.push({ queryId, passageId, grade: Number(grade) });
  }
  const relevant = judgments.filter((j) => j.grade > 0);
  const passages = new Set(relevant.map((j) => j.passageId));
  for (const j of judgments) if (j.grade === 0 && passages.size < MSMARCO_SUBSET_SIZE) passages.add(j.passageId);
  const queries = new Set(relevant.map((j) => j.queryId));

  const dir = path.join(datasetsDir, "msmarco-trecdl-subset");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "qrels"), { recursive: true });
  const qrels = relevant.map((j) => `${j.queryId}\t${j.passageId}\t${j.grade}`);
  fs.writeFileSync(path.join(dir, "qrels/test.tsv"), ["query-id\tcorpus-id\tscore", ...qrels].join("\n") + "\n");
  const keep = async (entry, ids, file) => {
    const lines = [];
    for await (const line of zipEntryLines(zip, entry)) if (line && ids.has(JSON.parse(line)._id)) lines.push(line);
    fs.writeFileSync(path.join(dir, file), lines.join("\n") + "\n");
    return lines.length;
  };
  const kept = await keep("msmarco/corpus.jsonl", passages, "corpus.jsonl");
  await keep("msmarco/queries.jsonl", queries, "queries.jsonl");
  console.log(`  msmarco-trecdl-subset: ${kept} passages, ${queries.size} queries, ${relevant.length} judgments`);
}

async function fetchLoCoMo() {
  await download(LOCOMO, path.join(datasetsDir, "locomo", "locomo10.json"));
}

const fetchers = { scifact: fetchSciFact, msmarco: fetchMsMarcoSubset, locomo: fetchLoCoMo };
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(fetchers);
const unknown = wanted.filter((name) => !(name in fetchers));
if (unknown.length) {
  console.error(`Unknown dataset ${unknown.join(", ")}: choose among ${Object.keys(fetchers).join(", ")}.`);
  process.exit(1);
}
try {
  execFileSync("unzip", ["-v"], { stdio: "ignore" });
} catch {
  console.error("`unzip` is needed to unpack the BEIR archives: install it (apt-get install unzip), then run again.");
  process.exit(1);
}
try {
  for (const name of wanted) await fetchers[name]();
  console.log(`Datasets in ${datasetsDir}`);
} catch (error) {
  console.error(`Could not fetch the datasets: ${error.message}`);
  process.exit(1);
}
