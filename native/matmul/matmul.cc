// Float32 matrix products for the local embedder's forward pass (lib/memory/embeddings/use-lite-forward.mjs),
// computed natively in the ArrayBuffer that holds its activations, on the CPU's AVX-512 or AVX2 units when it
// has them, and the few elementwise steps between them (bias, residual, layer norm).
//
// The addon is built for no CPU in particular, because an install may be copied or containerized onto
// another machine: each kernel is compiled for its own instruction set (a function attribute), and the
// best one this CPU reports is chosen at run time. The portable kernel is plain C++ for any CPU.
//
// The right-hand matrix is first packed into panels of 32 columns, each panel contiguous, so the
// inner loop reads memory in order: read in place, a weight row is 6 KB from the next and the
// hardware prefetcher, which stops at page boundaries, leaves every step waiting on memory.
// The model's weights are packed once (the caller keeps the packed copy); activations per call.
// The float and fp16 blocks read the same packed layout and sum each product over k in the same order.
//
// Where the CPU has AVX512_BF16 (and the compiler knows it: GCC 10, clang 9 and later), a query's products may instead run on bfloat16 pairs (packBf16,
// matMulPackedBf16): the weights and the left-hand rows rounded to bf16, each instruction summing two
// products of a pair of k into float sums, twice the products an instruction of the float kernel computes.
#include <node_api.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <string>
#include <vector>

namespace {

constexpr int kPanel = 32;

int64_t panelsOf(int64_t n) { return (n + kPanel - 1) / kPanel; }

// b is [k, n] (or [n, k] when transposed), row-major; packed is [panelsOf(n)][k][32], zero-padded.
void pack(const float* b, bool transposed, int64_t k, int64_t n, float* packed) {
  const int64_t panels = panelsOf(n);
  std::memset(packed, 0, sizeof(float) * panels * k * kPanel);
  if (!transposed) {
    for (int64_t p = 0; p < k; ++p) {
      const float* row = b + p * n;
      for (int64_t j = 0; j < n; ++j) packed[(j / kPanel) * k * kPanel + p * kPanel + j % kPanel] = row[j];
    }
  } else {
    for (int64_t j = 0; j < n; ++j) {
      const float* row = b + j * k;
      float* out = packed + (j / kPanel) * k * kPanel + j % kPanel;
      for (int64_t p = 0; p < k; ++p) out[p * kPanel] = row[p];
    }
  }
}

// IEEE half precision (fp16), round to nearest even (overflow to infinity, small values to subnormals or zero): the
// packed copy of the weights a query's products read. A query is a few rows, so its products wait on the weights
// coming from memory rather than on arithmetic; as fp16 they are half the bytes.
uint16_t toHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude >= 0x7F800000u) return (uint16_t)(sign | 0x7C00u | (magnitude > 0x7F800000u ? 0x200u : 0));
  if (magnitude >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);  // rounds past 65504
  if (magnitude < 0x38800000u) {                                     // below 2^-14: a subnormal half, or zero
    if (magnitude < 0x33000000u) return (uint16_t)sign;
    const uint32_t mantissa = (magnitude & 0x7FFFFFu) | 0x800000u;
    const int shift = 126 - (int)(magnitude >> 23);  // 14 to 24
    const uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1), midpoint = 1u << (shift - 1);
    return (uint16_t)(sign | (half + (rest > midpoint || (rest == midpoint && (half & 1)))));
  }
  const uint32_t rebased = magnitude - 0x38000000u;  // the exponent's bias from 127 to 15
  const uint32_t half = rebased >> 13, rest = rebased & 0x1FFFu;
  return (uint16_t)(sign | (half + (rest > 0x1000u || (rest == 0x1000u && (half & 1)))));
}

// bfloat16, round to nearest even (NaN stays NaN): the upper half of the float's bits, rounded. The weights of
// matMulPackedBf16 (packBf16); its left-hand rows are rounded by the CPU's own conversion, to the same values
// (the CPU's conversion and products take a value below 2^-126 as zero).
uint16_t toBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((bits >> 16) | 0x40u);
  return (uint16_t)((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16);
}

// Pairs of k: the bf16 layout reads two k at a time, the second of the last pair zero when k is odd.
int64_t pairsOf(int64_t k) { return k / 2 + (k & 1); }

// A block: `rows` rows of c (ldc apart) by one 32-column panel (the last `width` columns valid), over
// the whole depth k.
using Block = void (*)(const float* a, int64_t lda, const float* panel, int64_t k, float* c, int64_t ldc, int width);
// The same over a panel of fp16 weights.
using Fp16Block = void (*)(const float* a, int64_t lda, const uint16_t* panel, int64_t k, float* c, int64_t ldc,
                           int width);
// The same over bf16 pairs: `a` is the rows as bf16 pairs (each a 32-bit word, lda words apart), the panel
// [pairs][32 columns][2 of k], `pairs` of them.
using Bf16Block = void (*)(const uint32_t* a, int64_t lda, const uint16_t* panel, int64_t pairs, float* c,
                           int64_t ldc, int width);

