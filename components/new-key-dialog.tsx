"use client";
import { useState } from "react";
import { Dialog } from "./dialog";
import { Button } from "./ui";

/** A new key's secret, shown this once: it closes only when the user says they stored it. */
export function NewKeyDialog({ name, secret, onClose }: { name: string; secret: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <Dialog title={`Your new key “${name}”`}>
      <p className="text-sm text-slate-700">
        Copy it now and store it somewhere safe. <strong>You will not see it again.</strong>
      </p>
      <div className="mt-3 flex items-center gap-2">
        <code
          data-testid="new-key-secret"
          className="flex-1 break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-sm"
        >
          {secret}
        </code>
        <Button variant="secondary" onClick={() => navigator.clipboard?.writeText(secret).then(() => setCopied(true))}>
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <div className="mt-5 text-right">
        <Button onClick={onClose}>I have stored it</Button>
      </div>
    </Dialog>
  );
}
