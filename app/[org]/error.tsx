"use client";
// A console page that failed to load: the header stays, the page offers to try again.
import { Button, Notice } from "@/components/ui";

export default function ConsoleError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div className="max-w-xl space-y-4">
      <h1 className="text-xl font-semibold">This page could not be loaded</h1>
      <Notice tone="error">Something went wrong on our side. The details are in the server log.</Notice>
      <Button onClick={reset}>Try again</Button>
    </div>
  );
}
