// CR LF and lone CR line endings rewritten as LF, a vector of bytes a step: see CCueKitBytes.h.

#include "CCueKitBytes.h"

size_t cuekit_rewrite_line_endings_portable(const uint8_t *bytes, size_t count, uint8_t *target) {
    size_t written = 0;
    for (size_t index = 0; index < count; index++) {
        if (bytes[index] != '\r') {
            target[written++] = bytes[index];
            continue;
        }
        target[written++] = '\n';
        if (index + 1 < count && bytes[index + 1] == '\n') index++;
    }
    return written;
}

#if defined(__x86_64__)
#include <immintrin.h>

#include "CPUFeatures.h"

/// Stores a vector of `source` at `target` and returns the mask of its CRs.
typedef uint32_t (*StoreStep)(const uint8_t *source, uint8_t *target);

/// Each step stores its whole vector where the output has got to, then keeps only the bytes
/// before its first CR (the next step starts after that CR and its LF): a line a step, with no
/// copy call. The store never passes the end of `target`: the output is never ahead of the input,
/// and a step reads only whole vectors of it. The last bytes, fewer than a vector, go one at a time.
/// (Inlined into each caller with its own step.)
static inline __attribute__((always_inline)) size_t rewriteBySteps(
    const uint8_t *bytes, size_t count, uint8_t *target, size_t width, StoreStep step) {
    size_t index = 0, written = 0;
    while (index + width <= count) {
        uint32_t found = step(bytes + index, target + written);
        if (found == 0) {
            index += width;
            written += width;
            continue;
        }
        unsigned before = (unsigned)__builtin_ctz(found);
        written += before;
        target[written++] = '\n';
        index += before + 1;
        if (index < count && bytes[index] == '\n') index++;
    }
    return written + cuekit_rewrite_line_endings_portable(bytes + index, count - index, target + written);
}

__attribute__((target("avx2"))) static inline uint32_t storeStepAVX2(const uint8_t *source, uint8_t *target) {
    __m256i v = _mm256_loadu_si256((const __m256i *)source);
    _mm256_storeu_si256((__m256i *)target, v);
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\r')));
}

static inline uint32_t storeStepSSE2(const uint8_t *source, uint8_t *target) {
    __m128i v = _mm_loadu_si128((const __m128i *)source);
    _mm_storeu_si128((__m128i *)target, v);
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
}

__attribute__((target("avx2"))) static size_t rewriteAVX2(const uint8_t *bytes, size_t count, uint8_t *target) {
    return rewriteBySteps(bytes, count, target, 32, storeStepAVX2);
}

size_t cuekit_rewrite_line_endings_sse2(const uint8_t *bytes, size_t count, uint8_t *target) {
    return rewriteBySteps(bytes, count, target, 16, storeStepSSE2);
}

size_t cuekit_rewrite_line_endings(const uint8_t *bytes, size_t count, uint8_t *target) {
    if (cuekit_cpu_has_avx2()) return rewriteAVX2(bytes, count, target);
    return cuekit_rewrite_line_endings_sse2(bytes, count, target);
}

#else

size_t cuekit_rewrite_line_endings(const uint8_t *bytes, size_t count, uint8_t *target) {
    return cuekit_rewrite_line_endings_portable(bytes, count, target);
}

size_t cuekit_rewrite_line_endings_sse2(const uint8_t *bytes, size_t count, uint8_t *target) {
    return cuekit_rewrite_line_endings_portable(bytes, count, target);
}

#endif
