"use client";
// An endpoint's signing secret, shown this once (after adding the endpoint or rotating its secret), with how a
// receiver verifies deliveries with it. It closes only when the person says they stored it.
import { CodeBlock } from "./code-block";
import { CopyButton } from "./copy-button";
import { DateTime } from "./date-time";
import { Dialog } from "./dialog";
import { Button } from "./ui";

const VERIFY = `import { Webhook } from "standardwebhooks";

const webhook = new Webhook(secret);
// rawBody: the body as received; headers: its
// webhook-id, webhook-timestamp and -signature
const event = webhook.verify(rawBody, headers);`;

export function WebhookSecretDialog({
  title,
  url,
  secret,
  previousSecretExpiresAt,
  onClose,
}: {
  title: string;
  url: string;
  secret: string;
  /** After a rotation with an overlap: until then the old secret signs beside the new one. */
  previousSecretExpiresAt?: string | null;
  onClose: () => void;
}) {
  return (
    <Dialog title={title}>
      <div className="space-y-4 text-sm text-slate-700">
        <p>
          The signing secret of <span className="font-mono text-xs [overflow-wrap:anywhere]">{url}</span>. Copy it now
          and store it with your receiver. <strong>You will not see it again.</strong>
        </p>
        <div className="flex items-center gap-2">
          <code
            data-testid="webhook-secret"
            className="min-w-0 flex-1 break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-sm"
          >
            {secret}
          </code>
          <CopyButton text={secret} label="Copy the signing secret" />
        </div>
        {previousSecretExpiresAt && (
          <p>
            Until <DateTime value={previousSecretExpiresAt} />, every delivery is signed with both the previous and this
            secret: switch your receiver to it before then.
          </p>
        )}
        <div className="space-y-2">
          <p>
            Deliveries follow <strong>Standard Webhooks</strong>: check each one&apos;s signature before trusting it,
            for example with the <code className="font-mono text-xs">standardwebhooks</code> package (npm, PyPI and
            others):
          </p>
          <CodeBlock>{VERIFY}</CodeBlock>
          <p className="text-xs text-slate-600">
            <code className="font-mono">verify</code> throws on a bad signature or a timestamp too old. Deduplicate on
            the <code className="font-mono">webhook-id</code> header: a delivery may come more than once.
          </p>
        </div>
      </div>
      <div className="mt-5 text-right">
        <Button onClick={onClose}>I have stored it</Button>
      </div>
    </Dialog>
  );
}