#if defined(__x86_64__)
// Sixteen weights as floats. Inlined always: on its own, the function would carry AVX-512 outside a block.
__attribute__((target("avx512f"), always_inline)) inline __m512 load16Avx512(const float* from) {
  return _mm512_loadu_ps(from);
}
__attribute__((target("avx512f"), always_inline)) inline __m512 load16Avx512(const uint16_t* from) {
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(from)));
}

template <int ROWS, typename Weight>
__attribute__((target("avx512f"))) void blockAvx512(const float* a, int64_t lda, const Weight* panel, int64_t k,
                                                    float* c, int64_t ldc, int width) {
  __m512 acc[ROWS][2];
  for (int r = 0; r < ROWS; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
  for (int64_t p = 0; p < k; ++p) {
    const __m512 b0 = load16Avx512(panel + p * kPanel);
    const __m512 b1 = load16Avx512(panel + p * kPanel + 16);
    for (int r = 0; r < ROWS; ++r) {
      const __m512 av = _mm512_set1_ps(a[r * lda + p]);
      acc[r][0] = _mm512_fmadd_ps(av, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(av, b1, acc[r][1]);
    }
  }
  const __mmask16 low = width >= 16 ? 0xFFFF : (__mmask16)((1u << width) - 1);
  const __mmask16 high = width >= 32 ? 0xFFFF : width <= 16 ? 0 : (__mmask16)((1u << (width - 16)) - 1);
  for (int r = 0; r < ROWS; ++r) {
    _mm512_mask_storeu_ps(c + r * ldc, low, acc[r][0]);
    _mm512_mask_storeu_ps(c + r * ldc + 16, high, acc[r][1]);
  }
}

// The bf16 products need a compiler that knows AVX512_BF16; an older one builds the addon without them.
#if (defined(__clang__) && __clang_major__ >= 9) || (!defined(__clang__) && __GNUC__ >= 10)
#define MEMGW_BF16 1
// As blockAvx512, each step two k: _mm512_dpbf16_ps adds a row's pair times the panel's pairs, 16 columns at a
// time.
template <int ROWS>
__attribute__((target("avx512f,avx512bf16"))) void blockBf16Avx512(const uint32_t* a, int64_t lda,
                                                                   const uint16_t* panel, int64_t pairs, float* c,
                                                                   int64_t ldc, int width) {
  __m512 acc[ROWS][2];
  for (int r = 0; r < ROWS; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
  for (int64_t p = 0; p < pairs; ++p) {
    const __m512bh b0 = (__m512bh)_mm512_loadu_si512(panel + p * 2 * kPanel);
    const __m512bh b1 = (__m512bh)_mm512_loadu_si512(panel + p * 2 * kPanel + kPanel);
    for (int r = 0; r < ROWS; ++r) {
      const __m512bh av = (__m512bh)_mm512_set1_epi32((int)a[r * lda + p]);
      acc[r][0] = _mm512_dpbf16_ps(acc[r][0], av, b0);
      acc[r][1] = _mm512_dpbf16_ps(acc[r][1], av, b1);
    }
  }
  const __mmask16 low = width >= 16 ? 0xFFFF : (__mmask16)((1u << width) - 1);
  const __mmask16 high = width >= 32 ? 0xFFFF : width <= 16 ? 0 : (__mmask16)((1u << (width - 16)) - 1);
  for (int r = 0; r < ROWS; ++r) {
    _mm512_mask_storeu_ps(c + r * ldc, low, acc[r][0]);
    _mm512_mask_storeu_ps(c + r * ldc + 16, high, acc[r][1]);
  }
}

// a ([m, k] floats) as bf16 pairs into `out` ([m, pairsOf(k)] words), rounded to nearest even by the CPU.
__attribute__((target("avx512f,avx512bw,avx512bf16"))) void bf16RowsAvx512(const float* a, int64_t m, int64_t k,
                                                                           uint32_t* out) {
  const int64_t pairs = pairsOf(k);
  for (int64_t r = 0; r < m; ++r) {
    const float* row = a + r * k;
    uint16_t* to = reinterpret_cast<uint16_t*>(out + r * pairs);
    for (int64_t j = 0; j < 2 * pairs; j += 32) {
      // Past k (the last pair of an odd k, or the row's end), zeros.
      const int64_t left = k - j;
      const __mmask16 low = left >= 16 ? 0xFFFF : left <= 0 ? 0 : (__mmask16)((1u << left) - 1);
      const __mmask16 high = left >= 32 ? 0xFFFF : left <= 16 ? 0 : (__mmask16)((1u << (left - 16)) - 1);
      const __m512 lo = _mm512_maskz_loadu_ps(low, row + j), hi = _mm512_maskz_loadu_ps(high, row + j + 16);
      const __m512i both = (__m512i)_mm512_cvtne2ps_pbh(hi, lo);
      const int64_t words = 2 * pairs - j < 32 ? 2 * pairs - j : 32;  // bf16 values of this step to keep
      _mm512_mask_storeu_epi16(to + j, words >= 32 ? ~(__mmask32)0 : (__mmask32)((1u << words) - 1), both);
    }
  }
}

bool cpuRunsAvx512Bf16() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16") &&
         __builtin_cpu_supports("avx512bw");
}
#endif

// AVX2 has 16 vector registers: 6 rows by 16 columns keep 12 sums in them, with room for the panel's
// values. A half panel is one cache line a step, read once for the 6 rows.
// Eight weights as floats. F16C is enabled for the blocks over fp16 weights; the compiler emits its instructions
// only for those conversions, so the blocks over floats run on an AVX2 CPU without it.
__attribute__((target("avx2,fma,f16c"), always_inline)) inline __m256 load8Avx2(const float* from) {
  return _mm256_loadu_ps(from);
}
__attribute__((target("avx2,fma,f16c"), always_inline)) inline __m256 load8Avx2(const uint16_t* from) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from)));
}

