import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { LocalEmbeddingProvider } from "@/lib/memory/embeddings/local";
import { chooseKernels } from "@/lib/memory/embeddings/native-kernels.mjs";

type Pack = (memory: ArrayBuffer, offset: number, k: number, n: number, transposed: boolean) => ArrayBuffer;
type PackedProduct = (
  memory: ArrayBuffer,
  aOffset: number,
  batch: number,
  m: number,
  k: number,
  outOffset: number,
  n: number,
  transposeA: boolean,
  packed: ArrayBuffer,
) => void;

interface MatMulKernel {
  instructionSet: string;
  pack: Pack;
  matMulPacked: PackedProduct;
  /** Where this CPU runs the kernel's blocks over fp16 weights (not the portable kernel's). */
  packFp16?: Pack;
  matMulPackedFp16?: PackedProduct;
  /** Where this CPU runs the kernel's blocks over bf16 pairs (AVX512_BF16: the avx512 kernel's alone). */
  packBf16?: Pack;
  matMulPackedBf16?: PackedProduct;
  batchMatMul(
    memory: ArrayBuffer,
    aOffset: number,
    bOffset: number,
    outOffset: number,
    batchA: number,
    batchB: number,
    m: number,
    k: number,
    n: number,
    transposeA: boolean,
    transposeB: boolean,
  ): void;
  addBias(memory: ArrayBuffer, offset: number, rows: number, n: number, bias: ArrayBuffer, relu: boolean): void;
  addInto(memory: ArrayBuffer, outOffset: number, inOffset: number, count: number): void;
  layerNorm(
    memory: ArrayBuffer,
    inOffset: number,
    outOffset: number,
    rows: number,
    n: number,
    scale: ArrayBuffer,
    bias: ArrayBuffer,
    epsilon: number,
  ): void;
}

interface MatMulAddon extends MatMulKernel {
  instructionSets: string[];
  runnableInstructionSets: string[];
  kernel(name: string): MatMulKernel;
}

const requireHere = createRequire(import.meta.url);

/** Why the addon did not load, if it did not. */
let addonLoadError: string | undefined;
function loadAddon(): MatMulAddon | undefined {
  try {
    return requireHere("memgw-native-matmul") as MatMulAddon;
  } catch (error) {
    addonLoadError = (error as Error).message;
    return undefined;
  }
}
const addon = loadAddon();

const KERNELS = ["avx512", "avx2", "portable"];
/** What the CPU reports, as Linux shows it (on x86-64: fpu, sse2, avx2, fma, avx512f...). */
const cpuInfo = fs.existsSync("/proc/cpuinfo") ? fs.readFileSync("/proc/cpuinfo", "utf8") : "";
const cpuFlags = new Set(/^flags\s*:(.*)$/m.exec(cpuInfo)?.[1].trim().split(/\s+/));
/**
 * The kernels this machine can run, best first, judged on Linux from the CPU's report rather than the
 * addon's (elsewhere the addon's word is taken).
 */
const runnableHere =
  process.platform === "linux"
    ? [
        process.arch === "x64" && cpuFlags.has("avx512f") && "avx512",
        process.arch === "x64" && cpuFlags.has("avx2") && cpuFlags.has("fma") && "avx2",
        "portable",
      ].filter((name): name is string => Boolean(name))
    : (addon?.runnableInstructionSets ?? ["portable"]);

/**
 * Whether this machine runs the kernel's blocks over fp16 weights (AVX2's need F16C; judged as runnableHere is).
 * The portable kernel has none: widened in software, a query's products took 8 times the floats' time.
 */
function runsFp16Here(kernel: string) {
  if (process.platform !== "linux") return Boolean(addon?.kernel(kernel).matMulPackedFp16);
  return kernel === "avx512" || (kernel === "avx2" && cpuFlags.has("f16c"));
}

/** Whether this machine runs the kernel's blocks over bf16 pairs (judged as runnableHere is). */
function runsBf16Here(kernel: string) {
  if (process.platform !== "linux") return Boolean(addon?.kernel(kernel).matMulPackedBf16);
  return kernel === "avx512" && cpuFlags.has("avx512_bf16") && cpuFlags.has("avx512bw");
}

/** `value` rounded to bfloat16 (to nearest, ties to even), as a float. */
function toBf16(value: number) {
  const bits = new Uint32Array(Float32Array.of(value).buffer);
  bits[0] = ((bits[0] + 0x7fff + ((bits[0] >>> 16) & 1)) >>> 16) << 16;
  return new Float32Array(bits.buffer)[0];
}

/** The product by definition: a is [m, k] ([k, m] when transposed), b is [k, n] ([n, k] when transposed). */
function reference(
  a: Float32Array,
  b: Float32Array,
  m: number,
  k: number,
  n: number,
  transposeA: boolean,
  transposeB: boolean,
) {
  const out = new Float32Array(m * n);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let p = 0; p < k; p++)
        sum += (transposeA ? a[p * m + i] : a[i * k + p]) * (transposeB ? b[j * k + p] : b[p * n + j]);
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
  for (let i = 0; i < actual.length; i++)
    worst = Math.max(worst, Math.abs(actual[i] - expected[i]) / (1 + Math.abs(expected[i])));
  expect(worst).toBeLessThan(1e-5);
}

