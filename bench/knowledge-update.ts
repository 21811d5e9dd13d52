// Facts that change (docs/benchmark-datasets.md, knowledge-update): for each case, in a namespace of its own and
// under an identity for the person, the earlier statement, four unrelated statements said between the two dates,
// the later statement, and one said afterwards that is close to the question but does not answer it, each as
// "Person: statement" with its day. Then, through the same lib/ functions as the API:
// - now@1: recall of the question about now (the identity's, top 5) puts the later statement first, the earlier
//   one below it or absent;
// - then@1: recall of the question about the past (it names the year) puts the earlier statement first;
// - ask_now: ask's answer to the question about now holds the later value and not the earlier one (unless the
//   later statement itself names it);
// - ask_then: ask's answer to the question about the past holds the earlier value.
import fs from "node:fs";
import path from "node:path";
import { ask } from "@/lib/memory/answer/ask";
import { AskBody, RecallBody } from "@/lib/memory/common/schemas";
import { recall } from "@/lib/memory/search/recall";
import { remember } from "@/lib/memory/write/remember";
import { createNamespace } from "@/lib/namespaces/namespaces";
import { benchPrincipal } from "./quality";

const FILE = "knowledge-update-dev/cases.json";
const DAY_MS = 86_400_000;

interface Statement {
  content: string;
  occurred_at: string;
}

export interface KnowledgeUpdateCase {
  person: string;
  earlier: Statement;
  later: Statement;
  afterwards: { content: string; days_after_later: number };
  question_now: string;
  question_then: string;
  earlier_value: string;
  later_value: string;
}

export interface KnowledgeUpdateSet {
  fillers: string[];
  cases: KnowledgeUpdateCase[];
}

export interface KnowledgeUpdateCaseResult {
  person: string;
  nowAt1: boolean;
  thenAt1: boolean;
  askNow: boolean;
  askThen: boolean;
  answerNow: string;
  answerThen: string;
}

export interface KnowledgeUpdateResult {
  cases: number;
  nowAt1: number;
  thenAt1: number;
  askNow: number;
  askThen: number;
  perCase: KnowledgeUpdateCaseResult[];
}

/** The repository's copy of the set (written for this project, free to use), when the datasets directory has none. */
const BUNDLED = path.join(import.meta.dirname, "datasets", FILE);

/** The knowledge-update cases: the datasets directory's, or the repository's copy. */
export function knowledgeUpdateSet(datasetsDir: string): KnowledgeUpdateSet {
  const own = path.join(datasetsDir, FILE);
  const file = fs.existsSync(own) ? own : BUNDLED;
  return JSON.parse(fs.readFileSync(file, "utf8")) as KnowledgeUpdateSet;
}

/** The case's statements in the order they are remembered, each with its day (the fillers spread between). */
function statementsOf(set: KnowledgeUpdateSet, c: KnowledgeUpdateCase): Statement[] {
  const from = Date.parse(c.earlier.occurred_at);
  const to = Date.parse(c.later.occurred_at);
  const fillers = set.fillers.map((content, i) => ({
    content,
    occurred_at: new Date(from + ((to - from) * (i + 1)) / (set.fillers.length + 1)).toISOString(),
  }));
  const afterwards = {
    content: c.afterwards.content,
    occurred_at: new Date(to + c.afterwards.days_after_later * DAY_MS).toISOString(),
  };
  return [c.earlier, ...fillers, c.later, afterwards];
}

const holds = (text: string, value: string) => text.toLowerCase().includes(value.toLowerCase());

