// One pass over a WebVTT block: see CCueKitBytes.h.

#include "CCueKitBytes.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The shape of a block whose empty line is at `emptyLine`, from what the scan gathered.
static inline bool finish(
    CueKitBlockShape *shape, size_t emptyLine, size_t lineCount, size_t firstEnd, size_t secondEnd, size_t firstArrow,
    size_t lastArrow, bool markup, bool high) {
    shape->firstLineEnd = firstEnd;
    shape->secondLineEnd = secondEnd;
    shape->lastLineEnd = emptyLine - 1;
    shape->lineCount = lineCount;
    shape->firstArrow = firstArrow;
    shape->lastArrow = lastArrow;
    shape->hasMarkup = markup;
    shape->hasNonASCII = high;
    return true;
}

bool cuekit_scan_block_portable(const uint8_t *bytes, size_t start, size_t limit, CueKitBlockShape *shape) {
    size_t lineStart = start, lineCount = 0, firstEnd = 0, secondEnd = 0, firstArrow = 0, lastArrow = 0;
    bool markup = false, high = false;
    for (size_t i = start; i < limit; i++) {
        uint8_t byte = bytes[i];
        if (byte == '\n') {
            if (i == lineStart) return finish(shape, i, lineCount, firstEnd, secondEnd, firstArrow, lastArrow, markup, high);
            if (lineCount == 0) firstEnd = i;
            if (lineCount == 1) secondEnd = i;
            lineCount += 1;
            lineStart = i + 1;
        } else if (byte == '>') {
            if (i >= start + 2 && bytes[i - 1] == '-' && bytes[i - 2] == '-') {
                if (firstArrow == 0) firstArrow = i;
                lastArrow = i;
            }
        } else if (byte == '<' || byte == '&') {
            markup = true;
        } else if (byte >= 0x80) {
            high = true;
        }
    }
    return false;
}

#if defined(__SSE2__)

/// The bytes a step looks at: two vectors.
#define STEP 32

/// The 32-bit mask of the bytes of a step (`low`, then `high`) equal to `byte`.
static inline uint32_t equalMask(__m128i low, __m128i high, char byte) {
    __m128i pattern = _mm_set1_epi8(byte);
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(low, pattern))
        | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(high, pattern)) << 16;
}

/// `<` or `&` in each byte of `v`, as a vector of 0xFF and 0 bytes.
static inline __m128i markupBytes(__m128i v) {
    return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('<')), _mm_cmpeq_epi8(v, _mm_set1_epi8('&')));
}

