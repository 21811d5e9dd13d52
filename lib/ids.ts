import { randomBytes } from "node:crypto";

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function base58(bytes: Uint8Array): string {
  let value = BigInt("0x" + (Buffer.from(bytes).toString("hex") || "0"));
  let out = "";
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = "1" + out;
  }
  return out;
}

export type IdPrefix =
  | "org"
  | "doc"
  | "usr"
  | "mbr"
  | "key"
  | "ns"
  | "grt"
  | "aud"
  | "mem"
  | "chk"
  | "act"
  | "acc"
  | "sso"
  | "int"
  | "ic"
  | "job"
  | "era"
  | "wri"
  | "ent"
  | "evt"
  | "whk"
  | "dlv";

/** A random, prefixed identifier such as `ns_5HueCGU8rMjxEXxiPuD5BD`, readable in logs and support tickets. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${base58(randomBytes(16))}`;
}
