// The model's matrix products (BatchMatMul, and Conv2D with a 1×1 filter, which is one) computed by
// the native addon in native/matmul instead of TensorFlow.js's WASM kernels: about 3× faster
// embeddings on AVX2 or AVX-512 (1.6× on the portable kernel), with the same vectors (within 1e-5).
// Everything else stays on the WASM backend, whose memory the addon reads and writes in place.
import { backend_util, broadcast_util, getKernel, registerKernel, unregisterKernel, util } from "@energetic-ai/core";

/**
 * What LOCAL_EMBEDDING_KERNELS may say: `native`, the best kernel the CPU runs (the default); one of the
 * addon's kernels by name; or `wasm`, TensorFlow.js's WebAssembly kernels alone.
 */
export const KERNEL_SETTINGS = ["native", "avx512", "avx2", "portable", "wasm"];

/**
 * The kernel that `setting` (LOCAL_EMBEDDING_KERNELS) asks for: `addon`, the addon's functions on it
 * (undefined: WASM alone), and `description`, what runs the products, for the start-up log.
 * A kernel this CPU does not run, or an addon that was not built, falls back to the best that runs,
 * and the description says so: an install copied onto another CPU keeps embedding. A setting that
 * names no kernel is refused.
 */
export function chooseKernels(setting, loadAddon) {
  const wanted = (setting ?? "").trim().toLowerCase() || "native";
  if (!KERNEL_SETTINGS.includes(wanted)) {
    const shown = JSON.stringify(String(setting).slice(0, 40));
    throw new Error(`LOCAL_EMBEDDING_KERNELS must be one of ${KERNEL_SETTINGS.join(", ")}, not ${shown}.`);
  }
  if (wanted === "wasm") return { addon: undefined, description: "wasm" };
  const notAsAsked = `not ${wanted} as LOCAL_EMBEDDING_KERNELS asks`;
  let addon;
  try {
    addon = loadAddon();
  } catch (error) {
    // An optional dependency: without a C++ compiler at install, the model runs on WASM alone.
    if (wanted === "native") return { addon: undefined, description: "wasm" };
    return { addon: undefined, description: `wasm, ${notAsAsked}: the native addon is not built (${error.message})` };
  }
  if (wanted === "native") return { addon, description: `native ${addon.instructionSet}` };
  if (!addon.runnableInstructionSets.includes(wanted)) {
    const why = `this CPU does not run it (it runs ${addon.runnableInstructionSets.join(", ")})`;
    return { addon, description: `native ${addon.instructionSet}, ${notAsAsked}: ${why}` };
  }
  return { addon: addon.kernel(wanted), description: `native ${wanted}` };
}

/**
 * Replaces the WASM backend's BatchMatMul and Conv2D kernels; shapes the addon does not take go to
 * the original kernels. `weights` are the model's constant tensors: their packed copies are kept.
 */
