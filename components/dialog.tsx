"use client";
// The console's one dialog, on Radix UI: focus moves in and stays in, Escape and aria wiring come with it.
import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

/**
 * An open modal dialog named by its title; render it while it should be open. `onClose` is what Escape
 * and a click outside do; without one, only the dialog's own buttons close it (a secret shown once must
 * not vanish on a stray click).
 */
export function Dialog({
  title,
  onClose,
  wide = false,
  children,
}: {
  title: string;
  onClose?: () => void;
  /** A dialog of many fields side by side (a key's access): wider, so that it fits a laptop's height. */
  wide?: boolean;
  children: ReactNode;
}) {
  const keepOpen = (event: Event) => {
    if (!onClose) event.preventDefault();
  };
  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose?.()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-10 flex items-center justify-center bg-slate-900/40 p-4">
          <RadixDialog.Content
            aria-describedby={undefined}
            onEscapeKeyDown={keepOpen}
            onInteractOutside={keepOpen}
            className={
              "max-h-full w-full overflow-y-auto rounded-lg bg-white shadow-xl " +
              (wide ? "max-w-2xl p-5" : "max-w-lg p-6")
            }
          >
            <RadixDialog.Title className="break-words text-lg font-semibold">{title}</RadixDialog.Title>
            <div className="mt-3">{children}</div>
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