template <int ROWS, typename Weight>
__attribute__((target("avx2,fma,f16c"))) void halfBlockAvx2(const float* a, int64_t lda, const Weight* half,
                                                            int64_t k, float* c, int64_t ldc, int columns) {
  __m256 acc[ROWS][2];
  for (int r = 0; r < ROWS; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
  // k > 0: written as do-while, GCC -O3 keeps the sums in registers; a for loop has it also store
  // them to the stack at every step, which halves the speed.
  int64_t p = 0;
  do {
    const __m256 b0 = load8Avx2(half + p * kPanel);
    const __m256 b1 = load8Avx2(half + p * kPanel + 8);
    for (int r = 0; r < ROWS; ++r) {
      const __m256 av = _mm256_broadcast_ss(a + r * lda + p);
      acc[r][0] = _mm256_fmadd_ps(av, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(av, b1, acc[r][1]);
    }
  } while (++p < k);
  // Masked, for the last panel of a row: the columns past n belong to the next row of c.
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i low = _mm256_cmpgt_epi32(_mm256_set1_epi32(columns), lane);
  const __m256i high = _mm256_cmpgt_epi32(_mm256_set1_epi32(columns - 8), lane);
  for (int r = 0; r < ROWS; ++r) {
    _mm256_maskstore_ps(c + r * ldc, low, acc[r][0]);
    _mm256_maskstore_ps(c + r * ldc + 8, high, acc[r][1]);
  }
}

template <int ROWS, typename Weight>
__attribute__((target("avx2,fma,f16c"))) void blockAvx2(const float* a, int64_t lda, const Weight* panel, int64_t k,
                                                        float* c, int64_t ldc, int width) {
  halfBlockAvx2<ROWS>(a, lda, panel, k, c, ldc, width < 16 ? width : 16);
  if (width > 16) halfBlockAvx2<ROWS>(a, lda, panel + 16, k, c + 16, ldc, width - 16);
}

bool cpuRunsAvx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}

bool cpuRunsAvx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

bool cpuRunsAvx2Fp16() { return cpuRunsAvx2() && __builtin_cpu_supports("f16c"); }
#endif

// Plain C++, compiled for the architecture's baseline (SSE2 on x86-64, NEON on aarch64) and vectorized
// by the compiler for it. (Narrower blocks, meant to keep the sums in registers, had GCC vectorize
// across k with shuffles instead: 5 times slower.)
template <int ROWS>
void blockPortable(const float* a, int64_t lda, const float* panel, int64_t k, float* c, int64_t ldc, int width) {
  float acc[ROWS][kPanel] = {};
  int64_t p = 0;
  do {  // k > 0; see halfBlockAvx2
    for (int r = 0; r < ROWS; ++r)
      for (int j = 0; j < kPanel; ++j) acc[r][j] += a[r * lda + p] * panel[p * kPanel + j];
  } while (++p < k);
  for (int r = 0; r < ROWS; ++r)
    for (int j = 0; j < width; ++j) c[r * ldc + j] = acc[r][j];
}

bool anyCpu() { return true; }

struct Kernel {
  const char* name;
  // Whether this CPU, and its operating system, runs the kernel's instructions; and those of its blocks over
  // fp16 weights (none for a kernel without them).
  bool (*cpuRuns)();
  bool (*cpuRunsFp16)();
  int rowsPerBlock;
  // blocks[rows] computes `rows` rows, for rows from 1 to rowsPerBlock; fp16Blocks the same over fp16 weights.
  Block blocks[9];
  Fp16Block fp16Blocks[9];
  // Where the kernel has them, its products on bf16 pairs: whether this CPU runs them, the left-hand rows'
  // conversion, and the blocks (rowsPerBlock rows at most, as the others).
  bool (*cpuRunsBf16)() = nullptr;
  void (*bf16Rows)(const float* a, int64_t m, int64_t k, uint32_t* out) = nullptr;
  Bf16Block bf16Blocks[9] = {};
  bool readsFp16() const { return cpuRunsFp16 != nullptr && cpuRunsFp16(); }
  bool readsBf16() const { return cpuRunsBf16 != nullptr && cpuRunsBf16(); }
};

// The blocks of 1 to 6, or 8, rows over panels of `Weight`, from blocks[1] (blocks[0] is never called).
#define BLOCKS_6(block, Weight) \
  nullptr, block<1, Weight>, block<2, Weight>, block<3, Weight>, block<4, Weight>, block<5, Weight>, block<6, Weight>
#define BLOCKS_8(block, Weight) BLOCKS_6(block, Weight), block<7, Weight>, block<8, Weight>

// Best first.
const Kernel kKernels[] = {
#if defined(__x86_64__)
    {"avx512",
     cpuRunsAvx512,
     cpuRunsAvx512,
     8,
     {BLOCKS_8(blockAvx512, float)},
     {BLOCKS_8(blockAvx512, uint16_t)},
#ifdef MEMGW_BF16
     cpuRunsAvx512Bf16,
     bf16RowsAvx512,
     {nullptr, blockBf16Avx512<1>, blockBf16Avx512<2>, blockBf16Avx512<3>, blockBf16Avx512<4>, blockBf16Avx512<5>,
      blockBf16Avx512<6>, blockBf16Avx512<7>, blockBf16Avx512<8>}
#endif
    },
    {"avx2", cpuRunsAvx2, cpuRunsAvx2Fp16, 6, {BLOCKS_6(blockAvx2, float)}, {BLOCKS_6(blockAvx2, uint16_t)}},
#endif
    // Widening fp16 weights in software cost a query's products 8 times the floats' time: floats only.
    {"portable", anyCpu, nullptr, 2, {nullptr, blockPortable<1>, blockPortable<2>}, {}},
};

// c[m, n] = a x b, b packed (as floats, fp16 or bf16 pairs: Format) and read by `blocks`; `a` is m rows of
// `depth` values (floats along k, or bf16 pairs), and each panel of b `panelSize` values.
template <typename Left, typename Weight, typename Blocks>
void gemm(const Kernel& kernel, const Blocks& blocks, const Left* a, int64_t depth, const Weight* packed,
          int64_t panelSize, float* c, int64_t m, int64_t n) {
  for (int64_t panel = 0; panel < panelsOf(n); ++panel) {
    const int64_t column = panel * kPanel;
    const int width = (int)(n - column < kPanel ? n - column : kPanel);
    for (int64_t row = 0; row < m; row += kernel.rowsPerBlock) {
      const int rows = (int)(m - row < kernel.rowsPerBlock ? m - row : kernel.rowsPerBlock);
      blocks[rows](a + row * depth, depth, packed + panel * panelSize, depth, c + row * n + column, n, width);
    }
  }
}

void transpose(const float* src, int64_t rows, int64_t cols, float* dst) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst[c * rows + r] = src[r * cols + c];
}

