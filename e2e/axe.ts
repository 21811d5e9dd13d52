// The accessibility check of a console page: axe-core's rules (WCAG 2.1 A and AA), printed per page; a
// serious or critical violation fails the test, softly: the test goes on to the next page, so that one run
// reports them all.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

const BLOCKING = new Set(["serious", "critical"]);

export async function expectAccessible(page: Page, name: string) {
  // A button disabled until React owns the page changes colour when it does (components/hydration-mark.tsx).
  await page.waitForFunction(() => document.documentElement.dataset.hydrated !== undefined);
  // A colour caught halfway through a transition (a button going from pending to hovered) is neither the
  // colour before nor the one after; axe judges the page as it settles.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        // A transition cut short by another (its `finished` rejects) has ended too.
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const { violations, passes } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const blocking = violations.filter((violation) => BLOCKING.has(violation.impact ?? ""));
  const lines = violations.map(
    (violation) =>
      `    ${violation.impact} ${violation.id} (${violation.nodes.length}): ` +
      violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(" "))
        .join(", "),
  );
  console.log(
    `[axe] ${name}: ${passes.length} rules pass, ${violations.length} violations ` +
      `(${blocking.length} serious or critical)` +
      (lines.length ? `\n${lines.join("\n")}` : ""),
  );
  expect
    .soft(
      blocking.map((violation) => `${violation.id}: ${violation.help}`),
      `axe on ${name}`,
    )
    .toEqual([]);
}