export function useNativeMatMul(addon, weights) {
  const wasmBatchMatMul = getKernel("BatchMatMul", "wasm");
  const wasmConv2D = getKernel("Conv2D", "wasm");
  const weightIds = new WeakSet(weights.map((tensor) => tensor.dataId));
  const packedWeights = new WeakMap();

  const memoryOf = (backend) => backend.wasm.HEAPU8.buffer;
  const offsetOf = (backend, tensor) => backend.dataIdMap.get(tensor.dataId).memoryOffset;

  /** out = a × b for `batch` matrices a; b's packed copy is made once when b is a weight. */
  function multiply(backend, { a, batchA, transposeA, b, batchB, transposeB, m, k, n, out }) {
    if (batchB === 1 && weightIds.has(b.dataId)) {
      let packs = packedWeights.get(b.dataId);
      if (!packs) packedWeights.set(b.dataId, (packs = new Map()));
      // A weight may be read under more than one shape (a reshape shares its data).
      const shape = `${transposeB}:${k}:${n}`;
      let packed = packs.get(shape);
      if (!packed) packs.set(shape, (packed = addon.pack(memoryOf(backend), offsetOf(backend, b), k, n, transposeB)));
      addon.matMulPacked(
        memoryOf(backend),
        offsetOf(backend, a),
        batchA,
        m,
        k,
        offsetOf(backend, out),
        n,
        transposeA,
        packed,
      );
    } else {
      addon.batchMatMul(
        memoryOf(backend),
        offsetOf(backend, a),
        offsetOf(backend, b),
        offsetOf(backend, out),
        batchA,
        batchB,
        m,
        k,
        n,
        transposeA,
        transposeB,
      );
    }
    return out;
  }

  function batchMatMul(args) {
    const {
      inputs: { a, b },
      backend,
    } = args;
    const transposeA = Boolean(args.attrs.transposeA);
    const transposeB = Boolean(args.attrs.transposeB);
    const m = a.shape.at(transposeA ? -1 : -2);
    const k = a.shape.at(transposeA ? -2 : -1);
    const n = b.shape.at(transposeB ? -2 : -1);
    const outerA = a.shape.slice(0, -2);
    const outerB = b.shape.slice(0, -2);
    const batchA = util.sizeFromShape(outerA);
    const batchB = util.sizeFromShape(outerB);
    // The addon broadcasts a batch of one against any other; mixed broadcasts stay with WASM.
    const plainBatches = batchA === 1 || batchB === 1 || util.arraysEqual(outerA, outerB);
    if (
      a.dtype !== "float32" ||
      b.dtype !== "float32" ||
      !plainBatches ||
      m * k * n === 0 ||
      k !== b.shape.at(transposeB ? -1 : -2)
    ) {
      return wasmBatchMatMul.kernelFunc(args);
    }
    const outShape = [...broadcast_util.assertAndGetBroadcastShape(outerA, outerB), m, n];
    const out = backend.makeOutput(outShape, "float32");
    return multiply(backend, { a, batchA, transposeA, b, batchB, transposeB, m, k, n, out });
  }

  function conv2D(args) {
    const {
      inputs: { x, filter },
      backend,
      attrs,
    } = args;
    const dataFormat = backend_util.convertConv2DDataFormat(attrs.dataFormat);
    const conv = backend_util.computeConv2DInfo(
      x.shape,
      filter.shape,
      attrs.strides,
      attrs.dilations,
      attrs.pad,
      attrs.dimRoundingMode,
      false,
      dataFormat,
    );
    const { top, bottom, left, right } = conv.padInfo;
    const pointwise =
      conv.filterHeight === 1 &&
      conv.filterWidth === 1 &&
      conv.strideHeight === 1 &&
      conv.strideWidth === 1 &&
      conv.dilationHeight === 1 &&
      conv.dilationWidth === 1 &&
      top + bottom + left + right === 0 &&
      conv.dataFormat === "channelsLast";
    const pixels = conv.batchSize * conv.inHeight * conv.inWidth;
    if (
      !pointwise ||
      x.dtype !== "float32" ||
      filter.dtype !== "float32" ||
      pixels * conv.inChannels * conv.outChannels === 0
    ) {
      return wasmConv2D.kernelFunc(args);
    }
    // A 1×1 convolution over NHWC pixels is [pixels, in] × [in, out].
    const out = backend.makeOutput(conv.outShape, "float32");
    return multiply(backend, {
      a: x,
      batchA: 1,
      transposeA: false,
      b: filter,
      batchB: 1,
      transposeB: false,
      m: pixels,
      k: conv.inChannels,
      n: conv.outChannels,
      out,
    });
  }

  for (const [original, kernelFunc] of [
    [wasmBatchMatMul, batchMatMul],
    [wasmConv2D, conv2D],
  ]) {
    unregisterKernel(original.kernelName, original.backendName);
    registerKernel({ ...original, kernelFunc });
  }
}