// Reads a call's arguments: an ArrayBuffer (`memory`), then `intCount` integers; throws (and answers
// false) on anything else. `kernel` is the one the function was made for.
bool readArguments(napi_env env, napi_callback_info info, size_t expected, napi_value* argv, uint8_t** memory,
                   size_t* length, int64_t* ints, int intCount, const Kernel** kernel = nullptr) {
  size_t count = expected;
  void* data = nullptr;
  napi_get_cb_info(env, info, &count, argv, nullptr, &data);
  if (kernel) *kernel = static_cast<const Kernel*>(data);
  if (count != expected) {
    napi_throw_type_error(env, nullptr, "wrong number of arguments");
    return false;
  }
  void* buffer = nullptr;
  if (napi_get_arraybuffer_info(env, argv[0], &buffer, length) != napi_ok) {
    napi_throw_type_error(env, nullptr, "memory must be an ArrayBuffer");
    return false;
  }
  *memory = static_cast<uint8_t*>(buffer);
  for (int i = 0; i < intCount; ++i) {
    if (napi_get_value_int64(env, argv[i + 1], &ints[i]) != napi_ok) {
      napi_throw_type_error(env, nullptr, "offsets and sizes must be numbers");
      return false;
    }
  }
  return true;
}

bool readBool(napi_env env, napi_value value, bool* result) {
  if (napi_get_value_bool(env, value, result) == napi_ok) return true;
  napi_throw_type_error(env, nullptr, "transpositions must be booleans");
  return false;
}

// The bytes of a float matrix of these sizes; -1 when a size is not positive or the product overflows,
// so that no size can wrap around to a small matrix that passes the bounds check.
int64_t bytesOf(std::initializer_list<int64_t> sizes) {
  int64_t bytes = sizeof(float);
  for (const int64_t size : sizes)
    if (size <= 0 || __builtin_mul_overflow(bytes, size, &bytes)) return -1;
  return bytes;
}

