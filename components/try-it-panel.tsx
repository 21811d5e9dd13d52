"use client";
// The namespace page's try-it panel: remember a text, recall a query, ask a question, as the signed-in
// person (lib/console/actions/try-it.ts runs the API's operations), each with its result, the time it took
// and, beside it, the curl that makes the same call with a key: the JSON body is exactly what the action sent.
import Link from "next/link";
import { useState, type FormEvent, type ReactNode } from "react";
import { tryAsk, tryRecall, tryRemember } from "@/lib/console/actions/try-it";
import { curlCommand } from "@/lib/console/curl";
import { useActionForm } from "./action-form";
import { CopyButton } from "./copy-button";
import { SCORE_MEANING } from "./format";
import { Button, Field, Input, Notice, Textarea, type FieldErrors } from "./ui";

interface Props {
  orgSlug: string;
  namespaceId: string;
  /** Where the API is for curl: PUBLIC_URL, or the origin this page was opened at, with /api/v1. */
  apiBase: string;
  /** Why the person may not remember here (the remember operation's own refusal), or null. */
  rememberRefusal: string | null;
}

export function TryItPanel({ orgSlug, namespaceId, apiBase, rememberRefusal }: Props) {
  return (
    <div className="divide-y divide-slate-100">
      <RememberSection orgSlug={orgSlug} namespaceId={namespaceId} apiBase={apiBase} refusal={rememberRefusal} />
      <RecallSection orgSlug={orgSlug} namespaceId={namespaceId} apiBase={apiBase} />
      <AskSection orgSlug={orgSlug} namespaceId={namespaceId} apiBase={apiBase} />
    </div>
  );
}

const CURL_BLOCK =
  "whitespace-pre-wrap rounded-lg bg-slate-900 p-4 text-sm leading-relaxed text-slate-100 [overflow-wrap:anywhere]";

/** One operation: its form and result on the left, its curl on the right (below on a phone). */
function Section({
  title,
  curl,
  children,
}: {
  title: "Remember" | "Recall" | "Ask";
  curl: string;
  children: ReactNode;
}) {
  const id = `try-it-${title.toLowerCase()}`;
  return (
    <section aria-labelledby={id} className="grid min-w-0 gap-4 py-5 first:pt-0 last:pb-0 lg:grid-cols-2">
      <div className="min-w-0 space-y-3">
        <h3 id={id} className="text-sm font-semibold text-slate-800">
          {title}
        </h3>
        {children}
      </div>
      <div className="min-w-0 space-y-2" data-testid={`${id}-curl`}>
        <div className="flex items-center justify-between gap-2">
          <p className="text-xs text-slate-600">
            The same call with curl (set <code>MEMGW_API_KEY</code> to a key granted this namespace):
          </p>
          <CopyButton text={curl} label={`Copy the ${title.toLowerCase()} curl command`} />
        </div>
        {/* Wrapped, not scrolled: the body the person typed stays in view (copying takes the text as is). */}
        <pre className={CURL_BLOCK}>
          <code>{curl}</code>
        </pre>
      </div>
    </section>
  );
}

const submitting = (event: FormEvent, run: () => void) => {
  event.preventDefault();
  run();
};

/** A result's time, as the panel says it. */
const took = (ms: number) => `${ms.toLocaleString("en-US")} ms`;

function RememberSection({
  orgSlug,
  namespaceId,
  apiBase,
  refusal,
}: Omit<Props, "rememberRefusal"> & { refusal: string | null }) {
  const [content, setContent] = useState("");
  const [identity, setIdentity] = useState("");
  // What is typed is sent as typed (the API trims nothing either); an empty identity is no identity.
  const body = { namespace_id: namespaceId, content, ...(identity !== "" && { identity_id: identity }) };
  const form = useActionForm((sent: typeof body) => tryRemember(orgSlug, sent));
  const remembered = form.data;
  return (
    <Section title="Remember" curl={curlCommand(`${apiBase}/remember`, body)}>
      <form onSubmit={(event) => submitting(event, () => form.run(body))} className="space-y-3" noValidate>
        <Field label="Text to remember" error={form.fields.content}>
          <Textarea
            name="content"
            rows={3}
            value={content}
            onChange={(event) => setContent(event.target.value)}
            disabled={refusal !== null}
          />
        </Field>
        <Field label="Identity id (optional)" error={form.fields.identity_id} hint="The user it is about, e.g. dana.">
          <Input
            name="identity_id"
            autoComplete="off"
            value={identity}
            onChange={(event) => setIdentity(event.target.value)}
            disabled={refusal !== null}
          />
        </Field>
        {refusal && <Notice>You cannot remember here: {refusal}</Notice>}
        <Button type="submit" disabled={refusal !== null || form.pending}>
          {form.pending ? "Remembering…" : "Remember"}
        </Button>
      </form>
      <Outcome form={form} fieldNames={["content", "identity_id"]}>
        {remembered && (
          <Notice tone="success">
            Remembered{" "}
            <Link
              href={`/${orgSlug}/namespaces/${namespaceId}/memories/${remembered.memory.id}`}
              className="font-mono text-xs underline"
            >
              {remembered.memory.id}
            </Link>{" "}
            in <span data-testid="try-it-remember-ms">{took(remembered.ms)}</span>.
          </Notice>
        )}
      </Outcome>
    </Section>
  );
}