/** Measures every case; `log` gets one line per case and the totals. */
export async function measureKnowledgeUpdate(options: {
  datasetsDir: string;
  log: (line: string) => void;
}): Promise<KnowledgeUpdateResult> {
  const set = knowledgeUpdateSet(options.datasetsDir);
  const principal = await benchPrincipal();
  const perCase: KnowledgeUpdateCaseResult[] = [];
  for (const [index, c] of set.cases.entries()) {
    const namespace = await createNamespace(principal, { name: `bench-knowledge-update-${index}` });
    const target = { namespace_id: namespace.id };
    const identity = c.person.toLowerCase();
    const ids: string[] = [];
    for (const statement of statementsOf(set, c)) {
      const { memories } = await remember(
        principal,
        target,
        [{ content: `${c.person}: ${statement.content}`, identity_id: identity, occurred_at: statement.occurred_at }],
        {},
        { allowDuplicate: true },
      );
      ids.push(memories[0].id);
    }
    const earlierId = ids[0];
    const laterId = ids[ids.length - 2];
    const recallIds = async (query: string) => {
      const body = RecallBody.parse({ ...target, query, identity_id: identity, top_k: 5 });
      return (await recall(principal, body, {})).matches.map((match) => match.memoryId);
    };
    const now = await recallIds(c.question_now);
    const then = await recallIds(c.question_then);
    const nowAt1 = now[0] === laterId && (!now.includes(earlierId) || now.indexOf(earlierId) > 0);
    const thenAt1 = then[0] === earlierId;
    const answer = async (query: string) =>
      (await ask(principal, AskBody.parse({ ...target, query, identity_id: identity }), {})).answer;
    const answerNow = await answer(c.question_now);
    const answerThen = await answer(c.question_then);
    const laterNamesEarlier = holds(c.later.content, c.earlier_value);
    const askNow = holds(answerNow, c.later_value) && (laterNamesEarlier || !holds(answerNow, c.earlier_value));
    const askThen = holds(answerThen, c.earlier_value);
    perCase.push({ person: c.person, nowAt1, thenAt1, askNow, askThen, answerNow, answerThen });
    options.log(
      `  ${c.person}: now@1 ${nowAt1 ? "yes" : "no"}, then@1 ${thenAt1 ? "yes" : "no"}, ` +
        `ask_now ${askNow ? "yes" : "no"} (${JSON.stringify(answerNow.slice(0, 80))}), ` +
        `ask_then ${askThen ? "yes" : "no"}`,
    );
  }
  const share = (pick: (r: KnowledgeUpdateCaseResult) => boolean) =>
    Math.round((perCase.filter(pick).length / perCase.length) * 1000) / 1000;
  const result = {
    cases: perCase.length,
    nowAt1: share((r) => r.nowAt1),
    thenAt1: share((r) => r.thenAt1),
    askNow: share((r) => r.askNow),
    askThen: share((r) => r.askThen),
    perCase,
  };
  options.log(
    `  ${result.cases} cases: now@1 ${result.nowAt1}, then@1 ${result.thenAt1}, ` +
      `ask_now ${result.askNow}, ask_then ${result.askThen}`,
  );
  return result;
}

/** The figures before validity (issue 52), measured by this script at commit 1552113. */
const BEFORE_VALIDITY = { commit: "1552113", nowAt1: 0.1, thenAt1: 0.85, askNow: 0.1, askThen: 0.45 };

/** docs/benchmarks.md's section on facts that change. */
export function knowledgeUpdateSection(result: KnowledgeUpdateResult & { commit?: string; date?: string }): string[] {
  const row = (label: string, r: { nowAt1: number; thenAt1: number; askNow: number; askThen: number }) =>
    `| ${label} | ${[r.nowAt1, r.thenAt1, r.askNow, r.askThen].map((v) => v.toFixed(2)).join(" | ")} |`;
  const failing = result.perCase.filter((c) => !(c.nowAt1 && c.thenAt1 && c.askNow && c.askThen));
  return [
    "## Facts that change (knowledge-update dev)",
    "",
    `${result.cases} cases, offline, no chat model (\`BENCH_ONLY=knowledge-update npm run bench\`; the set ` +
      "and how it is measured: [benchmark-datasets.md](benchmark-datasets.md)). Each case: an earlier statement, " +
      "four unrelated ones, the later statement that replaces it and one said afterwards that is close to the " +
      "question but does not " +
      "answer it, under one identity; then recall (top 5) and ask, about now and about a past year.",
    "",
    "| | now@1 | then@1 | ask_now | ask_then |",
    "|---|---|---|---|---|",
    row(`before validity (commit ${BEFORE_VALIDITY.commit})`, BEFORE_VALIDITY),
    row(`commit ${result.commit ?? "this run"}`, result),
    "",
    ...(failing.length > 0 ? [`Cases not answered in full: ${failing.map((c) => c.person).join(", ")}.`, ""] : []),
  ];
}