bool inside(napi_env env, int64_t offset, int64_t bytes, size_t length) {
  if (offset < 0 || offset % 4 != 0 || bytes <= 0 || offset > (int64_t)length || bytes > (int64_t)length - offset) {
    napi_throw_range_error(env, nullptr, "matrix outside memory");
    return false;
  }
  return true;
}

// The index-th left-hand matrix as [m, k]; one stored as [k, m] is transposed into `scratch`.
const float* leftMatrix(const uint8_t* memory, int64_t offset, int64_t index, int64_t m, int64_t k, bool transposed,
                        std::vector<float>& scratch) {
  const float* a = reinterpret_cast<const float*>(memory + offset) + index * m * k;
  if (!transposed) return a;
  scratch.resize(m * k);
  transpose(a, k, m, scratch.data());
  return scratch.data();
}

// How a packed matrix holds its weights: floats (pack), fp16 values (packFp16), or bf16 pairs of k (packBf16).
enum class Format { Float, Fp16, Bf16 };

// The values along k a packed panel holds per column: k, or for bf16 pairs k rounded up to even.
int64_t depthOf(Format format, int64_t k) { return format == Format::Bf16 ? 2 * pairsOf(k) : k; }

// The bytes of a [k, n] matrix packed ([panelsOf(n)][depth][32] floats, fp16 or bf16 values; a bf16 panel's 32
// columns are pairs of k, [depth / 2][32][2]); -1 when a size is not positive or the product overflows (no
// length then equals it).
template <Format format>
int64_t packedBytes(int64_t k, int64_t n) {
  int64_t bytes = format == Format::Float ? sizeof(float) : sizeof(uint16_t);
  for (const int64_t size : {n > 0 ? panelsOf(n) : 0, k > 0 ? depthOf(format, k) : 0, (int64_t)kPanel})
    if (size <= 0 || __builtin_mul_overflow(bytes, size, &bytes)) return -1;
  return bytes;
}

// pack(memory, offset, k, n, transposed) -> ArrayBuffer: b ([k, n], or [n, k] when transposed) packed; with
// packFp16, each weight rounded to half precision, in half the bytes; with packBf16, rounded to bf16 and
// laid out in pairs of k, as matMulPackedBf16 reads them.
template <Format format>
napi_value Pack(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  uint8_t* memory;
  size_t length;
  int64_t v[3];
  bool transposed;
  if (!readArguments(env, info, 5, argv, &memory, &length, v, 3) || !readBool(env, argv[4], &transposed))
    return nullptr;
  const int64_t offset = v[0], k = v[1], n = v[2];
  if (!inside(env, offset, bytesOf({k, n}), length)) return nullptr;
  const int64_t count = panelsOf(n) * k * kPanel;
  void* packed = nullptr;
  napi_value result;
  if (napi_create_arraybuffer(env, packedBytes<format>(k, n), &packed, &result) != napi_ok) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (!pending) napi_throw_range_error(env, nullptr, "no memory for the packed matrix");
    return nullptr;
  }
  const float* b = reinterpret_cast<const float*>(memory + offset);
  if constexpr (format == Format::Float) {
    pack(b, transposed, k, n, static_cast<float*>(packed));
    return result;
  }
  try {
    std::vector<float> floats(count);
    pack(b, transposed, k, n, floats.data());
    uint16_t* out = static_cast<uint16_t*>(packed);
    if constexpr (format == Format::Fp16) {
      for (int64_t i = 0; i < count; ++i) out[i] = toHalf(floats[i]);
    } else {
      const int64_t depth = depthOf(format, k);
      std::memset(out, 0, sizeof(uint16_t) * panelsOf(n) * depth * kPanel);  // an odd k's last pair ends in 0
      for (int64_t panel = 0; panel < panelsOf(n); ++panel)
        for (int64_t p = 0; p < k; ++p)
          for (int j = 0; j < kPanel; ++j)
            out[panel * depth * kPanel + (p / 2) * 2 * kPanel + 2 * j + p % 2] =
                toBf16(floats[panel * k * kPanel + p * kPanel + j]);
    }
  } catch (const std::bad_alloc&) {
    napi_throw_range_error(env, nullptr, "no memory for the packed matrix");
    return nullptr;
  }
  return result;
}