function RecallSection({ orgSlug, namespaceId, apiBase }: Omit<Props, "rememberRefusal">) {
  const [query, setQuery] = useState("");
  const body = { namespace_id: namespaceId, query };
  const form = useActionForm((sent: typeof body) => tryRecall(orgSlug, sent));
  const result = form.data;
  return (
    <Section title="Recall" curl={curlCommand(`${apiBase}/recall`, body)}>
      <QueryForm
        label="Query"
        value={query}
        onChange={setQuery}
        error={form.fields.query}
        pending={form.pending}
        verb={["Recall", "Recalling…"]}
        onSubmit={() => form.run(body)}
      />
      <Outcome form={form} fieldNames={["query"]}>
        {result && (
          <div className="space-y-2" data-testid="try-it-recall-result">
            <p className="text-sm text-slate-700" role="status">
              {result.matches.length === 1 ? "1 match" : `${result.matches.length} matches`} in{" "}
              <span data-testid="try-it-recall-ms">{took(result.ms)}</span>.
            </p>
            {result.matches.length > 0 && (
              <ol className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm">
                {result.matches.map((match) => (
                  <li key={match.chunk_id} className="flex min-w-0 gap-3 px-3 py-2">
                    <Score value={match.score} />
                    <div className="min-w-0">
                      <p className="break-words text-slate-800">{match.content}</p>
                      <p className="mt-0.5 break-words font-mono text-xs text-slate-500">
                        {match.memory_id}
                        {match.identity_id && ` · ${match.identity_id}`}
                      </p>
                    </div>
                  </li>
                ))}
              </ol>
            )}
          </div>
        )}
      </Outcome>
    </Section>
  );
}

function AskSection({ orgSlug, namespaceId, apiBase }: Omit<Props, "rememberRefusal">) {
  const [query, setQuery] = useState("");
  const body = { namespace_id: namespaceId, query };
  const form = useActionForm((sent: typeof body) => tryAsk(orgSlug, sent));
  const result = form.data;
  return (
    <Section title="Ask" curl={curlCommand(`${apiBase}/ask`, body)}>
      <QueryForm
        label="Question"
        value={query}
        onChange={setQuery}
        error={form.fields.query}
        pending={form.pending}
        verb={["Ask", "Asking…"]}
        onSubmit={() => form.run(body)}
      />
      <Outcome form={form} fieldNames={["query"]}>
        {result && (
          <div className="space-y-2" data-testid="try-it-ask-result">
            <p className="whitespace-pre-line break-words rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-800">
              {result.answer}
            </p>
            <p className="text-xs text-slate-600" role="status">
              Answered by {result.model === "extractive" ? "the built-in answerer" : result.model} in{" "}
              <span data-testid="try-it-ask-ms">{took(result.ms)}</span>
              {result.sources.length === 0
                ? ", from no memory."
                : `, citing ${result.sources.length === 1 ? "1 source" : `${result.sources.length} sources`}:`}
            </p>
            {result.sources.length > 0 && (
              <ol className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm">
                {result.sources.map((source) => (
                  <li key={source.index} className="flex min-w-0 gap-3 px-3 py-2">
                    <span className="shrink-0 font-mono text-xs text-slate-600">[{source.index}]</span>
                    <div className="min-w-0 flex-1">
                      <p className="break-words text-slate-800">{source.content}</p>
                      <p className="mt-0.5 break-words font-mono text-xs text-slate-500">{source.memory_id}</p>
                    </div>
                    <Score value={source.score} />
                  </li>
                ))}
              </ol>
            )}
          </div>
        )}
      </Outcome>
    </Section>
  );
}

function QueryForm(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  pending: boolean;
  verb: [idle: string, busy: string];
  onSubmit: () => void;
}) {
  return (
    <form onSubmit={(event) => submitting(event, props.onSubmit)} className="flex flex-wrap items-end gap-2" noValidate>
      <div className="min-w-48 flex-1">
        <Field label={props.label} error={props.error}>
          <Input autoComplete="off" value={props.value} onChange={(event) => props.onChange(event.target.value)} />
        </Field>
      </div>
      <Button type="submit" disabled={props.pending}>
        {props.pending ? props.verb[1] : props.verb[0]}
      </Button>
    </form>
  );
}

/** A relevance score, 0 to 1, with three decimals (the API's own number). */
function Score({ value }: { value: number }) {
  return (
    <span
      className="h-fit shrink-0 rounded bg-indigo-50 px-1.5 py-0.5 font-mono text-xs text-indigo-800"
      title={SCORE_MEANING}
    >
      <span className="sr-only">score </span>
      {value.toFixed(3)}
    </span>
  );
}

/**
 * A failure above the result, unless the fields under their inputs already say all of it; a message about
 * another part of the body (a namespace not found, a permission refused, the body as a whole) is listed in it.
 */
function Outcome({
  form,
  fieldNames,
  children,
}: {
  form: { error?: string; fields: FieldErrors };
  fieldNames: string[];
  children: ReactNode;
}) {
  if (!form.error) return <>{children}</>;
  const others = Object.entries(form.fields).filter(([name]) => !fieldNames.includes(name));
  const fieldsSayIt = others.length === 0 && Object.keys(form.fields).length > 0;
  if (fieldsSayIt) return null;
  return (
    <Notice tone="error">
      {form.error}
      {others.map(([name, message]) => (
        <span key={name} className="block">
          {name ? `${name}: ` : ""}
          {message}
        </span>
      ))}
    </Notice>
  );
}
