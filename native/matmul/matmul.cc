// Float32 matrix products for the local embedder, computed natively on the WebAssembly backend's own
// memory. TensorFlow.js's WASM build has only 128-bit SIMD (and a scalar path for transposed
// products); this runs on the CPU's AVX-512 or AVX2 units. Compiled at install with -march=native.
//
// The right-hand matrix is first packed into panels of 32 columns, each panel contiguous, so the
// inner loop reads memory in order: read in place, a weight row is 6 KB from the next and the
// hardware prefetcher, which stops at page boundaries, leaves every step waiting on memory.
// The model's weights are packed once (the caller keeps the packed copy); activations per call.
#include <node_api.h>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif
#include <cstdint>
#include <cstring>
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

#if defined(__AVX512F__)
constexpr const char* kInstructionSet = "avx512";

// ROWS rows of c (ldc apart), 32 columns (the last `width` valid), over the whole depth k.
template <int ROWS>
void block(const float* a, int64_t lda, const float* panel, int64_t k, float* c, int64_t ldc, int width) {
  __m512 acc[ROWS][2];
  for (int r = 0; r < ROWS; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
  for (int64_t p = 0; p < k; ++p) {
    const __m512 b0 = _mm512_loadu_ps(panel + p * kPanel);
    const __m512 b1 = _mm512_loadu_ps(panel + p * kPanel + 16);
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
#else
// Left to the compiler's vectorizer for this CPU (-march=native).
constexpr const char* kInstructionSet = "generic";

template <int ROWS>
void block(const float* a, int64_t lda, const float* panel, int64_t k, float* c, int64_t ldc, int width) {
  float acc[ROWS][kPanel] = {};
  for (int64_t p = 0; p < k; ++p)
    for (int r = 0; r < ROWS; ++r)
      for (int j = 0; j < kPanel; ++j) acc[r][j] += a[r * lda + p] * panel[p * kPanel + j];
  for (int r = 0; r < ROWS; ++r)
    for (int j = 0; j < width; ++j) c[r * ldc + j] = acc[r][j];
}
#endif

constexpr int kRows = 8;

// c[m, n] = a[m, k] x b, b packed.
void gemm(const float* a, const float* packed, float* c, int64_t m, int64_t k, int64_t n) {
  using Block = void (*)(const float*, int64_t, const float*, int64_t, float*, int64_t, int);
  static constexpr Block blocks[kRows + 1] = {nullptr, block<1>, block<2>, block<3>, block<4>,
                                              block<5>, block<6>, block<7>, block<8>};
  for (int64_t panel = 0; panel < panelsOf(n); ++panel) {
    const int64_t column = panel * kPanel;
    const int width = (int)(n - column < kPanel ? n - column : kPanel);
    for (int64_t row = 0; row < m; row += kRows) {
      const int rows = (int)(m - row < kRows ? m - row : kRows);
      blocks[rows](a + row * k, k, packed + panel * k * kPanel, k, c + row * n + column, n, width);
    }
  }
}

void transpose(const float* src, int64_t rows, int64_t cols, float* dst) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst[c * rows + r] = src[r * cols + c];
}

// Reads a call's arguments: an ArrayBuffer (`memory`), then `intCount` integers; throws (and answers
// false) on anything else.
bool readArguments(napi_env env, napi_callback_info info, size_t expected, napi_value* argv, uint8_t** memory,
                   size_t* length, int64_t* ints, int intCount) {
  size_t count = expected;
  napi_get_cb_info(env, info, &count, argv, nullptr, nullptr);
  if (count != expected) {
    napi_throw_type_error(env, nullptr, "wrong number of arguments");
    return false;
  }
  void* data = nullptr;
  if (napi_get_arraybuffer_info(env, argv[0], &data, length) != napi_ok) {
    napi_throw_type_error(env, nullptr, "memory must be an ArrayBuffer");
    return false;
  }
  *memory = static_cast<uint8_t*>(data);
  for (int i = 0; i < intCount; ++i) {
    if (napi_get_value_int64(env, argv[i + 1], &ints[i]) != napi_ok) {
      napi_throw_type_error(env, nullptr, "offsets and sizes must be numbers");
      return false;
    }
  }
  return true;
}

bool readBool(napi_env env, napi_value value) {
  bool result = false;
  napi_get_value_bool(env, value, &result);
  return result;
}

bool inside(napi_env env, int64_t offset, int64_t bytes, size_t length) {
  if (offset < 0 || offset % 4 != 0 || bytes <= 0 || offset + bytes > (int64_t)length) {
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

// pack(memory, offset, k, n, transposed) -> ArrayBuffer: b ([k, n], or [n, k] when transposed) packed.
napi_value Pack(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  uint8_t* memory;
  size_t length;
  int64_t v[3];
  if (!readArguments(env, info, 5, argv, &memory, &length, v, 3)) return nullptr;
  const int64_t offset = v[0], k = v[1], n = v[2];
  if (k <= 0 || n <= 0 || !inside(env, offset, k * n * 4, length)) return nullptr;
  void* packed = nullptr;
  napi_value result;
  napi_create_arraybuffer(env, sizeof(float) * panelsOf(n) * k * kPanel, &packed, &result);
  pack(reinterpret_cast<const float*>(memory + offset), readBool(env, argv[4]), k, n, static_cast<float*>(packed));
  return result;
}

// matMulPacked(memory, aOffset, batch, m, k, outOffset, n, transposeA, packedB): for each of `batch`
// left-hand matrices a ([m, k], or [k, m] when transposeA), out = a x b, with b packed by pack().
napi_value MatMulPacked(napi_env env, napi_callback_info info) {
  napi_value argv[9];
  uint8_t* memory;
  size_t length;
  int64_t v[6];
  if (!readArguments(env, info, 9, argv, &memory, &length, v, 6)) return nullptr;
  const int64_t aOffset = v[0], batch = v[1], m = v[2], k = v[3], outOffset = v[4], n = v[5];
  const bool transposeA = readBool(env, argv[7]);
  void* packed = nullptr;
  size_t packedLength = 0;
  if (napi_get_arraybuffer_info(env, argv[8], &packed, &packedLength) != napi_ok) {
    napi_throw_type_error(env, nullptr, "packedB must be an ArrayBuffer");
    return nullptr;
  }
  if (batch <= 0 || m <= 0 || k <= 0 || n <= 0 || !inside(env, aOffset, batch * m * k * 4, length) ||
      !inside(env, outOffset, batch * m * n * 4, length))
    return nullptr;
  if ((int64_t)packedLength != (int64_t)sizeof(float) * panelsOf(n) * k * kPanel) {
    napi_throw_range_error(env, nullptr, "packed matrix of another shape");
    return nullptr;
  }
  std::vector<float> scratch;
  for (int64_t index = 0; index < batch; ++index) {
    const float* a = leftMatrix(memory, aOffset, index, m, k, transposeA, scratch);
    gemm(a, static_cast<const float*>(packed), reinterpret_cast<float*>(memory + outOffset) + index * m * n, m, k, n);
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
  if (!readArguments(env, info, 11, argv, &memory, &length, v, 8)) return nullptr;
  const int64_t aOffset = v[0], bOffset = v[1], outOffset = v[2], batchA = v[3], batchB = v[4];
  const int64_t m = v[5], k = v[6], n = v[7], batch = batchA > batchB ? batchA : batchB;
  const bool transposeA = readBool(env, argv[9]), transposeB = readBool(env, argv[10]);
  if (m <= 0 || k <= 0 || n <= 0 || batchA <= 0 || batchB <= 0 ||
      (batchA != batchB && batchA != 1 && batchB != 1) || !inside(env, aOffset, batchA * m * k * 4, length) ||
      !inside(env, bOffset, batchB * k * n * 4, length) || !inside(env, outOffset, batch * m * n * 4, length))
    return nullptr;
  std::vector<float> scratch, packed(panelsOf(n) * k * kPanel);
  for (int64_t index = 0; index < batch; ++index) {
    const float* b = reinterpret_cast<const float*>(memory + bOffset) + (batchB == 1 ? 0 : index) * k * n;
    if (index == 0 || batchB != 1) pack(b, transposeB, k, n, packed.data());
    const float* a = leftMatrix(memory, aOffset, batchA == 1 ? 0 : index, m, k, transposeA, scratch);
    gemm(a, packed.data(), reinterpret_cast<float*>(memory + outOffset) + index * m * n, m, k, n);
  }
  return nullptr;
}

napi_value Init(napi_env env, napi_value exports) {
  const napi_property_descriptor functions[] = {
      {"pack", nullptr, Pack, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"matMulPacked", nullptr, MatMulPacked, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"batchMatMul", nullptr, BatchMatMul, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, 3, functions);
  napi_value instructionSet;
  napi_create_string_utf8(env, kInstructionSet, NAPI_AUTO_LENGTH, &instructionSet);
  napi_set_named_property(env, exports, "instructionSet", instructionSet);
  return exports;
}

}  // namespace

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
