// The markup bytes of cue text as bit masks, for the check of cue text that needs no tokenizer
// (CueTextQuickCheck): one vector pass marks every `<` and `&` (where markup or a reference
// starts) and every `>` (where a tag ends), and the check then jumps from mark to mark.

#include "CCueKitBytes.h"

#include <string.h>

void cuekit_markup_masks_portable(const uint8_t *bytes, size_t count, uint64_t *specials, uint64_t *closers) {
    size_t words = (count + 63) / 64;
    memset(specials, 0, words * sizeof(uint64_t));
    memset(closers, 0, words * sizeof(uint64_t));
    for (size_t index = 0; index < count; index++) {
        uint8_t byte = bytes[index];
        uint64_t bit = 1ull << (index % 64);
        if (byte == '<' || byte == '&') specials[index / 64] |= bit;
        if (byte == '>') closers[index / 64] |= bit;
    }
}

#if defined(__SSE2__)
#include <emmintrin.h>

/// Bits of the 16 bytes at `step` equal to `byte`.
static inline uint64_t equal16(__m128i v, char byte) {
    return (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(byte)));
}

/// One word of each mask for the 64 bytes at `step`, with SSE2.
static inline void masks64SSE2(const uint8_t *step, uint64_t *special, uint64_t *closer) {
    uint64_t s = 0, c = 0;
    for (int part = 0; part < 4; part++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(step + 16 * part));
        s |= (equal16(v, '<') | equal16(v, '&')) << (16 * part);
        c |= equal16(v, '>') << (16 * part);
    }
    *special = s;
    *closer = c;
}

/// The masks of a text shorter than 64 bytes, with 16-byte loads that stay inside it: at 0, 16,
/// 32 while they fit, and one that ends at its end (its bits overlap the others' and agree).
/// Texts shorter than 16 bytes are looked at byte by byte.
static inline void shortMasksSSE2(const uint8_t *bytes, size_t count, uint64_t *special, uint64_t *closer) {
    uint64_t s = 0, c = 0;
    if (count < 16) {
        for (size_t index = 0; index < count; index++) {
            s |= (uint64_t)(bytes[index] == '<' || bytes[index] == '&') << index;
            c |= (uint64_t)(bytes[index] == '>') << index;
        }
    } else {
        size_t offset = 0;
        for (; offset + 16 <= count; offset += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(bytes + offset));
            s |= (equal16(v, '<') | equal16(v, '&')) << offset;
            c |= equal16(v, '>') << offset;
        }
        if (offset < count) {
            __m128i v = _mm_loadu_si128((const __m128i *)(bytes + count - 16));
            s |= (equal16(v, '<') | equal16(v, '&')) << (count - 16);
            c |= equal16(v, '>') << (count - 16);
        }
    }
    *special = s;
    *closer = c;
}

void cuekit_markup_masks_sse2(const uint8_t *bytes, size_t count, uint64_t *specials, uint64_t *closers) {
    size_t whole = count / 64, rest = count % 64;
    for (size_t word = 0; word < whole; word++) masks64SSE2(bytes + 64 * word, specials + word, closers + word);
    if (rest == 0) return;
    if (whole > 0) {
        // The last 64 bytes (overlapping the last whole word), their bits moved down to the rest.
        uint64_t s, c;
        masks64SSE2(bytes + count - 64, &s, &c);
        specials[whole] = s >> (64 - rest);
        closers[whole] = c >> (64 - rest);
    } else {
        shortMasksSSE2(bytes, count, specials, closers);
    }
}

#include <immintrin.h>

#include "CPUFeatures.h"

/// One word of each mask for the 64 bytes at `step`, with AVX2.
__attribute__((target("avx2"))) static inline void masks64AVX2(const uint8_t *step, uint64_t *special, uint64_t *closer) {
    __m256i low = _mm256_loadu_si256((const __m256i *)step);
    __m256i high = _mm256_loadu_si256((const __m256i *)(step + 32));
    __m256i lessThan = _mm256_set1_epi8('<'), ampersand = _mm256_set1_epi8('&'), greaterThan = _mm256_set1_epi8('>');
    __m256i specialLow = _mm256_or_si256(_mm256_cmpeq_epi8(low, lessThan), _mm256_cmpeq_epi8(low, ampersand));
    __m256i specialHigh = _mm256_or_si256(_mm256_cmpeq_epi8(high, lessThan), _mm256_cmpeq_epi8(high, ampersand));
    *special = (uint64_t)(uint32_t)_mm256_movemask_epi8(specialLow) | (uint64_t)(uint32_t)_mm256_movemask_epi8(specialHigh) << 32;
    *closer = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, greaterThan))
        | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, greaterThan)) << 32;
}

/// The 32-bit masks of the 32 bytes at `step`.
__attribute__((target("avx2"))) static inline void masks32AVX2(const uint8_t *step, uint64_t *special, uint64_t *closer) {
    __m256i v = _mm256_loadu_si256((const __m256i *)step);
    __m256i specialBytes = _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('<')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('&')));
    *special = (uint32_t)_mm256_movemask_epi8(specialBytes);
    *closer = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('>')));
}

/// The passes of `cuekit_markup_masks_sse2`, 32 and 64 bytes a load: no byte is copied, and none
/// outside the text is read.
__attribute__((target("avx2"))) static void masksAVX2(const uint8_t *bytes, size_t count, uint64_t *specials, uint64_t *closers) {
    size_t whole = count / 64, rest = count % 64;
    for (size_t word = 0; word < whole; word++) masks64AVX2(bytes + 64 * word, specials + word, closers + word);
    if (rest == 0) return;
    if (whole > 0) {
        uint64_t s, c;
        masks64AVX2(bytes + count - 64, &s, &c);
        specials[whole] = s >> (64 - rest);
        closers[whole] = c >> (64 - rest);
    } else if (count >= 32) {
        // Two loads: the first 32 bytes, and the 32 that end at the end.
        uint64_t s0, c0, s1, c1;
        masks32AVX2(bytes, &s0, &c0);
        masks32AVX2(bytes + count - 32, &s1, &c1);
        specials[0] = s0 | s1 << (count - 32);
        closers[0] = c0 | c1 << (count - 32);
    } else {
        shortMasksSSE2(bytes, count, specials, closers);
    }
}

void cuekit_markup_masks(const uint8_t *bytes, size_t count, uint64_t *specials, uint64_t *closers) {
    if (cuekit_cpu_has_avx2()) {
        masksAVX2(bytes, count, specials, closers);
    } else {
        cuekit_markup_masks_sse2(bytes, count, specials, closers);
    }
}

#else

void cuekit_markup_masks(const uint8_t *bytes, size_t count, uint64_t *specials, uint64_t *closers) {
    cuekit_markup_masks_portable(bytes, count, specials, closers);
}

void cuekit_markup_masks_sse2(const uint8_t *bytes, size_t count, uint64_t *specials, uint64_t *closers) {
    cuekit_markup_masks_portable(bytes, count, specials, closers);
}

#endif
