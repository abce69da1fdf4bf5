// The Unicode scalars of a line of valid UTF-8, counted 32 bytes a step.

#include "CCueKitBytes.h"

size_t cuekit_scalars_to_line_end_portable(const uint8_t *bytes, size_t count, size_t from, size_t *scalars) {
    size_t total = 0, index = from;
    for (; index < count && bytes[index] != '\n'; index++) total += (bytes[index] & 0xC0) != 0x80;
    *scalars = total;
    return index;
}

#if defined(__x86_64__)
#include <immintrin.h>

#include "CPUFeatures.h"

/// The LFs and continuation bytes among the 32 bytes at `step`, a bit a byte.
__attribute__((target("avx2"))) static inline void lineMarks32(const uint8_t *step, uint32_t *feeds, uint32_t *continuations) {
    __m256i v = _mm256_loadu_si256((const __m256i *)step);
    *feeds = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n')));
    __m256i top = _mm256_and_si256(v, _mm256_set1_epi8((char)0xC0));
    *continuations = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(top, _mm256_set1_epi8((char)0x80)));
}

/// Needs 32 bytes or more from `from` to `count`: the last step reads the 32 that end at `count`.
__attribute__((target("avx2,popcnt"))) static size_t scalarsToLineEndAVX2(
    const uint8_t *bytes, size_t count, size_t from, size_t *scalars) {
    size_t total = 0, index = from;
    while (1) {
        uint32_t feeds, continuations;
        size_t taken;
        if (index + 32 <= count) {
            lineMarks32(bytes + index, &feeds, &continuations);
            taken = 32;
        } else {
            // The 32 bytes that end at the end, shifted so that the ones already counted fall off.
            taken = count - index;
            if (taken == 0) break;
            lineMarks32(bytes + count - 32, &feeds, &continuations);
            feeds >>= 32 - taken;
            continuations >>= 32 - taken;
        }
        if (feeds != 0) {
            unsigned before = (unsigned)__builtin_ctz(feeds);
            uint32_t below = before == 0 ? 0 : (uint32_t)(((uint64_t)1 << before) - 1);
            *scalars = total + before - (size_t)__builtin_popcount(continuations & below);
            return index + before;
        }
        total += taken - (size_t)__builtin_popcount(continuations);
        index += taken;
    }
    *scalars = total;
    return count;
}

size_t cuekit_scalars_to_line_end(const uint8_t *bytes, size_t count, size_t from, size_t *scalars) {
    if (count - from >= 32 && cuekit_cpu_has_avx2()) return scalarsToLineEndAVX2(bytes, count, from, scalars);
    return cuekit_scalars_to_line_end_portable(bytes, count, from, scalars);
}

#else

size_t cuekit_scalars_to_line_end(const uint8_t *bytes, size_t count, size_t from, size_t *scalars) {
    return cuekit_scalars_to_line_end_portable(bytes, count, from, scalars);
}

#endif