/// Sixteen bytes a vector, two vectors a step. Per step: the LFs (for line ends and the empty
/// line), the `>`s (the hyphens before them looked at only when there is one: a cue block has
/// one `-->`), and the markup and non-ASCII bytes or-ed into two vectors, which are turned into
/// masks only at the end.
bool cuekit_scan_block_sse2(const uint8_t *bytes, size_t start, size_t limit, CueKitBlockShape *shape) {
    size_t position = start;
    size_t lineCount = 0, firstEnd = 0, secondEnd = 0, firstArrow = 0, lastArrow = 0;
    __m128i markupSeen = _mm_setzero_si128(), highSeen = _mm_setzero_si128();
    // The previous step's LFs: an empty line may start there.
    uint32_t previousLineFeeds = 0;
    uint8_t padded[STEP];
    while (position < limit) {
        const uint8_t *step = bytes + position;
        if (limit - position < STEP) {
            // The last step, padded with NULs: no NUL is any byte looked for.
            memset(padded, 0, sizeof padded);
            memcpy(padded, step, limit - position);
            step = padded;
        }
        __m128i low = _mm_loadu_si128((const __m128i *)step);
        __m128i high = _mm_loadu_si128((const __m128i *)(step + 16));
        uint32_t lineFeeds = equalMask(low, high, '\n');
        uint32_t greaterThans = equalMask(low, high, '>');
        // An LF right after an LF is the empty line that ends the block.
        uint32_t emptyLines = lineFeeds & (lineFeeds << 1 | previousLineFeeds >> (STEP - 1));
        previousLineFeeds = lineFeeds;
        // The bytes of the step that are in the block: all, or those before the empty line.
        uint32_t inBlock = 0xFFFFFFFFu;
        __m128i markupLow = markupBytes(low), markupHigh = markupBytes(high);
        __m128i markup = _mm_or_si128(markupLow, markupHigh);
        __m128i beyond = _mm_or_si128(low, high);
        if (emptyLines != 0) {
            // The last step: its bytes after the empty line are not the block's.
            inBlock = (1u << __builtin_ctz(emptyLines)) - 1;
            lineFeeds &= inBlock;
            greaterThans &= inBlock;
            uint32_t markupMask = (uint32_t)_mm_movemask_epi8(markupLow) | (uint32_t)_mm_movemask_epi8(markupHigh) << 16;
            uint32_t highMask = (uint32_t)_mm_movemask_epi8(low) | (uint32_t)_mm_movemask_epi8(high) << 16;
            markup = markupMask & inBlock ? _mm_set1_epi8(-1) : _mm_setzero_si128();
            beyond = highMask & inBlock ? _mm_set1_epi8(-128) : _mm_setzero_si128();
        }
        markupSeen = _mm_or_si128(markupSeen, markup);
        highSeen = _mm_or_si128(highSeen, beyond);
        if (lineFeeds != 0) {
            // The first two line ends are kept; the others only counted.
            while (lineCount < 2 && lineFeeds != 0) {
                size_t end = position + (unsigned)__builtin_ctz(lineFeeds);
                if (lineCount == 0) firstEnd = end; else secondEnd = end;
                lineCount += 1;
                lineFeeds &= lineFeeds - 1;
            }
            for (; lineFeeds != 0; lineFeeds &= lineFeeds - 1) lineCount += 1;
        }
        if (greaterThans != 0) {
            // A `>` with a hyphen one and two bytes before it ends a `-->` (hyphens are never
            // LFs, so the three bytes are on one line); before the block's start is no hyphen.
            uint32_t hyphens = equalMask(low, high, '-');
            uint32_t before = 0;
            if (position >= start + 2) before = (uint32_t)(bytes[position - 1] == '-') << 1 | (uint32_t)(bytes[position - 2] == '-');
            uint32_t arrows = greaterThans & (hyphens << 1 | before >> 1) & (hyphens << 2 | before);
            if (arrows != 0) {
                if (firstArrow == 0) firstArrow = position + (unsigned)__builtin_ctz(arrows);
                lastArrow = position + 31 - (unsigned)__builtin_clz(arrows);
            }
        }
        if (emptyLines != 0) {
            bool markupFound = _mm_movemask_epi8(markupSeen) != 0;
            bool highFound = _mm_movemask_epi8(highSeen) != 0;
            return finish(shape, position + (unsigned)__builtin_ctz(emptyLines), lineCount, firstEnd, secondEnd, firstArrow, lastArrow, markupFound, highFound);
        }
        position += STEP;
    }
    return false;
}

#include <immintrin.h>

#include "CPUFeatures.h"

/// The 64-bit mask of the bytes of a wide step (`low`, then `high`) equal to `byte`.
__attribute__((target("avx2"))) static inline uint64_t equalMask64(__m256i low, __m256i high, char byte) {
    __m256i pattern = _mm256_set1_epi8(byte);
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, pattern))
        | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, pattern)) << 32;
}

/// The 64-bit mask of the high bits of the bytes of a wide step.
__attribute__((target("avx2"))) static inline uint64_t highBits64(__m256i low, __m256i high) {
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(low) | (uint64_t)(uint32_t)_mm256_movemask_epi8(high) << 32;
}

/// `<` or `&` in each byte of `v`, as a vector of 0xFF and 0 bytes.
__attribute__((target("avx2"))) static inline __m256i markupBytes256(__m256i v) {
    return _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('<')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('&')));
}

