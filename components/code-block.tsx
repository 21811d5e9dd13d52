// tabIndex: a block that scrolls sideways must be reachable from the keyboard to be scrolled without a mouse.
export function CodeBlock({ children }: { children: string }) {
  return (
    <pre tabIndex={0} className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm leading-relaxed text-slate-100">
      <code>{children}</code>
    </pre>
  );
}
