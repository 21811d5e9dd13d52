"use client";
import { useEffect } from "react";

/**
 * Marks the page `<html data-hydrated>` once React owns it. Until then the console's click-handled buttons
 * are disabled (components/ui.tsx) and change colour when it takes over: the browser tests' accessibility
 * check (e2e/axe.ts) waits for the mark, so that it judges the colours a person sees.
 */
export function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}