/// The scan of `cuekit_scan_block_sse2` with AVX2: 32 bytes a vector, two vectors (64 bytes) a
/// step, so a typical cue block of about 100 bytes takes two or three steps rather than four.
__attribute__((target("avx2"))) static bool scanAVX2(const uint8_t *bytes, size_t start, size_t limit, CueKitBlockShape *shape) {
    size_t position = start;
    size_t lineCount = 0, firstEnd = 0, secondEnd = 0, firstArrow = 0, lastArrow = 0;
    __m256i markupSeen = _mm256_setzero_si256(), highSeen = _mm256_setzero_si256();
    uint64_t previousLineFeeds = 0;
    uint8_t padded[64];
    while (position < limit) {
        const uint8_t *step = bytes + position;
        if (limit - position < 64) {
            memset(padded, 0, sizeof padded);
            memcpy(padded, step, limit - position);
            step = padded;
        }
        __m256i low = _mm256_loadu_si256((const __m256i *)step);
        __m256i high = _mm256_loadu_si256((const __m256i *)(step + 32));
        uint64_t lineFeeds = equalMask64(low, high, '\n');
        uint64_t greaterThans = equalMask64(low, high, '>');
        uint64_t emptyLines = lineFeeds & (lineFeeds << 1 | previousLineFeeds >> 63);
        previousLineFeeds = lineFeeds;
        __m256i markupLow = markupBytes256(low), markupHigh = markupBytes256(high);
        __m256i markup = _mm256_or_si256(markupLow, markupHigh);
        __m256i beyond = _mm256_or_si256(low, high);
        if (emptyLines != 0) {
            uint64_t inBlock = (1ull << __builtin_ctzll(emptyLines)) - 1;
            lineFeeds &= inBlock;
            greaterThans &= inBlock;
            markup = highBits64(markupLow, markupHigh) & inBlock ? _mm256_set1_epi8(-1) : _mm256_setzero_si256();
            beyond = highBits64(low, high) & inBlock ? _mm256_set1_epi8(-128) : _mm256_setzero_si256();
        }
        markupSeen = _mm256_or_si256(markupSeen, markup);
        highSeen = _mm256_or_si256(highSeen, beyond);
        if (lineFeeds != 0) {
            while (lineCount < 2 && lineFeeds != 0) {
                size_t end = position + (unsigned)__builtin_ctzll(lineFeeds);
                if (lineCount == 0) firstEnd = end; else secondEnd = end;
                lineCount += 1;
                lineFeeds &= lineFeeds - 1;
            }
            lineCount += (size_t)__builtin_popcountll(lineFeeds);
        }
        if (greaterThans != 0) {
            uint64_t hyphens = equalMask64(low, high, '-');
            uint64_t before = 0;
            if (position >= start + 2) before = (uint64_t)(bytes[position - 1] == '-') << 1 | (uint64_t)(bytes[position - 2] == '-');
            uint64_t arrows = greaterThans & (hyphens << 1 | before >> 1) & (hyphens << 2 | before);
            if (arrows != 0) {
                if (firstArrow == 0) firstArrow = position + (unsigned)__builtin_ctzll(arrows);
                lastArrow = position + 63 - (unsigned)__builtin_clzll(arrows);
            }
        }
        if (emptyLines != 0) {
            bool markupFound = _mm256_movemask_epi8(markupSeen) != 0;
            bool highFound = _mm256_movemask_epi8(highSeen) != 0;
            return finish(shape, position + (unsigned)__builtin_ctzll(emptyLines), lineCount, firstEnd, secondEnd, firstArrow, lastArrow, markupFound, highFound);
        }
        position += 64;
    }
    return false;
}

bool cuekit_scan_block(const uint8_t *bytes, size_t start, size_t limit, CueKitBlockShape *shape) {
    if (cuekit_cpu_has_avx2()) return scanAVX2(bytes, start, limit, shape);
    return cuekit_scan_block_sse2(bytes, start, limit, shape);
}

#else

bool cuekit_scan_block(const uint8_t *bytes, size_t start, size_t limit, CueKitBlockShape *shape) {
    return cuekit_scan_block_portable(bytes, start, limit, shape);
}

bool cuekit_scan_block_sse2(const uint8_t *bytes, size_t start, size_t limit, CueKitBlockShape *shape) {
    return cuekit_scan_block_portable(bytes, start, limit, shape);
}

#endif
