"use client";
// The console's one way of submitting: a form's action (or a button's click) runs a server action and the
// form shows its outcome. React's useActionState holds the pending flag and the last outcome, so no
// component keeps busy/error state of its own.
import { startTransition, useActionState, useRef, type FormEvent } from "react";
import type { ActionResult } from "@/lib/console/action";
import type { FieldErrors } from "./ui";

/** A submission refused in the browser before anything was sent: messages by field, perhaps one above them. */
export type FormRefusal = { ok: false; error?: string; fields?: FieldErrors };

export const UNREACHABLE = "The server could not be reached. Try again.";

export const refuse = (fields: FieldErrors, error?: string): FormRefusal => ({ ok: false, error, fields });

/**
 * The message to show once, above or below a form's fields: none when every field at fault already shows its
 * own message (`shown`: the fields the form displays; `namespace_ids.3` is shown by `namespace_ids`). The
 * server names the fields at fault and says the same again, in other words, as the envelope's error: shown
 * both ways the person read one refusal twice.
 */
export function messageAbove(error: string | undefined, fields: FieldErrors, shown: readonly string[]) {
  const atFault = Object.keys(fields);
  if (!error || atFault.length === 0) return error;
  return atFault.every((field) => shown.includes(field.split(".")[0])) ? undefined : error;
}

export interface ActionFormState<T> {
  /** The last submission's message when it failed (the action's envelope `error`). */
  error?: string;
  /** Its messages by field path when fields were at fault. */
  fields: FieldErrors;
  /** What the last successful submission returned. */
  data?: T;
  /**
   * The text fields of the last submission, for a field whose default follows what was last sent. Never a
   * password: what was typed into one stays in the browser's field, not in the page's state.
   */
  values: Record<string, string>;
}

const valuesOf = (payload: unknown): Record<string, string> =>
  payload instanceof FormData
    ? Object.fromEntries(
        [...payload].filter(
          (entry): entry is [string, string] => typeof entry[1] === "string" && !/password/i.test(entry[0]),
        ),
      )
    : {};

/**
 * `submit` gets the form's data (or whatever `run` was given), checks it against the form's schema and
 * calls the server action; on success `onSuccess` runs while the form still shows as pending (a redirect
 * or a sign-in after it does not flash the form back). A thrown error (the network) is UNREACHABLE.
 */
export function useActionForm<T, P = FormData>(
  submit: (payload: P) => Promise<ActionResult<T> | FormRefusal>,
  options: {
    onSuccess?: (data: T, payload: P) => unknown;
    /** What the form shows before any submission (a message the page was opened with). */
    initial?: Pick<ActionFormState<T>, "error" | "data">;
  } = {},
) {
  // Whether the last submission was refused: the form it came from must then stay as the user left it.
  const refused = useRef(false);
  const [state, dispatch, pending] = useActionState<ActionFormState<T>, P>(
    async (_previous, payload) => {
      const values = valuesOf(payload);
      refused.current = true;
      try {
        const result = await submit(payload);
        if (!result.ok) return { error: result.error, fields: result.fields ?? {}, values };
        await options.onSuccess?.(result.data, payload);
        refused.current = false;
        return { fields: {}, data: result.data, values };
      } catch {
        return { error: UNREACHABLE, fields: {}, values };
      }
    },
    { fields: {}, values: {}, ...options.initial },
  );
  return {
    ...state,
    /** The outcome as one object: a new one each submission, so a page can tell which one it dismissed. */
    state,
    pending,
    /** For `<form action>`: React replays a submission made before hydration. */
    action: dispatch,
    /**
     * For the same form's `onResetCapture`. React empties a form once its action ran (and Radix checkboxes
     * follow the form's reset event back to their first state); after a refusal that would wipe what the
     * user typed, or leave fields that no longer match what the page shows. So a refused submission's reset
     * is cancelled, and stopped in the capture phase before it reaches the form's own listeners; a
     * successful one still empties the form. Password fields alone are emptied either way: a refused one is
     * typed again (a wrong or too short password is not worth keeping on screen).
     */
    keepAfterRefusal: (event: FormEvent<HTMLFormElement>) => {
      if (!refused.current) return;
      event.preventDefault();
      event.stopPropagation();
      for (const field of event.currentTarget.querySelectorAll<HTMLInputElement>('input[type="password"]'))
        field.value = "";
    },
    /** For a click handler, which React runs outside a transition. */
    run: (...[payload]: P extends undefined ? [payload?: P] : [payload: P]) =>
      startTransition(() => dispatch(payload as P)),
  };
}
