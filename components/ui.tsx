"use client";
// Small tailwind pieces shared by the console's forms and pages.
import * as RadixCheckbox from "@radix-ui/react-checkbox";
import Link from "next/link";
import {
  createContext,
  use,
  useId,
  useSyncExternalStore,
  type AriaAttributes,
  type ButtonHTMLAttributes,
  type ComponentProps,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { fieldMessages, issueDetails } from "@/lib/errors";

const noSubscription = () => () => {};

/** False in the server's HTML, true once React owns the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export function Button({
  variant = "primary",
  className = "",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: "primary" | "secondary" | "danger" }) {
  const styles = {
    primary: "bg-indigo-600 text-white hover:bg-indigo-700 disabled:bg-indigo-300",
    secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-400",
    danger: "bg-rose-600 text-white hover:bg-rose-700 disabled:bg-rose-300",
  }[variant];
  // A click handler does nothing until hydration; a button that looks live but ignores the click is worse
  // than one that is briefly disabled. Submit buttons need no guard: React replays early form submissions.
  const hydrated = useHydrated();
  const disabled = props.disabled || (props.onClick !== undefined && !hydrated);
  return (
    <button
      className={`rounded-md px-4 py-2 text-sm font-medium shadow-sm transition ${styles} ${className}`}
      {...props}
      disabled={disabled}
    />
  );
}

/** What a Field tells the control inside it: whether it is at fault, and the id of the line that says why. */
const FieldContext = createContext<{ invalid: boolean; describedBy?: string }>({ invalid: false });

/**
 * The aria attributes of a control inside a Field: `aria-invalid` while the field has an error, and
 * `aria-describedby` naming the error or hint under it (after any the control names itself).
 */
function useFieldAria(own: AriaAttributes): AriaAttributes {
  const field = use(FieldContext);
  const describedBy = [own["aria-describedby"], field.describedBy].filter(Boolean).join(" ");
  return {
    "aria-invalid": own["aria-invalid"] ?? (field.invalid || undefined),
    "aria-describedby": describedBy || undefined,
  };
}

export function Field({
  label,
  error,
  hint,
  srOnlyLabel = false,
  children,
}: {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** The label for assistive technology only, where the control's placeholder and neighbours say it on screen. */
  srOnlyLabel?: boolean;
  children: ReactNode;
}) {
  const messageId = `${useId()}-message`;
  const described = Boolean(error || hint);
  return (
    <div className="text-sm">
      <label className="block">
        <span className={srOnlyLabel ? "sr-only" : "font-medium text-slate-700"}>{label}</span>
        <FieldContext value={{ invalid: Boolean(error), describedBy: described ? messageId : undefined }}>
          <div className={srOnlyLabel ? undefined : "mt-1"}>{children}</div>
        </FieldContext>
      </label>
      {hint && !error && (
        <p id={messageId} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={messageId} className="mt-1 text-xs text-rose-700" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

const CONTROL =
  "rounded-md border border-slate-300 bg-white text-sm shadow-sm focus:border-indigo-500 focus:outline-none " +
  "focus:ring-1 focus:ring-indigo-500 disabled:bg-slate-50 disabled:text-slate-500 aria-[invalid=true]:border-rose-500";

export function Input({ className = "", ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={`w-full px-3 py-2 ${CONTROL} ${className}`} {...props} {...useFieldAria(props)} />;
}

export function Textarea({ className = "", ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={`w-full px-3 py-2 ${CONTROL} ${className}`} {...props} {...useFieldAria(props)} />;
}

/**
 * The console's select: the browser's own, styled like the inputs. A native select submits with its form
 * before hydration (the GET filter forms), keeps optgroups, and is the phone's own picker.
 * `fit` sizes it to its options (in a row of fields), `compact` also fits it in a table row or the sidebar.
 */
export function Select({
  layout = "block",
  className = "",
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { layout?: "block" | "fit" | "compact" }) {
  const size = { block: "w-full px-3 py-2", fit: "px-3 py-2", compact: "px-2 py-1" }[layout];
  return <select className={`${size} ${CONTROL} ${className}`} {...props} {...useFieldAria(props)} />;
}

/** A Radix checkbox (a button with role checkbox); inside a form it submits `name` like a native one. */
export function Checkbox({ className = "", ...props }: ComponentProps<typeof RadixCheckbox.Root>) {
  return (
    <RadixCheckbox.Root
      className={
        "flex size-4 shrink-0 items-center justify-center rounded border border-slate-400 bg-white " +
        "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-1 " +
        "disabled:cursor-not-allowed disabled:opacity-50 " +
        "data-[state=checked]:border-indigo-600 data-[state=checked]:bg-indigo-600 " +
        className
      }
      {...props}
    >
      <RadixCheckbox.Indicator className="text-white">
        <svg viewBox="0 0 12 12" className="size-3" aria-hidden="true">
          <path d="M2.5 6.5 5 9l4.5-5.5" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </RadixCheckbox.Indicator>
    </RadixCheckbox.Root>
  );
}

export function Notice({ tone = "info", children }: { tone?: "info" | "error" | "success"; children: ReactNode }) {
  const styles = {
    info: "border-sky-200 bg-sky-50 text-sky-900",
    error: "border-rose-200 bg-rose-50 text-rose-900",
    success: "border-emerald-200 bg-emerald-50 text-emerald-900",
  }[tone];
  return (
    <div className={`rounded-md border px-4 py-3 text-sm ${styles}`} role={tone === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

/**
 * A bordered table that scrolls sideways on narrow screens; its rows are the children. `stacked`: below the
 * md breakpoint each row is a card of labelled lines instead (cells name their column in `data-label`; see
 * globals.css), so nothing, its buttons least of all, is out of sight.
 */
export function Table({ columns, children, stacked }: { columns: string[]; children: ReactNode; stacked?: boolean }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full text-left text-sm" data-stacked={stacked || undefined}>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            {columns.map((heading, i) => (
              <th key={i} className="px-4 py-2 font-medium">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

export function Card({
  title,
  description,
  children,
  actions,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-100 px-5 py-4">
        <div>
          <h2 className="text-base font-semibold">{title}</h2>
          {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
        </div>
        {actions}
      </header>
      <div className="px-5 py-4">{children}</div>
    </section>
  );
}

/** Field errors of a failed action or zod parse, by field path. */
export type FieldErrors = Record<string, string>;

export function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): FieldErrors {
  return fieldMessages(issueDetails(issues));
}

/** A page's title, what it is for, and its main actions. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <h1 className="break-words text-2xl font-semibold">{title}</h1>
        {description && <p className="mt-1 text-sm text-slate-600">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** What a list shows when it has nothing yet: what the thing is and the first step to take. */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
      <h2 className="text-base font-semibold text-slate-800">{title}</h2>
      <div className="mx-auto mt-2 max-w-prose text-sm text-slate-600">{children}</div>
      {action && <div className="mt-4 flex justify-center">{action}</div>}
    </div>
  );
}

/**
 * Previous / next links of a paginated list. The hrefs keep the page's other query parameters (its
 * filters); a missing href is a disabled end. A `keyset` list only pages forward (a cursor): its way back
 * is to the newest page, not the previous one.
 */
export function Pager({
  previous,
  next,
  summary,
  keyset = false,
  labels = keyset ? ["← Newest", "Older →"] : ["Previous", "Next"],
}: {
  previous?: string;
  next?: string;
  summary?: ReactNode;
  keyset?: boolean;
  /** The two links' words, when the pages run in another order than newest first. */
  labels?: [string, string];
}) {
  const link = (href: string | undefined, label: string, rel: string | undefined) =>
    href ? (
      <Link href={href} rel={rel} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50">
        {label}
      </Link>
    ) : (
      <span aria-disabled="true" className="rounded-md border border-slate-200 px-3 py-1.5 text-slate-500">
        {label}
      </span>
    );
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="text-slate-600">{summary}</span>
      <span className="flex gap-2">
        {link(previous, labels[0], keyset ? undefined : "prev")}
        {link(next, labels[1], "next")}
      </span>
    </nav>
  );
}
