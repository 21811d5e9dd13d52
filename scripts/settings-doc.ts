// `npm run docs:settings`: writes docs/configuration.md from the settings' declarations (lib/config/settings.ts),
// so that the document cannot say something the code does not do. tests/config/settings.test.ts fails when it is stale.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { INTEGRATION_SETTINGS_PREFIXES, SETTING_DEFINITIONS, type SettingName } from "@/lib/config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SETTINGS_DOCUMENT = path.join(root, "docs/configuration.md");

const cell = (text: string) => text.replace(/\|/g, "\\|");

function table(names: SettingName[]): string {
  const rows = names.map((name) => {
    const { shownDefault, allowed, description, readBy } = SETTING_DEFINITIONS[name];
    const meaning = readBy ? `${description}. Read by \`${readBy.split(", ").join("`, `")}\`` : description;
    return `| \`${name}\` | ${cell(shownDefault)} | ${cell(allowed)} | ${cell(meaning)} |`;
  });
  return ["| variable | default | values | meaning |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** docs/configuration.md as it should read, formatted as the repository's Prettier formats it. */
export async function settingsDocument(): Promise<string> {
  const names = Object.keys(SETTING_DEFINITIONS) as SettingName[];
  const integration = (name: SettingName) => INTEGRATION_SETTINGS_PREFIXES.some((p) => name.startsWith(`${p}_`));
  const internal = (name: SettingName) => SETTING_DEFINITIONS[name].internal === true;
  const markdown = [
    "# Configuration",
    "",
    "<!-- Written by `npm run docs:settings` from lib/config/settings.ts: change the settings there, then run it. -->",
    "",
    "Memory Gateway is configured with environment variables. `npm start`, `npm run dev` and `npx memgw` check " +
      "every one before they open the database: wrong values stop them, each wrong setting listed on a line of " +
      "its own with what it takes. A blank value is the same as an unset one.",
    "",
    "## Settings",
    "",
    table(names.filter((name) => !internal(name) && !integration(name))),
    "",
    "## Integrations",
    "",
    `Each provider (${INTEGRATION_SETTINGS_PREFIXES.map((p) => `\`${p}_\``).join(", ")}) has the same five ` +
      "settings. Its endpoints default to the real service; see the README's Integrations.",
    "",
    table(names.filter(integration)),
    "",
    "## Set by the gateway itself",
    "",
    "The gateway's scripts and tests set these; an operator has no reason to.",
    "",
    table(names.filter(internal)),
    "",
  ].join("\n");
  const options = await prettier.resolveConfig(SETTINGS_DOCUMENT);
  return prettier.format(markdown, { ...options, filepath: SETTINGS_DOCUMENT });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(SETTINGS_DOCUMENT, await settingsDocument());
  console.log(`Wrote ${path.relative(root, SETTINGS_DOCUMENT)}.`);
}
