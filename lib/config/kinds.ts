// The kinds of settings lib/config/settings.ts declares: how each parses its text, what it says when the
// text is wrong, and how the documentation shows its default and its values.
import net from "node:net";
import { z } from "zod";

export interface SettingDefinition<T> {
  /** Parses the value; it receives undefined when the variable is unset or blank. */
  schema: z.ZodType<T, string | undefined>;
  /** Completes `NAME …, not "value".` for a value the schema refuses (unless the schema says more). */
  refusal: string;
  /** What the documentation shows as the default. */
  shownDefault: string;
  /** What the documentation shows as the values it takes. */
  allowed: string;
  description: string;
  /** The gateway's own scripts and tests set it, not an operator: documented apart. */
  internal?: boolean;
  /** Read by this plain-JavaScript file (before the app, or apart from it) rather than through `setting`. */
  readBy?: string;
}

export type Documentation = Pick<SettingDefinition<unknown>, "description" | "internal" | "readBy">;

export function wholeNumber(
  options: Documentation & { fallback: number; min: number; max?: number; unit: string; refusal?: string },
): SettingDefinition<number> {
  const { fallback, min, max = Number.MAX_SAFE_INTEGER } = options;
  const noun = options.unit === "port" ? "a port number" : `a whole number of ${options.unit}`;
  return {
    ...options,
    schema: z.string().trim().transform(Number).pipe(z.number().int().min(min).max(max)).default(fallback),
    refusal:
      options.refusal ??
      (options.max === undefined ? `must be ${noun} (at least ${min})` : `must be ${noun} from ${min} to ${max}`),
    shownDefault: `\`${fallback}\``,
    allowed: options.max === undefined ? `${noun}, at least ${min}` : `${noun}, ${min} to ${max}`,
  };
}

export function oneOf<const V extends string>(
  values: readonly [V, ...V[]],
  options: Documentation & { fallback: V },
): SettingDefinition<V> {
  const refusal =
    values.length === 2 ? `must be "${values[0]}" or "${values[1]}"` : `must be one of ${values.join(", ")}`;
  return {
    ...options,
    schema: z.enum(values).default(options.fallback),
    refusal,
    shownDefault: `\`${options.fallback}\``,
    allowed: values.map((value) => `\`${value}\``).join(", "),
  };
}

/** A switch written as `on`/`off` (`true`/`false`, or `1`/`0` for the older ones). */
export function flag(
  [on, off]: readonly [string, string],
  options: Documentation & { fallback: boolean },
): SettingDefinition<boolean> {
  return {
    ...options,
    schema: z
      .enum([on, off])
      .transform((value) => value === on)
      .default(options.fallback),
    refusal: `must be "${on}" or "${off}"`,
    shownDefault: `\`${options.fallback ? on : off}\``,
    allowed: `\`${on}\`, \`${off}\``,
  };
}

/** Any text, as set (secrets and names are not trimmed: they are used exactly). */
export function text(
  options: Documentation & { shownDefault?: string; allowed?: string },
): SettingDefinition<string | undefined> {
  return {
    shownDefault: "unset",
    allowed: "text",
    ...options,
    schema: z.string().optional(),
    refusal: "must be text",
  };
}

export const HTTP_URL = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol));

export function httpUrl(options: Documentation & { shownDefault?: string }): SettingDefinition<string | undefined> {
  return {
    shownDefault: "unset",
    ...options,
    schema: HTTP_URL.optional(),
    refusal: "must be an http(s) URL",
    allowed: "an `http(s)://` URL",
  };
}

export function commaList(options: Documentation): SettingDefinition<string[]> {
  return {
    ...options,
    schema: z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean),
      )
      .default([]),
    refusal: "must be a comma-separated list",
    shownDefault: "unset",
    allowed: "a comma-separated list",
  };
}

/** An entry of an address list: its address as clients' are compared (IPv4-mapped as IPv4), a range's prefix length. */
export interface ProxyEntry {
  address: string;
  bits?: number;
  family: 4 | 6;
}

function proxyEntry(entry: string): ProxyEntry | null {
  const [rawAddress, bits, ...rest] = entry.split("/");
  const bare = rawAddress.trim().replace(/^\[|\]$/g, "");
  const address = /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(bare) ? bare.slice(7) : bare.toLowerCase();
  const family = net.isIP(address) === 4 ? 4 : net.isIP(address) === 6 ? 6 : null;
  if (!family || rest.length) return null;
  if (bits === undefined) return { address, family };
  const length = /^\d+$/.test(bits) ? Number(bits) : NaN;
  return length <= (family === 4 ? 32 : 128) ? { address, bits: length, family } : null;
}

/** IP addresses and CIDR ranges, comma-separated. */
export function addressList(options: Documentation): SettingDefinition<ProxyEntry[]> {
  return {
    ...options,
    schema: z
      .string()
      .transform((value, context) =>
        value
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean)
          .flatMap((entry) => {
            const parsed = proxyEntry(entry);
            // Said as it always was, naming the one entry that is wrong.
            if (!parsed)
              context.addIssue({ code: "custom", message: `: "${entry}" is not an IP address or CIDR range.` });
            return parsed ? [parsed] : [];
          }),
      )
      .default([]),
    refusal: "must be comma-separated IP addresses or CIDR ranges",
    shownDefault: "unset",
    allowed: "comma-separated IP addresses or CIDR ranges",
  };
}

/** Whole numbers of seconds, comma-separated (a retry schedule): at least one, each from `min` to `max`. */
export function secondsList(
  options: Documentation & { fallback: readonly number[]; min: number; max: number },
): SettingDefinition<number[]> {
  const { fallback, min, max } = options;
  return {
    ...options,
    schema: z
      .string()
      .trim()
      .transform((value) => value.split(",").map((part) => Number(part.trim())))
      .pipe(z.array(z.number().int().min(min).max(max)).min(1))
      .default([...fallback]),
    refusal: `must be whole numbers of seconds from ${min} to ${max}, separated by commas`,
    shownDefault: `\`${fallback.join(",")}\``,
    allowed: `whole numbers of seconds, ${min} to ${max}, comma-separated`,
  };
}
