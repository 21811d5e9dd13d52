import { createRequire } from "node:module";
import { afterEach, describe, expect, test } from "vitest";
import { LocalEmbeddingProvider } from "@/lib/memory/embeddings/local";

interface MatMulAddon {
  instructionSet: string;
  pack(memory: ArrayBuffer, offset: number, k: number, n: number, transposed: boolean): ArrayBuffer;
  matMulPacked(memory: ArrayBuffer, aOffset: number, batch: number, m: number, k: number, outOffset: number, n: number, transposeA: boolean, packed: ArrayBuffer): void;
  batchMatMul(memory: ArrayBuffer, aOffset: number, bOffset: number, outOffset: number, batchA: number, batchB: number, m: number, k: number, n: number, transposeA: boolean, transposeB: boolean): void;
}

function loadAddon(): MatMulAddon | undefined {
  try {
    return createRequire(import.meta.url)("memgw-native-matmul") as MatMulAddon;
  } catch {
    return undefined;
  }
}
const addon = loadAddon();

/** The product by definition: a is [m, k] ([k, m] when transposed), b is [k, n] ([n, k] when transposed). */
function reference(a: Float32Array, b: Float32Array, m: number, k: number, n: number, transposeA: boolean, transposeB: boolean) {
  const out = new Float32Array(m * n);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let p = 0; p < k; p++) sum += (transposeA ? a[p * m + i] : a[i * k + p]) * (transposeB ? b[j * k + p] : b[p * n + j]);
      out[i * n + j] = sum;
    }
  return out;
}

function random(length: number, seed: number) {
  const values = new Float32Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    values[i] = state / 2 ** 30 - 1;
  }
  return values;
}

function expectClose(actual: Float32Array, expected: Float32Array) {
  expect(actual.length).toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < actual.length; i++) worst = Math.max(worst, Math.abs(actual[i] - expected[i]) / (1 + Math.abs(expected[i])));
  expect(worst).toBeLessThan(1e-5);
}

// The addon is an optional dependency, built by `npm install` where a C++ compiler is (CI always is).
describe.skipIf(!addon && !process.env.CI)("the native matrix products", () => {
  // Row counts around the 8-row blocks, column counts around the 32-column panels.
  const shapes = [
    [1, 1, 1],
    [7, 5, 17],
    [8, 64, 32],
    [9, 33, 33],
    [30, 512, 100],
    [17, 3, 65],
  ];

  test.each(shapes)("an [m = %i, k = %i] × [k, n = %i] product equals the definition, with every transposition and with packed weights", (m, k, n) => {
    for (const transposeA of [false, true])
      for (const transposeB of [false, true]) {
        const a = random(m * k, m + k);
        const b = random(k * n, k + n);
        const memory = new ArrayBuffer(4 * (m * k + k * n + m * n + 3));
        // Offsets that are not 16-byte aligned, as the WASM heap's allocations may be.
        const aOffset = 4, bOffset = aOffset + 4 * m * k, outOffset = bOffset + 4 * k * n + 4;
        new Float32Array(memory, aOffset, m * k).set(a);
        new Float32Array(memory, bOffset, k * n).set(b);
        const expected = reference(a, b, m, k, n, transposeA, transposeB);

        addon!.batchMatMul(memory, aOffset, bOffset, outOffset, 1, 1, m, k, n, transposeA, transposeB);
        expectClose(new Float32Array(memory, outOffset, m * n), expected);

        new Float32Array(memory, outOffset, m * n).fill(Number.NaN);
        const packed = addon!.pack(memory, bOffset, k, n, transposeB);
        addon!.matMulPacked(memory, aOffset, 1, m, k, outOffset, n, transposeA, packed);
        expectClose(new Float32Array(memory, outOffset, m * n), expected);
      }
  });

  test("a batch multiplies matrix by matrix, and a batch of one right-hand matrix serves every left-hand one", () => {
    const [batch, m, k, n] = [4, 6, 10, 12];
    const a = random(batch * m * k, 1);
    const b = random(batch * k * n, 2);
    const memory = new ArrayBuffer(4 * (a.length + b.length + batch * m * n));
    new Float32Array(memory, 0, a.length).set(a);
    new Float32Array(memory, 4 * a.length, b.length).set(b);
    const outOffset = 4 * (a.length + b.length);
    const outOf = (index: number) => new Float32Array(memory, outOffset + 4 * index * m * n, m * n);
    const slice = (values: Float32Array, index: number, size: number) => values.subarray(index * size, (index + 1) * size);

    addon!.batchMatMul(memory, 0, 4 * a.length, outOffset, batch, batch, m, k, n, false, false);
    for (let i = 0; i < batch; i++) expectClose(outOf(i), reference(slice(a, i, m * k), slice(b, i, k * n), m, k, n, false, false));

    addon!.batchMatMul(memory, 0, 4 * a.length, outOffset, batch, 1, m, k, n, false, false);
    for (let i = 0; i < batch; i++) expectClose(outOf(i), reference(slice(a, i, m * k), slice(b, 0, k * n), m, k, n, false, false));
  });

  test("a matrix reaching past the memory is refused before anything is written", () => {
    const memory = new ArrayBuffer(4 * 128);
    const before = new Uint8Array(memory.slice(0));
    expect(() => addon!.batchMatMul(memory, 0, 0, 4 * 124, 1, 1, 2, 2, 4, false, false)).toThrow(RangeError);
    expect(() => addon!.pack(memory, 4 * 124, 4, 4, false)).toThrow(RangeError);
    const packed = addon!.pack(memory, 0, 4, 4, false);
    expect(() => addon!.matMulPacked(memory, 0, 1, 2, 4, 0, 40, false, packed)).toThrow("packed matrix of another shape");
    expect(new Uint8Array(memory)).toEqual(before);
  });

  describe("inside the embedding model", () => {
    const kernelsSetting = process.env.LOCAL_EMBEDDING_KERNELS;
    afterEach(() => {
      if (kernelsSetting === undefined) delete process.env.LOCAL_EMBEDDING_KERNELS;
      else process.env.LOCAL_EMBEDDING_KERNELS = kernelsSetting;
    });

    async function embedWith(kernels: "native" | "wasm", texts: string[]) {
      // A worker takes its environment when it starts.
      process.env.LOCAL_EMBEDDING_KERNELS = kernels;
      const pool = new LocalEmbeddingProvider(1);
      try {
        await pool.ready();
        return { kernels: pool.kernels, vectors: await pool.embed(texts, "ingest") };
      } finally {
        await pool.close();
      }
    }

    test("the vectors are the WASM kernels' own, one text or a batch of texts of many lengths", async () => {
      const texts = [
        "Dana prefers morning meetings.",
        "The invoice for the Berlin office was paid late in March because the approver was travelling.",
        Array.from({ length: 12 }, (_, i) => `Step ${i}: rotate the keys of region ${i % 5} and record who did it.`).join(" "),
        "ok",
      ];
      const native = await embedWith("native", texts);
      const wasm = await embedWith("wasm", texts);
      expect(native.kernels).toBe(`native ${addon!.instructionSet}`);
      expect(wasm.kernels).toBe("wasm");
      for (const [i, vector] of native.vectors.entries()) {
        expect(Math.max(...vector.map((v, j) => Math.abs(v - wasm.vectors[i][j])))).toBeLessThan(1e-5);
      }
      const [alone] = (await embedWith("native", [texts[2]])).vectors;
      expect(Math.max(...alone.map((v, j) => Math.abs(v - native.vectors[2][j])))).toBeLessThan(1e-5);
    });
  });
});