// matMulPacked(memory, aOffset, batch, m, k, outOffset, n, transposeA, packedB): for each of `batch`
// left-hand matrices a ([m, k], or [k, m] when transposeA), out = a x b, with b packed by pack(); with
// matMulPackedFp16, b packed by packFp16(); with matMulPackedBf16, b packed by packBf16() and each a rounded to
// bf16 as well. The sums are in float in every case.
template <Format format>
napi_value MatMulPacked(napi_env env, napi_callback_info info) {
  napi_value argv[9];
  uint8_t* memory;
  size_t length;
  int64_t v[6];
  const Kernel* kernel;
  bool transposeA;
  if (!readArguments(env, info, 9, argv, &memory, &length, v, 6, &kernel) || !readBool(env, argv[7], &transposeA))
    return nullptr;
  const int64_t aOffset = v[0], batch = v[1], m = v[2], k = v[3], outOffset = v[4], n = v[5];
  void* packed = nullptr;
  size_t packedLength = 0;
  if (napi_get_arraybuffer_info(env, argv[8], &packed, &packedLength) != napi_ok) {
    napi_throw_type_error(env, nullptr, "packedB must be an ArrayBuffer");
    return nullptr;
  }
  if (!inside(env, aOffset, bytesOf({batch, m, k}), length) || !inside(env, outOffset, bytesOf({batch, m, n}), length))
    return nullptr;
  if ((int64_t)packedLength != packedBytes<format>(k, n)) {
    napi_throw_range_error(env, nullptr, "packed matrix of another shape");
    return nullptr;
  }
  // Not offered then (kernelObject): never a null block.
  if ((format == Format::Fp16 && !kernel->readsFp16()) || (format == Format::Bf16 && !kernel->readsBf16())) {
    napi_throw_error(env, nullptr, "this kernel has no products on weights packed so");
    return nullptr;
  }
  try {
    std::vector<float> scratch;
    std::vector<uint32_t> pairs;
    for (int64_t index = 0; index < batch; ++index) {
      const float* a = leftMatrix(memory, aOffset, index, m, k, transposeA, scratch);
      float* out = reinterpret_cast<float*>(memory + outOffset) + index * m * n;
      if constexpr (format == Format::Float) {
        gemm(*kernel, kernel->blocks, a, k, static_cast<const float*>(packed), k * kPanel, out, m, n);
      } else if constexpr (format == Format::Fp16) {
        gemm(*kernel, kernel->fp16Blocks, a, k, static_cast<const uint16_t*>(packed), k * kPanel, out, m, n);
      } else {
        pairs.resize(m * pairsOf(k));
        kernel->bf16Rows(a, m, k, pairs.data());
        gemm(*kernel, kernel->bf16Blocks, pairs.data(), pairsOf(k), static_cast<const uint16_t*>(packed),
             depthOf(format, k) * kPanel, out, m, n);
      }
    }
  } catch (const std::bad_alloc&) {
    napi_throw_range_error(env, nullptr, "no memory for the transposed matrix");
  }
  return nullptr;
}

// batchMatMul(memory, aOffset, bOffset, outOffset, batchA, batchB, m, k, n, transposeA, transposeB):
// a is [batchA, m, k] ([batchA, k, m] when transposeA), b is [batchB, k, n] ([batchB, n, k] when
// transposeB); a batch of 1 broadcasts. Offsets are in bytes.
napi_value BatchMatMul(napi_env env, napi_callback_info info) {
  napi_value argv[11];
  uint8_t* memory;
  size_t length;
  int64_t v[8];
  const Kernel* kernel;
  bool transposeA, transposeB;
  if (!readArguments(env, info, 11, argv, &memory, &length, v, 8, &kernel) || !readBool(env, argv[9], &transposeA) ||
      !readBool(env, argv[10], &transposeB))
    return nullptr;
  const int64_t aOffset = v[0], bOffset = v[1], outOffset = v[2], batchA = v[3], batchB = v[4];
  const int64_t m = v[5], k = v[6], n = v[7], batch = batchA > batchB ? batchA : batchB;
  if ((batchA != batchB && batchA != 1 && batchB != 1) || !inside(env, aOffset, bytesOf({batchA, m, k}), length) ||
      !inside(env, bOffset, bytesOf({batchB, k, n}), length) || !inside(env, outOffset, bytesOf({batch, m, n}), length))
    return nullptr;
  try {
    std::vector<float> scratch, packed(panelsOf(n) * k * kPanel);
    for (int64_t index = 0; index < batch; ++index) {
      const float* b = reinterpret_cast<const float*>(memory + bOffset) + (batchB == 1 ? 0 : index) * k * n;
      if (index == 0 || batchB != 1) pack(b, transposeB, k, n, packed.data());
      const float* a = leftMatrix(memory, aOffset, batchA == 1 ? 0 : index, m, k, transposeA, scratch);
      gemm(*kernel, kernel->blocks, a, k, packed.data(), k * kPanel,
           reinterpret_cast<float*>(memory + outOffset) + index * m * n, m, n);
    }
  } catch (const std::bad_alloc&) {
    napi_throw_range_error(env, nullptr, "no memory for the packed matrix");
  }
  return nullptr;
}

// The elementwise steps of the embedder's forward pass around the products (lib/memory/embeddings/
// use-lite-forward.mjs): plain loops the compiler vectorizes for the x86-64 baseline, where JavaScript's scalar
// float32 arithmetic cost a short query a third of its time.