// The addon is an optional dependency, built by `npm install` where a C++ compiler is: a machine that runs
// the tests has one, so a missing addon is a failure here, never a skip (the gateway itself falls back to WASM).
describe("the native matrix products", () => {
  test("the addon is built and loads", () => {
    expect(addonLoadError, "rebuild it with `npm rebuild memgw-native-matmul`").toBeUndefined();
    expect(addon).toBeDefined();
  });

  test("the addon has every kernel of its architecture, whatever CPU built it, and runs those this CPU reports", () => {
    expect(addon!.instructionSets).toEqual(process.arch === "x64" ? KERNELS : ["portable"]);
    if (process.platform === "linux") expect(addon!.runnableInstructionSets).toEqual(runnableHere);
    expect(addon!.instructionSet).toBe(addon!.runnableInstructionSets[0]);
    expect(addon!.kernel(addon!.instructionSet).instructionSet).toBe(addon!.instructionSet);
  });

  // The CPU of a copied install may lack what the building CPU had: an instruction beyond the baseline
  // anywhere but in a kernel chosen at run time kills the process at the first call (illegal instruction).
  test.runIf(process.arch === "x64" && process.platform === "linux")(
    "outside the kernels chosen at run time, the addon uses no instruction beyond the x86-64 baseline",
    () => {
      const addonDir = path.dirname(requireHere.resolve("memgw-native-matmul"));
      const addonFile = path.join(addonDir, "build/Release/matmul.node");
      const listing = spawnSync("objdump", ["-d", "-C", "--no-show-raw-insn", addonFile], {
        encoding: "utf8",
        maxBuffer: 2 ** 26,
      });
      expect(listing.status).toBe(0);
      // AVX and later (VEX and EVEX encoded: v…), then BMI1/2, ABM, MOVBE, SSSE3 and SSE4 instructions.
      const extensions = [
        ...["v[a-z0-9]+", "andn", "bextr", "blsi", "blsmsk", "blsr", "bzhi", "mulx", "pdep", "pext", "rorx"],
        ...["sarx", "shlx", "shrx", "lzcnt", "popcnt", "movbe", "pshufb", "palignr", "ptest", "pblendvb"],
        ...["blendvps", "blendps", "pblendw", "roundps", "roundss", "pminsd", "pmaxsd", "pmulld", "insertps"],
        ...["pextrd", "pinsrd", "pmovzx[a-z]+", "pmovsx[a-z]+", "pcmpeqq", "packusdw"],
      ];
      const beyondBaseline = new RegExp(`^(${extensions.join("|")})$`);
      const outsideKernels = new Set<string>();
      let insideKernels = 0;
      let fn = "";
      for (const line of listing.stdout.split("\n")) {
        const header = /^[0-9a-f]+ <(.*)>:$/.exec(line);
        if (header) fn = header[1];
        const mnemonic = /^\s+[0-9a-f]+:\s+([a-z0-9]+)/.exec(line)?.[1];
        // The blocks, and the AVX-512 kernel's conversion of a product's rows to bf16 pairs.
        const inKernel = /::((half)?[bB]lockAvx(512|2)<|blockBf16Avx512<|bf16RowsAvx512\()/.test(fn);
        if (mnemonic && beyondBaseline.test(mnemonic)) {
          if (inKernel) insideKernels++;
          else outsideKernels.add(`${fn}: ${mnemonic}`);
        }
      }
      expect([...outsideKernels]).toEqual([]);
      expect(insideKernels).toBeGreaterThan(100); // the listing was read: the kernels' own AVX instructions
    },
  );

  test("a kernel the addon does not have is refused by name", () => {
    const builtIn = addon!.instructionSets.join(", ");
    expect(() => addon!.kernel("avx-512")).toThrow(`the addon has no kernel of that name; it has ${builtIn}`);
    expect(() => addon!.kernel("portable\0")).toThrow(/no kernel/);
    expect(() => addon!.kernel(7 as unknown as string)).toThrow(TypeError);
  });

  // Row counts around the 8-row (AVX-512), 6-row (AVX2) and 2-row (portable) blocks, column counts
  // around the 32-column panels and the 16-column halves.
  const shapes = [
    [1, 1, 1],
    [7, 5, 17],
    [8, 64, 32],
    [9, 33, 33],
    [13, 7, 16],
    [30, 512, 100],
    [17, 3, 65],
  ];

  describe.each(KERNELS)("the %s kernel", (name) => {
    if (!runnableHere.includes(name)) {
      test("is refused on this CPU, which does not report its instructions (they would kill the process)", () => {
        expect(addon!.runnableInstructionSets).not.toContain(name);
        let error: (Error & { code?: string }) | undefined;
        try {
          addon!.kernel(name);
        } catch (thrown) {
          error = thrown as Error;
        }
        expect(error?.code).toBe("ERR_KERNEL_UNSUPPORTED");
        expect(error?.message).toBe(
          `this CPU does not report the instructions of the ${name} kernel; it runs ${runnableHere.join(", ")}`,
        );
      });
      return;
    }
    const kernel = () => addon!.kernel(name);

    test.each(shapes)(
      "an [m = %i, k = %i] × [k, n = %i] product equals the definition, " +
        "with every transposition and with packed weights",
      (m, k, n) => {
        expect(kernel().instructionSet).toBe(name);
        for (const transposeA of [false, true])
          for (const transposeB of [false, true]) {
            const a = random(m * k, m + k);
            const b = random(k * n, k + n);
            // A guard after the output: a kernel writing past its last column (into the next row, or past
            // the matrix) is seen.
            const memory = new ArrayBuffer(4 * (m * k + k * n + m * n + 3 + 8));
            // Offsets that are not 16-byte aligned, as the WASM heap's allocations may be.
            const aOffset = 4,
              bOffset = aOffset + 4 * m * k,
              outOffset = bOffset + 4 * k * n + 4;
            new Float32Array(memory, aOffset, m * k).set(a);
            new Float32Array(memory, bOffset, k * n).set(b);
            const guard = new Float32Array(memory, outOffset + 4 * m * n, 8);
            guard.fill(42);
            const expected = reference(a, b, m, k, n, transposeA, transposeB);

            kernel().batchMatMul(memory, aOffset, bOffset, outOffset, 1, 1, m, k, n, transposeA, transposeB);
            expectClose(new Float32Array(memory, outOffset, m * n), expected);

            new Float32Array(memory, outOffset, m * n).fill(Number.NaN);
            const packed = kernel().pack(memory, bOffset, k, n, transposeB);
            kernel().matMulPacked(memory, aOffset, 1, m, k, outOffset, n, transposeA, packed);
            expectClose(new Float32Array(memory, outOffset, m * n), expected);
            expect([...guard]).toEqual(Array(8).fill(42));
          }
      },
    );

    const readsFp16 = runsFp16Here(name);
    test.runIf(!readsFp16)("has no products on fp16 weights", () => {
      expect(kernel().packFp16).toBeUndefined();
      expect(kernel().matMulPackedFp16).toBeUndefined();
    });

    /** Each value rounded to fp16 and widened back, by the kernel: k = 1 and a = [1]. */
    function roundedToFp16(values: Float32Array) {
      const memory = new ArrayBuffer(4 * (1 + 2 * values.length));
      new Float32Array(memory, 0, 1)[0] = 1;
      new Float32Array(memory, 4, values.length).set(values);
      const packed = kernel().packFp16!(memory, 4, 1, values.length, false);
      kernel().matMulPackedFp16!(memory, 0, 1, 1, 1, 4 * (1 + values.length), values.length, false, packed);
      return new Float32Array(memory, 4 * (1 + values.length), values.length);
    }

    // For fp16 weights and bf16 pairs: every row count from 1 to two blocks and more (remainders of the 8- and
    // 6-row blocks), and the shapes above.
    const reducedShapes = [
      ...Array.from({ length: 17 }, (_, i) => [i + 1, 33, 70]),
      ...shapes,
      // A depth with 16 to 31 values past its last 32 (bf16 rows converted 32 values at a time), or exactly 16.
      ...[
        [3, 16, 40],
        [2, 17, 33],
        [5, 31, 70],
        [1, 47, 3],
        [4, 2, 5],
      ],
    ];
    /** Each of `reducedShapes` with each transposition, and its two sides drawn from seeds of the shape's own. */
    function* reducedProducts(seed: number) {
      for (const [m, k, n] of reducedShapes)
        for (const transposeA of [false, true])
          for (const transposeB of [false, true])
            yield { m, k, n, transposeA, transposeB, a: random(m * k, m + k + seed), b: random(k * n, k + n + seed) };
    }

    test.runIf(readsFp16)(
      "on fp16 weights, a product is the floats' product on those weights rounded, to the bit, in every shape",
      () => {
        for (const { m, k, n, transposeA, transposeB, a, b } of reducedProducts(1)) {
          // Offsets that are not 16-byte aligned; a guard after the output.
          const memory = new ArrayBuffer(4 * (2 * m * k + 2 * k * n + 2 * m * n + 8) + 8);
          const [aOffset, bOffset, roundedOffset] = [4, 4 + 4 * m * k, 4 + 4 * (m * k + k * n)];
          const [outOffset, expectedOffset] = [roundedOffset + 4 * k * n + 4, roundedOffset + 4 * (k * n + m * n) + 4];
          new Float32Array(memory, aOffset, m * k).set(a);
          new Float32Array(memory, bOffset, k * n).set(b);
          new Float32Array(memory, roundedOffset, k * n).set(roundedToFp16(b));
          new Float32Array(memory, outOffset, m * n).fill(Number.NaN);
          const guard = new Float32Array(memory, expectedOffset + 4 * m * n, 8).fill(42);
          const packed = kernel().packFp16!(memory, bOffset, k, n, transposeB);
          expect(packed.byteLength).toBe(kernel().pack(memory, bOffset, k, n, transposeB).byteLength / 2);
          kernel().matMulPackedFp16!(memory, aOffset, 1, m, k, outOffset, n, transposeA, packed);
          const floats = kernel().pack(memory, roundedOffset, k, n, transposeB);
          kernel().matMulPacked(memory, aOffset, 1, m, k, expectedOffset, n, transposeA, floats);
          const out = new Float32Array(memory, outOffset, m * n);
          expect([...out], `[${m}, ${k}] × [${k}, ${n}]`).toEqual([...new Float32Array(memory, expectedOffset, m * n)]);
          // Rounded, not floats' products: the weights moved (by up to 2^-11 of each; none of these is exact).
          const floatsProduct = reference(a, b, m, k, n, transposeA, transposeB);
          expect(out.some((value, i) => value !== floatsProduct[i])).toBe(true);
          expect([...guard]).toEqual(Array(8).fill(42));
        }
      },
    );

    test.runIf(readsFp16)(
      "fp16 rounds to nearest (ties to even), overflows to infinity, keeps subnormals and NaN",
      () => {
        const cases: [number, number][] = [
          [1, 1],
          [1 + 2 ** -11, 1], // halfway between 1 and the next fp16 value: to the even one
          [1 + 3 * 2 ** -11, 1 + 2 ** -9],
          [1 + 2 ** -11 + 2 ** -20, 1 + 2 ** -10], // past halfway
          [-0.1, -0.0999755859375],
          [65504, 65504],
          [65519.99, 65504],
          [65520, Infinity],
          [-1e10, -Infinity],
          [2 ** -14, 2 ** -14], // the smallest normal fp16 value
          [2 ** -24, 2 ** -24], // the smallest subnormal
          [2 ** -25, 0], // halfway to it: to the even one, zero
          [3 * 2 ** -26, 2 ** -24],
          [5 * 2 ** -25, 2 * 2 ** -24], // 2.5 steps: to 2
          [-(2 ** -30), 0], // -0 as fp16; a product's sum starts at +0
          [-0, 0],
          [-Infinity, -Infinity],
          [Number.NaN, Number.NaN],
        ];
        const out = [...roundedToFp16(Float32Array.from(cases, ([value]) => value))];
        expect(out.map((value, i) => [cases[i][0], value])).toEqual(cases.map(([value, half]) => [value, half]));
      },
    );

    const readsBf16 = runsBf16Here(name);
    test.runIf(!readsBf16)("has no products on bf16 pairs", () => {
      expect(kernel().packBf16).toBeUndefined();
      expect(kernel().matMulPackedBf16).toBeUndefined();
    });

    test.runIf(readsBf16)(
      "on bf16 pairs, a product is the product of both sides rounded to bf16, summed in float, in every shape " +
        "(an odd k included)",
      () => {
        for (const { m, k, n, transposeA, transposeB, a, b } of reducedProducts(3)) {
          // Offsets that are not 16-byte aligned; a guard after the output.
          const memory = new ArrayBuffer(4 * (m * k + k * n + m * n + 8) + 8);
          const [aOffset, bOffset, outOffset] = [4, 4 + 4 * m * k, 4 + 4 * (m * k + k * n)];
          new Float32Array(memory, aOffset, m * k).set(a);
          new Float32Array(memory, bOffset, k * n).set(b);
          new Float32Array(memory, outOffset, m * n).fill(Number.NaN);
          const guard = new Float32Array(memory, outOffset + 4 * m * n, 8).fill(42);
          const packed = kernel().packBf16!(memory, bOffset, k, n, transposeB);
          // Half the floats' bytes, k rounded up to whole pairs.
          expect(packed.byteLength).toBe(2 * Math.ceil(n / 32) * 32 * (k + (k % 2)));
          kernel().matMulPackedBf16!(memory, aOffset, 1, m, k, outOffset, n, transposeA, packed);
          const out = new Float32Array(memory, outOffset, m * n);
          const rounded = reference(a.map(toBf16), b.map(toBf16), m, k, n, transposeA, transposeB);
          const magnitude = reference(a.map(Math.abs), b.map(Math.abs), m, k, n, transposeA, transposeB);
          for (let i = 0; i < m * n; i++) {
            // Float sums over k of exact products: off by float rounding alone.
            expect(Math.abs(out[i] - rounded[i]), `[${m}, ${k}] × [${k}, ${n}] at ${i}`).toBeLessThanOrEqual(
              2 ** -22 * k * magnitude[i],
            );
          }
          // Not the floats' products: both sides moved (by up to 2^-8 of each, with 8 significant bits).
          const floatsProduct = reference(a, b, m, k, n, transposeA, transposeB);
          expect(out.some((value, i) => Math.abs(value - floatsProduct[i]) > 2 ** -22 * k * magnitude[i])).toBe(true);
          expect([...guard]).toEqual(Array(8).fill(42));
        }
      },
    );

    test.runIf(readsBf16)("bf16 rounds both sides to nearest (ties to even), overflows to infinity, keeps NaN", () => {
      const cases: [number, number][] = [
        [1, 1],
        [1 + 2 ** -8, 1], // halfway between 1 and the next bf16 value: to the even one
        [1 + 3 * 2 ** -8, 1 + 2 ** -6],
        [1 + 2 ** -8 + 2 ** -20, 1 + 2 ** -7], // past halfway
        [-0.1, -0.10009765625],
        [3.3895313892515355e38, 3.3895313892515355e38], // the largest bf16 value
        [3.4028234663852886e38, Infinity],
        [-Infinity, -Infinity],
        [Number.NaN, Number.NaN],
      ];
      const values = Float32Array.from(cases, ([value]) => value);
      // Each value as the weight of a one-by-one product with 1, then as the left-hand value with a weight of 1.
      for (const side of ["weights", "rows"]) {
        const memory = new ArrayBuffer(4 * (2 + 2 * values.length));
        const ones = new Float32Array(memory, 0, 1).fill(1);
        const given = new Float32Array(memory, 4, values.length);
        given.set(values);
        const outOffset = 4 * (2 + values.length);
        const out = new Float32Array(memory, outOffset, values.length);
        if (side === "weights") {
          const packed = kernel().packBf16!(memory, 4, 1, values.length, false);
          kernel().matMulPackedBf16!(memory, 0, 1, 1, 1, outOffset, values.length, false, packed);
        } else {
          const packed = kernel().packBf16!(memory, ones.byteOffset, 1, 1, false);
          kernel().matMulPackedBf16!(memory, 4, 1, values.length, 1, outOffset, 1, false, packed);
        }
        expect(
          [...out].map((value, i) => [cases[i][0], value]),
          side,
        ).toEqual(cases.map(([value, rounded]) => [value, rounded]));
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
      const slice = (values: Float32Array, index: number, size: number) =>
        values.subarray(index * size, (index + 1) * size);

      kernel().batchMatMul(memory, 0, 4 * a.length, outOffset, batch, batch, m, k, n, false, false);
      for (let i = 0; i < batch; i++)
        expectClose(outOf(i), reference(slice(a, i, m * k), slice(b, i, k * n), m, k, n, false, false));

      kernel().batchMatMul(memory, 0, 4 * a.length, outOffset, batch, 1, m, k, n, false, false);
      for (let i = 0; i < batch; i++)
        expectClose(outOf(i), reference(slice(a, i, m * k), slice(b, 0, k * n), m, k, n, false, false));

      const packed = kernel().pack(memory, 4 * a.length, k, n, false);
      kernel().matMulPacked(memory, 0, batch, m, k, outOffset, n, false, packed);
      for (let i = 0; i < batch; i++)
        expectClose(outOf(i), reference(slice(a, i, m * k), slice(b, 0, k * n), m, k, n, false, false));
    });

    test("a matrix reaching past the memory is refused before anything is written", () => {
      const memory = new ArrayBuffer(4 * 128);
      const before = new Uint8Array(memory.slice(0));
      expect(() => kernel().batchMatMul(memory, 0, 0, 4 * 124, 1, 1, 2, 2, 4, false, false)).toThrow(RangeError);
      expect(() => kernel().pack(memory, 4 * 124, 4, 4, false)).toThrow(RangeError);
      const packed = kernel().pack(memory, 0, 4, 4, false);
      expect(() => kernel().matMulPacked(memory, 0, 1, 2, 4, 0, 40, false, packed)).toThrow(
        "packed matrix of another shape",
      );
      // As for floats, the length stands for the shape: fp16 weights and bf16 pairs (half the floats' bytes) are
      // refused as floats, and floats as either.
      const reduced: [Pack, PackedProduct][] = [];
      if (readsFp16) reduced.push([kernel().packFp16!, kernel().matMulPackedFp16!]);
      if (readsBf16) reduced.push([kernel().packBf16!, kernel().matMulPackedBf16!]);
      for (const [pack, product] of reduced) {
        const halves = pack(memory, 0, 4, 4, false);
        expect(() => kernel().matMulPacked(memory, 0, 1, 1, 4, 0, 4, false, halves)).toThrow(
          "packed matrix of another shape",
        );
        expect(() => product(memory, 0, 1, 1, 4, 0, 4, false, packed)).toThrow("packed matrix of another shape");
        expect(() => pack(memory, 4 * 124, 4, 4, false)).toThrow(RangeError);
      }
      expect(() => kernel().batchMatMul(memory, -4, 0, 0, 1, 1, 1, 1, 1, false, false)).toThrow(RangeError);
      expect(() => kernel().batchMatMul(memory, 0, 0, 4 * 128, 1, 1, 1, 1, 1, false, false)).toThrow(RangeError);
      const yes = "yes" as unknown as boolean;
      expect(() => kernel().batchMatMul(memory, 0, 0, 0, 1, 1, 1, 1, 1, yes, false)).toThrow(TypeError);
      expect(new Uint8Array(memory)).toEqual(before);
    });

    test("sizes whose byte count overflows 64 bits, to a small number a plain bounds check passes, are refused", () => {
      // In a process of its own: a kernel that took them would write far past the memory and crash.
      const addonPath = JSON.stringify(requireHere.resolve("memgw-native-matmul"));
      const script = `
        const kernel = require(${addonPath}).kernel(${JSON.stringify(name)});
        const memory = new ArrayBuffer(16384);
        const huge = 2 ** 62 + 1024; // × 4 bytes = 2^64 + 4096, 4096 once it wraps around
        const packed = kernel.pack(memory, 0, 1, 1, false);
        const calls = {
          m: () => kernel.batchMatMul(memory, 0, 0, 0, 1, 1, huge, 1, 1, false, false),
          batch: () => kernel.batchMatMul(memory, 0, 0, 0, huge, 1, 1, 1, 1, false, false),
          packedBatch: () => kernel.matMulPacked(memory, 0, huge, 1, 1, 0, 1, false, packed),
          packedK: () => kernel.pack(memory, 0, huge, 1, false),
        };
        if (kernel.packFp16) {
          const fp16 = kernel.packFp16(memory, 0, 1, 1, false);
          calls.fp16Batch = () => kernel.matMulPackedFp16(memory, 0, huge, 1, 1, 0, 1, false, fp16);
          calls.fp16K = () => kernel.packFp16(memory, 0, huge, 1, false);
        }
        if (kernel.packBf16) {
          const bf16 = kernel.packBf16(memory, 0, 1, 1, false);
          calls.bf16Batch = () => kernel.matMulPackedBf16(memory, 0, huge, 1, 1, 0, 1, false, bf16);
          calls.bf16K = () => kernel.packBf16(memory, 0, huge, 1, false);
        }
        for (const [what, call] of Object.entries(calls)) {
          try { call(); console.log(what, "taken"); } catch (error) { console.log(what, error.name, error.message); }
        }`;
      const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
      expect({ signal: run.signal, stderr: run.stderr, stdout: run.stdout }).toEqual({
        signal: null,
        stderr: "",
        stdout: [
          ...["m", "batch", "packedBatch", "packedK"],
          ...(readsFp16 ? ["fp16Batch", "fp16K"] : []),
          ...(readsBf16 ? ["bf16Batch", "bf16K"] : []),
        ]
          .map((what) => `${what} RangeError matrix outside memory\n`)
          .join(""),
      });
    });
  });

  describe("the elementwise steps around the products", () => {
    const [rows, n] = [5, 37];
    const matrix = random(rows * n, 3);
    const bias = random(n, 4);

    test("addBias adds the bias to every row, and with relu then keeps max(0, x)", () => {
      for (const relu of [false, true]) {
        const memory = new ArrayBuffer(4 * (rows * n + 8));
        new Float32Array(memory, 4, rows * n).set(matrix);
        addon!.addBias(memory, 4, rows, n, new Float32Array(bias).buffer, relu);
        const expected = matrix.map((x, i) => {
          const sum = Math.fround(x + bias[i % n]);
          return relu ? Math.max(sum, 0) : sum;
        });
        expectClose(new Float32Array(memory, 4, rows * n), expected);
        expect(new Float32Array(memory, 4 * (rows * n + 1), 7)).toEqual(new Float32Array(7));
      }
    });

    test("addInto adds one run of floats into another", () => {
      const other = random(rows * n, 5);
      const memory = new ArrayBuffer(8 * rows * n);
      new Float32Array(memory, 0, rows * n).set(matrix);
      new Float32Array(memory, 4 * rows * n, rows * n).set(other);
      addon!.addInto(memory, 0, 4 * rows * n, rows * n);
      expectClose(
        new Float32Array(memory, 0, rows * n),
        matrix.map((x, i) => x + other[i]),
      );
    });

    test("layerNorm normalizes each row to mean 0 and variance 1, then scales and shifts it, in place too", () => {
      const scale = random(n, 6);
      const expected = new Float32Array(rows * n);
      for (let row = 0; row < rows; row++) {
        const values = matrix.subarray(row * n, (row + 1) * n);
        const mean = values.reduce((a, b) => a + b, 0) / n;
        const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
        for (let j = 0; j < n; j++)
          expected[row * n + j] = ((values[j] - mean) / Math.sqrt(variance + 1e-6)) * scale[j] + bias[j];
      }
      const memory = new ArrayBuffer(8 * rows * n);
      new Float32Array(memory, 0, rows * n).set(matrix);
      const [scaleBuffer, biasBuffer] = [new Float32Array(scale).buffer, new Float32Array(bias).buffer];
      addon!.layerNorm(memory, 0, 4 * rows * n, rows, n, scaleBuffer, biasBuffer, 1e-6);
      expectClose(new Float32Array(memory, 4 * rows * n, rows * n), expected);
      addon!.layerNorm(memory, 0, 0, rows, n, scaleBuffer, biasBuffer, 1e-6);
      expectClose(new Float32Array(memory, 0, rows * n), expected);
    });

    test("a matrix past the memory, or a vector of another length, is refused before anything is written", () => {
      const memory = new ArrayBuffer(4 * rows * n);
      new Float32Array(memory).set(matrix);
      const vector = new Float32Array(bias).buffer;
      expect(() => addon!.addBias(memory, 4, rows, n, vector, false)).toThrow("matrix outside memory");
      expect(() => addon!.addBias(memory, 0, rows, n, new ArrayBuffer(4 * (n - 1)), false)).toThrow(
        "vector of another length",
      );
      expect(() => addon!.addInto(memory, 0, 4, rows * n)).toThrow(RangeError);
      expect(() => addon!.layerNorm(memory, 0, 0, rows, n + 1, vector, vector, 1e-6)).toThrow(RangeError);
      expect(() => addon!.layerNorm(memory, 0, 0, rows, n, vector, vector, "small" as unknown as number)).toThrow(
        "epsilon must be a number",
      );
      expect(new Float32Array(memory)).toEqual(matrix);
    });
  });

  describe("inside the embedding model", () => {
    const kernelsSetting = process.env.LOCAL_EMBEDDING_KERNELS;
    afterEach(() => {
      if (kernelsSetting === undefined) delete process.env.LOCAL_EMBEDDING_KERNELS;
      else process.env.LOCAL_EMBEDDING_KERNELS = kernelsSetting;
    });

    const texts = [
      "Dana prefers morning meetings.",
      "The invoice for the Berlin office was paid late in March because the approver was travelling.",
      Array.from({ length: 12 }, (_, i) => `Step ${i}: rotate the keys of region ${i % 5} and record who did it.`).join(
        " ",
      ),
      "ok",
      // Characters the tokenizer does not know (token 0), and a text past the model's 128 tokens.
      "Ω≈ç√ 🙂 zzqx",
      Array.from({ length: 90 }, (_, i) => `item ${i}, reviewed`).join("; "),
    ];

    /** Each job's vectors, embedded one job after another by one worker with this kernel setting. */
    async function embedJobsWith(kernels: string | undefined, jobs: string[][], priority: "ingest" | "query") {
      // A worker takes its environment when it starts.
      if (kernels === undefined) delete process.env.LOCAL_EMBEDDING_KERNELS;
      else process.env.LOCAL_EMBEDDING_KERNELS = kernels;
      const pool = new LocalEmbeddingProvider(1);
      try {
        await pool.ready();
        const vectors: number[][][] = [];
        for (const job of jobs) vectors.push(await pool.embed(job, priority));
        return { kernels: pool.kernels, vectors };
      } finally {
        await pool.close();
      }
    }

    async function embedWith(kernels: string | undefined, someTexts = texts, priority: "ingest" | "query" = "ingest") {
      const { kernels: description, vectors } = await embedJobsWith(kernels, [someTexts], priority);
      return { kernels: description, vectors: vectors[0] };
    }

    function expectSameVectors(actual: number[][], expected: number[][]) {
      expect(actual.length).toBe(expected.length);
      for (const [i, vector] of actual.entries()) {
        expect(Math.max(...vector.map((v, j) => Math.abs(v - expected[i][j])))).toBeLessThan(1e-5);
      }
    }

    let wasmVectors: number[][] | undefined;
    async function wasm() {
      if (!wasmVectors) {
        const run = await embedWith("wasm");
        expect(run.kernels).toBe("wasm");
        wasmVectors = run.vectors;
      }
      return wasmVectors;
    }

    test(
      "by default the best kernel this CPU runs computes them, and the vectors are the WASM kernels' own, " +
        "one text or a batch of texts of many lengths",
      async () => {
        const native = await embedWith(undefined);
        expect(native.kernels).toBe(`native ${runnableHere[0]}`);
        expectSameVectors(native.vectors, await wasm());
        const [alone] = (await embedWith("native", [texts[2]])).vectors;
        expectSameVectors([alone], [native.vectors[2]]);
      },
    );

    test(
      "a question's vector, its products on bf16 pairs or fp16 weights, is the memory's vector of the same text " +
        "within 1e-2 a component and 1e-4 of cosine (fp16: 1e-3 and 1e-5); with neither (a long query without " +
        "bf16, or WASM), the same",
      async () => {
        const memories = (await embedWith(undefined)).vectors;
        // Each a question alone, as a recall embeds it (each under FP16_MAX_ROWS tokens).
        const short = [0, 1, 3, 4];
        const questions = await embedJobsWith(
          undefined,
          short.map((i) => [texts[i]]),
          "query",
        );
        expect(questions.kernels).toBe(`native ${runnableHere[0]}`);
        // bf16 pairs move a vector by about 2e-5 of cosine, fp16 weights by less than 1e-6.
        const [component, cosine] = runsBf16Here(runnableHere[0]) ? [1e-2, 1e-4] : [1e-3, 1e-5];
        const expectNear = (question: number[], memory: number[]) => {
          expect(Math.max(...question.map((v, j) => Math.abs(v - memory[j])))).toBeLessThan(component);
          expect(question.reduce((sum, v, j) => sum + v * memory[j], 0)).toBeGreaterThan(1 - cosine);
          expect(Math.hypot(...question)).toBeCloseTo(1, 6);
        };
        for (const [index, [question]] of questions.vectors.entries()) expectNear(question, memories[short[index]]);
        // Not the floats' products where the kernel reads bf16 or fp16 (a few components differ past 1e-6).
        const reduced = runsBf16Here(runnableHere[0]) || runsFp16Here(runnableHere[0]);
        expect(
          questions.vectors.some(([question], index) =>
            question.some((v, j) => Math.abs(v - memories[short[index]][j]) > 1e-6),
          ),
        ).toBe(reduced);
        // All the texts together are hundreds of tokens: on bf16 pairs still where the CPU has them; otherwise
        // the floats' products, the memories' vectors exactly.
        const together = (await embedWith(undefined, texts, "query")).vectors;
        if (runsBf16Here(runnableHere[0])) {
          for (const [i, vector] of together.entries()) expectNear(vector, memories[i]);
          expect(together.some((vector, i) => vector.some((v, j) => Math.abs(v - memories[i][j]) > 1e-6))).toBe(true);
        } else expect(together).toEqual(memories);
        expect((await embedWith("wasm", texts, "query")).vectors).toEqual(await wasm());
      },
    );

    // The model's graph drops a batch's trailing text of no tokens (its dense input ends at the last token);
    // the forward pass gives every text its vector, one of no tokens the same wherever it stands.
    test("a text of no tokens gets a unit vector of its own, first or last in its batch", async () => {
      const [[emptyFirst, okAfter], [okFirst, emptyLast]] = [
        (await embedWith(undefined, ["", "ok"])).vectors,
        (await embedWith(undefined, ["ok", ""])).vectors,
      ];
      expect(emptyLast).toHaveLength(512);
      expect(Math.hypot(...emptyLast)).toBeCloseTo(1, 5);
      expectSameVectors([emptyLast, okFirst], [emptyFirst, okAfter]);
      expect(Math.max(...emptyLast.map((v, i) => Math.abs(v - okFirst[i])))).toBeGreaterThan(0.01);
    });

    // A worker keeps its largest call's workspace and runs every later call in it: what a call leaves there
    // must not reach the next one's vectors.
    test("a worker's vectors after a larger call are those of a worker that ran nothing before", async () => {
      const later = [[texts[3], "", texts[0]], [...texts].reverse(), [texts[4]]];
      const afterLarger = await embedJobsWith(undefined, [texts, ...later], "ingest");
      for (const [i, job] of later.entries())
        expect(afterLarger.vectors[i + 1]).toEqual((await embedWith(undefined, job)).vectors);
    });

    test.each(runnableHere)(
      "LOCAL_EMBEDDING_KERNELS=%s runs that kernel, with the WASM kernels' vectors",
      async (name) => {
        const forced = await embedWith(name);
        expect(forced.kernels).toBe(`native ${name}`);
        expectSameVectors(forced.vectors, await wasm());
      },
    );

    const unrunnable = KERNELS.filter((name) => !runnableHere.includes(name));
    test.skipIf(unrunnable.length === 0)(
      "a kernel this CPU does not run gives way to the best it runs, and the start-up description says so",
      async () => {
        const asked = unrunnable[0];
        const fallback = await embedWith(asked);
        const why = `this CPU does not run it (it runs ${runnableHere.join(", ")})`;
        expect(fallback.kernels).toBe(
          `native ${runnableHere[0]}, not ${asked} as LOCAL_EMBEDDING_KERNELS asks: ${why}`,
        );
        expectSameVectors(fallback.vectors, await wasm());
      },
    );

    test("a setting that names no kernel is refused with the values it may take, and nothing is embedded", async () => {
      await expect(embedWith("avx-512")).rejects.toThrow(
        "The local embedding model could not be loaded: " +
          'LOCAL_EMBEDDING_KERNELS must be one of native, avx512, avx2, portable, wasm, not "avx-512".',
      );
    });
  });

  describe("choosing the kernels", () => {
    const notBuilt = () => {
      throw new Error("Cannot find module 'memgw-native-matmul'");
    };

    test("without the addon the model uses WASM; a native kernel requested by name says why it is not running", () => {
      expect(chooseKernels(undefined, notBuilt)).toEqual({ addon: undefined, description: "wasm" });
      expect(chooseKernels("native", notBuilt)).toEqual({ addon: undefined, description: "wasm" });
      expect(chooseKernels("avx2", notBuilt)).toEqual({
        addon: undefined,
        description:
          "wasm, not avx2 as LOCAL_EMBEDDING_KERNELS asks: " +
          "the native addon is not built (Cannot find module 'memgw-native-matmul')",
      });
    });

    test("the setting is read without regard to case or surrounding spaces; WASM never loads the addon", () => {
      expect(chooseKernels(" Portable ", () => addon).description).toBe("native portable");
      expect(chooseKernels("", () => addon).description).toBe(`native ${addon!.instructionSet}`);
      expect(chooseKernels("WASM", notBuilt)).toEqual({ addon: undefined, description: "wasm" });
      expect(() => chooseKernels("avx2; rm -rf /", () => addon)).toThrow('not "avx2; rm -rf /"');
    });
  });
});
