"use client";
// An endpoint's buttons, on its card in the list and on its own page: send a test, enable or disable it,
// rotate its secret (the new one shown once), delete it (after asking). Each says how it went under them.
import { useRouter } from "next/navigation";
import { useState } from "react";
import {
  deleteWebhookAction,
  rotateWebhookSecretAction,
  setWebhookEnabledAction,
  testWebhookAction,
} from "@/lib/console/actions/webhooks";
import type { ActionResult } from "@/lib/console/action";
import { messageAbove, useActionForm } from "./action-form";
import { ConfirmDialog } from "./confirm-dialog";
import { Dialog } from "./dialog";
import { Button, Field, Input, Notice } from "./ui";
import { WebhookSecretDialog } from "./webhook-secret-dialog";

type Succeeded<R> = R extends { ok: true; data: infer T } ? T : never;
/** How the receiver answered a test, as the API's testWebhook operation says it. */
export type WebhookTestResult = Succeeded<Awaited<ReturnType<typeof testWebhookAction>>>;

type Outcome = { kind: "enabled" | "disabled" } | { kind: "test"; result: WebhookTestResult };

const DEFAULT_OVERLAP_HOURS = 24;

export function WebhookActions({
  orgSlug,
  endpoint,
  afterDelete,
}: {
  orgSlug: string;
  endpoint: { id: string; url: string; enabled: boolean };
  /** Where to go once it is deleted (its own page is gone); the list stays where it is. */
  afterDelete?: string;
}) {
  const router = useRouter();
  const [rotating, setRotating] = useState(false);
  const [rotated, setRotated] = useState<{ secret: string; previousExpiresAt: string | null }>();
  const [deleting, setDeleting] = useState(false);

  const form = useActionForm(async (asked: "test" | "enable" | "disable"): Promise<ActionResult<Outcome>> => {
    const target = { webhook_id: endpoint.id };
    if (asked === "test") {
      const result = await testWebhookAction(orgSlug, target);
      return result.ok ? { ok: true, data: { kind: "test", result: result.data } } : result;
    }
    const result = await setWebhookEnabledAction(orgSlug, { ...target, enabled: asked === "enable" });
    router.refresh();
    return result.ok ? { ok: true, data: { kind: result.data.enabled ? "enabled" : "disabled" } } : result;
  });
  const outcome = form.data;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          disabled={form.pending}
          onClick={() => form.run("test")}
          aria-label={`Send a test to ${endpoint.url}`}
        >
          Send test
        </Button>
        {endpoint.enabled ? (
          <Button
            variant="secondary"
            disabled={form.pending}
            onClick={() => form.run("disable")}
            aria-label={`Disable ${endpoint.url}`}
          >
            Disable
          </Button>
        ) : (
          <Button disabled={form.pending} onClick={() => form.run("enable")} aria-label={`Enable ${endpoint.url}`}>
            Enable
          </Button>
        )}
        <Button
          variant="secondary"
          onClick={() => setRotating(true)}
          aria-label={`Rotate the secret of ${endpoint.url}`}
        >
          Rotate secret
        </Button>
        <Button variant="secondary" onClick={() => setDeleting(true)} aria-label={`Delete ${endpoint.url}`}>
          Delete
        </Button>
      </div>
      {form.error && <Notice tone="error">{form.error}</Notice>}
      {!form.error && outcome?.kind === "test" && <TestResult result={outcome.result} />}
      {!form.error && outcome && outcome.kind !== "test" && (
        <Notice tone="success">
          {outcome.kind === "enabled"
            ? "The endpoint is enabled: the deliveries waiting for it go out now."
            : "The endpoint is disabled: its events wait until it is enabled again."}
        </Notice>
      )}

      {rotating && (
        <RotateDialog
          orgSlug={orgSlug}
          endpoint={endpoint}
          onCancel={() => setRotating(false)}
          onRotated={(secret, previousExpiresAt) => {
            setRotating(false);
            setRotated({ secret, previousExpiresAt });
            router.refresh();
          }}
        />
      )}
      {rotated && (
        <WebhookSecretDialog
          title="New signing secret"
          url={endpoint.url}
          secret={rotated.secret}
          previousSecretExpiresAt={rotated.previousExpiresAt}
          onClose={() => setRotated(undefined)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete this endpoint?"
          confirmLabel="Delete endpoint"
          onCancel={() => setDeleting(false)}
          onConfirm={async () => {
            const result = await deleteWebhookAction(orgSlug, { webhook_id: endpoint.id });
            return result.ok ? undefined : result.error;
          }}
          onDone={() => {
            setDeleting(false);
            if (afterDelete) router.push(afterDelete);
            else router.refresh();
          }}
        >
          <p>
            <span className="font-mono text-xs [overflow-wrap:anywhere]">{endpoint.url}</span> receives nothing more:
            its delivery log is deleted and what it had not received yet is never sent. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** Delivered or not, the receiver's status, how long it took, and what went wrong. */
function TestResult({ result }: { result: WebhookTestResult }) {
  const answer = result.response_status === null ? "no answer" : `HTTP ${result.response_status}`;
  return (
    <div data-testid="webhook-test-result">
      <Notice tone={result.delivered ? "success" : "error"}>
        {result.delivered ? "The test was delivered" : "The test was not delivered"}: {answer} in{" "}
        {result.latency_ms.toLocaleString("en-US")} ms.
        {result.error && <span className="block [overflow-wrap:anywhere]">{result.error}</span>}
      </Notice>
    </div>
  );
}

function RotateDialog(props: {
  orgSlug: string;
  endpoint: { id: string; url: string };
  onCancel: () => void;
  onRotated: (secret: string, previousExpiresAt: string | null) => void;
}) {
  const form = useActionForm(
    (data: FormData) => {
      const hours = String(data.get("overlap_hours") ?? "").trim();
      return rotateWebhookSecretAction(props.orgSlug, {
        webhook_id: props.endpoint.id,
        overlap_hours: hours === "" ? Number.NaN : Number(hours),
      });
    },
    {
      onSuccess: (rotated) => props.onRotated(rotated.secret, rotated.endpoint.previous_secret_expires_at),
    },
  );
  return (
    <Dialog title="Rotate the signing secret" onClose={props.onCancel}>
      <form action={form.action} onResetCapture={form.keepAfterRefusal} className="space-y-4" noValidate>
        <p className="text-sm text-slate-700">
          A new secret signs every delivery to{" "}
          <span className="font-mono text-xs [overflow-wrap:anywhere]">{props.endpoint.url}</span> from now on; it is
          shown once.
        </p>
        <Field
          label="Overlap (hours)"
          error={form.fields.overlap_hours}
          hint={
            "How long the old secret keeps signing beside the new one (0 to 168), so your receiver can switch " +
            "without refusing a delivery. 0 ends it now."
          }
        >
          <Input
            name="overlap_hours"
            type="number"
            inputMode="numeric"
            min={0}
            max={168}
            step={1}
            defaultValue={form.values.overlap_hours ?? String(DEFAULT_OVERLAP_HOURS)}
          />
        </Field>
        {messageAbove(form.error, form.fields, ["overlap_hours"]) && <Notice tone="error">{form.error}</Notice>}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={form.pending}>
            Rotate secret
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