// Reads a vector argument: an ArrayBuffer of exactly `n` floats.
bool readVector(napi_env env, napi_value value, int64_t n, const float** data) {
  void* buffer = nullptr;
  size_t length = 0;
  if (napi_get_arraybuffer_info(env, value, &buffer, &length) != napi_ok) {
    napi_throw_type_error(env, nullptr, "vectors must be ArrayBuffers");
    return false;
  }
  if ((int64_t)length != bytesOf({n})) {
    napi_throw_range_error(env, nullptr, "vector of another length");
    return false;
  }
  *data = static_cast<const float*>(buffer);
  return true;
}

// addBias(memory, offset, rows, n, bias, relu): each row of the [rows, n] matrix at `offset` plus `bias` (an
// ArrayBuffer of n floats), then max(0, x) when `relu`.
napi_value AddBias(napi_env env, napi_callback_info info) {
  napi_value argv[6];
  uint8_t* memory;
  size_t length;
  int64_t v[3];
  const float* bias;
  bool relu;
  if (!readArguments(env, info, 6, argv, &memory, &length, v, 3) || !readBool(env, argv[5], &relu)) return nullptr;
  const int64_t offset = v[0], rows = v[1], n = v[2];
  if (!inside(env, offset, bytesOf({rows, n}), length) || !readVector(env, argv[4], n, &bias)) return nullptr;
  float* out = reinterpret_cast<float*>(memory + offset);
  for (int64_t row = 0; row < rows; ++row, out += n) {
    for (int64_t j = 0; j < n; ++j) out[j] += bias[j];
    if (relu)
      for (int64_t j = 0; j < n; ++j) out[j] = out[j] > 0.0f ? out[j] : 0.0f;
  }
  return nullptr;
}

// addInto(memory, outOffset, inOffset, count): out[i] += in[i] for `count` floats.
napi_value AddInto(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  uint8_t* memory;
  size_t length;
  int64_t v[3];
  if (!readArguments(env, info, 4, argv, &memory, &length, v, 3)) return nullptr;
  const int64_t outOffset = v[0], inOffset = v[1], count = v[2];
  if (!inside(env, outOffset, bytesOf({count}), length) || !inside(env, inOffset, bytesOf({count}), length))
    return nullptr;
  float* out = reinterpret_cast<float*>(memory + outOffset);
  const float* in = reinterpret_cast<const float*>(memory + inOffset);
  for (int64_t i = 0; i < count; ++i) out[i] += in[i];
  return nullptr;
}

// layerNorm(memory, inOffset, outOffset, rows, n, scale, bias, epsilon): each row of the [rows, n] matrix at
// inOffset, less its mean, over the square root of its variance plus epsilon, times scale plus bias (ArrayBuffers
// of n floats), written at outOffset (which may be inOffset).
napi_value LayerNorm(napi_env env, napi_callback_info info) {
  napi_value argv[8];
  uint8_t* memory;
  size_t length;
  int64_t v[4];
  const float *scale, *bias;
  double epsilon;
  if (!readArguments(env, info, 8, argv, &memory, &length, v, 4)) return nullptr;
  const int64_t inOffset = v[0], outOffset = v[1], rows = v[2], n = v[3];
  if (!inside(env, inOffset, bytesOf({rows, n}), length) || !inside(env, outOffset, bytesOf({rows, n}), length) ||
      !readVector(env, argv[5], n, &scale) || !readVector(env, argv[6], n, &bias))
    return nullptr;
  if (napi_get_value_double(env, argv[7], &epsilon) != napi_ok) {
    napi_throw_type_error(env, nullptr, "epsilon must be a number");
    return nullptr;
  }
  for (int64_t row = 0; row < rows; ++row) {
    const float* in = reinterpret_cast<const float*>(memory + inOffset) + row * n;
    float* out = reinterpret_cast<float*>(memory + outOffset) + row * n;
    double sum = 0;
    for (int64_t j = 0; j < n; ++j) sum += in[j];
    const float mean = (float)(sum / n);
    double squares = 0;
    for (int64_t j = 0; j < n; ++j) squares += (double)(in[j] - mean) * (in[j] - mean);
    const float inverse = (float)(1.0 / std::sqrt((double)((float)(squares / n) + (float)epsilon)));
    for (int64_t j = 0; j < n; ++j) out[j] = scale[j] * inverse * (in[j] - mean) + bias[j];
  }
  return nullptr;
}

napi_value stringOf(napi_env env, const char* text) {
  napi_value value;
  napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &value);
  return value;
}

