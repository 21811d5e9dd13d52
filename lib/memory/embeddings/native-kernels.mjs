// Which matrix products run the local embedder: the native addon in native/matmul (AVX-512, AVX2 or a
// portable kernel), under the model's forward pass written out (use-lite-forward.mjs), or TensorFlow.js's
// WASM kernels under the model's graph. The vectors are the same either way (within 1e-5).

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