// { instructionSet, pack, matMulPacked, batchMatMul } with the products computed by `kernel`, packFp16 and
// matMulPackedFp16 where this CPU runs its blocks over fp16 weights, packBf16 and matMulPackedBf16 where it runs
// those over bf16 pairs, and the elementwise steps addBias, addInto and layerNorm.
napi_value kernelObject(napi_env env, const Kernel& kernel, napi_value object) {
  void* data = const_cast<Kernel*>(&kernel);
  const napi_property_descriptor properties[] = {
      {"instructionSet", nullptr, nullptr, nullptr, nullptr, stringOf(env, kernel.name), napi_enumerable, nullptr},
      {"pack", nullptr, Pack<Format::Float>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"matMulPacked", nullptr, MatMulPacked<Format::Float>, nullptr, nullptr, nullptr, napi_enumerable, data},
      {"batchMatMul", nullptr, BatchMatMul, nullptr, nullptr, nullptr, napi_enumerable, data},
      {"addBias", nullptr, AddBias, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"addInto", nullptr, AddInto, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"layerNorm", nullptr, LayerNorm, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
  };
  napi_define_properties(env, object, sizeof properties / sizeof properties[0], properties);
  const napi_property_descriptor fp16[] = {
      {"packFp16", nullptr, Pack<Format::Fp16>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"matMulPackedFp16", nullptr, MatMulPacked<Format::Fp16>, nullptr, nullptr, nullptr, napi_enumerable, data},
  };
  if (kernel.readsFp16()) napi_define_properties(env, object, 2, fp16);
  const napi_property_descriptor bf16[] = {
      {"packBf16", nullptr, Pack<Format::Bf16>, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"matMulPackedBf16", nullptr, MatMulPacked<Format::Bf16>, nullptr, nullptr, nullptr, napi_enumerable, data},
  };
  if (kernel.readsBf16()) napi_define_properties(env, object, 2, bf16);
  return object;
}

// Every kernel built in, or only those this CPU runs; best first.
std::vector<const Kernel*> kernelsBuilt(bool runnableOnly) {
  std::vector<const Kernel*> kernels;
  for (const Kernel& kernel : kKernels)
    if (!runnableOnly || kernel.cpuRuns()) kernels.push_back(&kernel);
  return kernels;
}

napi_value namesOf(napi_env env, const std::vector<const Kernel*>& kernels) {
  napi_value names;
  napi_create_array(env, &names);
  for (size_t i = 0; i < kernels.size(); ++i)
    napi_set_element(env, names, (uint32_t)i, stringOf(env, kernels[i]->name));
  return names;
}

std::string listOf(const std::vector<const Kernel*>& kernels) {
  std::string list;
  for (const Kernel* kernel : kernels) list += (list.empty() ? "" : ", ") + std::string(kernel->name);
  return list;
}

// kernel(name) -> { instructionSet, pack, matMulPacked, batchMatMul } on that kernel; throws when the
// addon has no such kernel or this CPU does not report its instructions (running them would kill the
// process with an illegal instruction).
napi_value KernelByName(napi_env env, napi_callback_info info) {
  size_t count = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &count, argv, nullptr, nullptr);
  char name[16] = {};
  size_t nameLength = 0;
  if (count < 1 || napi_get_value_string_utf8(env, argv[0], name, sizeof name, &nameLength) != napi_ok) {
    napi_throw_type_error(env, nullptr, "the kernel's name must be a string");
    return nullptr;
  }
  for (const Kernel& kernel : kKernels) {
    // Compared with its length: a name with a NUL inside, or cut to 15 bytes, is no kernel's name.
    if (nameLength != std::strlen(kernel.name) || std::memcmp(kernel.name, name, nameLength) != 0) continue;
    if (!kernel.cpuRuns()) {
      const std::string message = std::string("this CPU does not report the instructions of the ") + kernel.name +
                                  " kernel; it runs " + listOf(kernelsBuilt(true));
      napi_throw_error(env, "ERR_KERNEL_UNSUPPORTED", message.c_str());
      return nullptr;
    }
    napi_value object;
    napi_create_object(env, &object);
    return kernelObject(env, kernel, object);
  }
  const std::string message = "the addon has no kernel of that name; it has " + listOf(kernelsBuilt(false));
  napi_throw_error(env, "ERR_KERNEL_UNKNOWN", message.c_str());
  return nullptr;
}

// exports: instructionSets (every kernel built in, best first), runnableInstructionSets (those this CPU
// runs), kernel(name), and the best runnable kernel's own instructionSet, pack, matMulPacked, batchMatMul.
napi_value Init(napi_env env, napi_value exports) {
  const std::vector<const Kernel*> runnable = kernelsBuilt(true);  // never empty: the portable kernel runs anywhere
  const napi_property_descriptor properties[] = {
      {"instructionSets", nullptr, nullptr, nullptr, nullptr, namesOf(env, kernelsBuilt(false)), napi_enumerable,
       nullptr},
      {"runnableInstructionSets", nullptr, nullptr, nullptr, nullptr, namesOf(env, runnable), napi_enumerable, nullptr},
      {"kernel", nullptr, KernelByName, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
  };
  napi_define_properties(env, exports, 3, properties);
  return kernelObject(env, *runnable.front(), exports);
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
