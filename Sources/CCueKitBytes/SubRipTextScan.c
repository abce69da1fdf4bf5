// One pass over the text lines of a SubRip block: see CCueKitBytes.h.

#include "CCueKitBytes.h"

#include <string.h>

/// True when a text line starting with `byte` needs a closer look: a blank byte (the line may be
/// blank), a digit (it may be a sequence number) or 0xEF (it may start with a byte order mark).
static inline bool startNeedsLook(uint8_t byte) {
    return byte == ' ' || byte == '\t' || byte == 0x0B || byte == 0x0C || byte == 0x1A || byte == 0xEF
        || (uint8_t)(byte - '0') < 10;
}

/// True when `byte` is markup the SubRip reader acts on: `<`, `>`, `&` or `{`.
static inline bool isMarkup(uint8_t byte) { return byte == '<' || byte == '>' || byte == '&' || byte == '{'; }

bool cuekit_scan_subrip_text_portable(const uint8_t *bytes, size_t start, size_t limit, CueKitSubRipTextShape *shape) {
    memset(shape, 0, sizeof *shape);
    if (start >= limit) return false;
    shape->lineStartToCheck = startNeedsLook(bytes[start]);
    size_t lineStart = start, textEnd = start, lineCount = 0, longest = 0;
    for (size_t index = start; index < limit; index++) {
        if (bytes[index] != '\n') continue;
        size_t contentEnd = index > lineStart && bytes[index - 1] == '\r' ? index - 1 : index;
        if (contentEnd == lineStart) {
            // The empty line (LF, or CR LF) that ends the block.
            shape->textEnd = textEnd;
            shape->blockEnd = index + 1;
            shape->lineCount = lineCount;
            shape->longestLine = longest;
            bool pendingBackslash = false;
            for (size_t at = start; at < textEnd; at++) {
                uint8_t byte = bytes[at];
                if (isMarkup(byte)) shape->hasMarkup = 1;
                if (byte >= 0x80) shape->hasNonASCII = 1;
                if (byte == 0) shape->hasNUL = 1;
                if (byte == '>' && at >= start + 2 && bytes[at - 1] == '-' && bytes[at - 2] == '-') shape->hasArrow = 1;
                if (pendingBackslash && (byte == 'N' || byte == 'n')) shape->hasASSBreak = 1;
                pendingBackslash = byte == '\\';
                if (byte == '\r') {
                    shape->carriageReturns += 1;
                    if (bytes[at + 1] != '\n') shape->hasStrayCarriageReturn = 1;
                }
            }
            return true;
        }
        lineCount += 1;
        if (contentEnd - lineStart > longest) longest = contentEnd - lineStart;
        textEnd = contentEnd;
        lineStart = index + 1;
        if (lineStart < limit && startNeedsLook(bytes[lineStart])) shape->lineStartToCheck = 1;
    }
    return false;
}

#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>

#include "CPUFeatures.h"

/// The bytes of one 64-byte step, as bit masks (bit `i` for byte `i`).
typedef struct StepMasks {
    uint64_t lineFeeds, carriageReturns, markup, nonASCII, nuls, greaterThans, hyphens, backslashes, letterNs;
} StepMasks;

/// Bits of the 16 bytes of `v` equal to `byte`.
static inline uint64_t equal16(__m128i v, char byte) {
    return (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(byte)));
}

/// The masks of the 64 bytes at `step`, with SSE2.
static inline void masksSSE2(const uint8_t *step, StepMasks *m) {
    memset(m, 0, sizeof *m);
    for (int part = 0; part < 4; part++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(step + 16 * part));
        int shift = 16 * part;
        m->lineFeeds |= equal16(v, '\n') << shift;
        m->carriageReturns |= equal16(v, '\r') << shift;
        m->greaterThans |= equal16(v, '>') << shift;
        m->markup |= (equal16(v, '<') | equal16(v, '>') | equal16(v, '&') | equal16(v, '{')) << shift;
        m->nonASCII |= (uint64_t)(uint16_t)_mm_movemask_epi8(v) << shift;
        m->nuls |= equal16(v, 0) << shift;
        m->hyphens |= equal16(v, '-') << shift;
        m->backslashes |= equal16(v, '\\') << shift;
        m->letterNs |= (equal16(v, 'N') | equal16(v, 'n')) << shift;
    }
}

/// Bits of the 64 bytes of `low` and `high` equal to `byte`.
__attribute__((target("avx2"))) static inline uint64_t equal64(__m256i low, __m256i high, char byte) {
    __m256i pattern = _mm256_set1_epi8(byte);
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, pattern))
        | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, pattern)) << 32;
}

/// The masks of the 64 bytes at `step`, with AVX2.
__attribute__((target("avx2"))) static inline void masksAVX2(const uint8_t *step, StepMasks *m) {
    __m256i low = _mm256_loadu_si256((const __m256i *)step);
    __m256i high = _mm256_loadu_si256((const __m256i *)(step + 32));
    m->lineFeeds = equal64(low, high, '\n');
    m->carriageReturns = equal64(low, high, '\r');
    m->greaterThans = equal64(low, high, '>');
    m->markup = equal64(low, high, '<') | m->greaterThans | equal64(low, high, '&') | equal64(low, high, '{');
    m->nonASCII = (uint64_t)(uint32_t)_mm256_movemask_epi8(low) | (uint64_t)(uint32_t)_mm256_movemask_epi8(high) << 32;
    m->nuls = equal64(low, high, 0);
    m->hyphens = equal64(low, high, '-');
    m->backslashes = equal64(low, high, '\\');
    m->letterNs = equal64(low, high, 'N') | equal64(low, high, 'n');
}

/// What the vector scans carry from one step to the next.
typedef struct ScanState {
    size_t lineStart, textEnd, lineCount, longest;
    /// The last two bytes of the previous step: hyphens (bits 0 and 1 for the last and the one
    /// before), a backslash, a CR (bit 0 each).
    uint64_t hyphensBefore, backslashBefore, carriageReturnBefore;
} ScanState;

/// One step of the vector scans: its line ends looked at one by one, its bytes up to the empty
/// line (or all of them) added to `shape`. Returns true when the step holds the empty line.
static inline bool scanStep(
    const uint8_t *bytes, size_t position, size_t limit, const StepMasks *m, ScanState *state, CueKitSubRipTextShape *shape) {
    uint64_t inBlock = ~0ull;
    bool ended = false;
    for (uint64_t lineFeeds = m->lineFeeds; lineFeeds != 0; lineFeeds &= lineFeeds - 1) {
        size_t index = position + (unsigned)__builtin_ctzll(lineFeeds);
        size_t contentEnd = index > state->lineStart && bytes[index - 1] == '\r' ? index - 1 : index;
        if (contentEnd == state->lineStart) {
            ended = true;
            inBlock = (1ull << (index - position)) - 1;
            shape->blockEnd = index + 1;
            break;
        }
        state->lineCount += 1;
        if (contentEnd - state->lineStart > state->longest) state->longest = contentEnd - state->lineStart;
        state->textEnd = contentEnd;
        state->lineStart = index + 1;
        if (state->lineStart < limit && startNeedsLook(bytes[state->lineStart])) shape->lineStartToCheck = 1;
    }
    // Bytes after the text but before the empty line's LF are CRs and LFs: they change no flag,
    // and their CRs (each before an LF) are taken off the count at the end.
    if (m->markup & inBlock) shape->hasMarkup = 1;
    if (m->nonASCII & inBlock) shape->hasNonASCII = 1;
    if (m->nuls & inBlock) shape->hasNUL = 1;
    uint64_t arrows = m->greaterThans & (m->hyphens << 1 | state->hyphensBefore >> 1) & (m->hyphens << 2 | state->hyphensBefore);
    if (arrows & inBlock) shape->hasArrow = 1;
    if ((m->backslashes << 1 | state->backslashBefore) & m->letterNs & inBlock) shape->hasASSBreak = 1;
    uint64_t carriageReturns = m->carriageReturns & inBlock;
    shape->carriageReturns += (size_t)__builtin_popcountll(carriageReturns);
    // A CR not followed by an LF (the previous step's last byte's is looked at here).
    uint64_t stray = (carriageReturns & ~(m->lineFeeds >> 1)) & (inBlock >> 1);
    if (stray || (state->carriageReturnBefore && !(m->lineFeeds & 1))) shape->hasStrayCarriageReturn = 1;
    state->hyphensBefore = (m->hyphens >> 63) << 1 | (m->hyphens >> 62 & 1);
    state->backslashBefore = m->backslashes >> 63;
    state->carriageReturnBefore = carriageReturns >> 63;
    return ended;
}

/// The vector scan, with `masks` making each step's masks.
static inline bool scanWith(
    const uint8_t *bytes, size_t start, size_t limit, CueKitSubRipTextShape *shape, void (*masks)(const uint8_t *, StepMasks *)) {
    memset(shape, 0, sizeof *shape);
    if (start >= limit) return false;
    shape->lineStartToCheck = startNeedsLook(bytes[start]);
    ScanState state = {start, start, 0, 0, 0, 0, 0};
    uint8_t padded[64];
    for (size_t position = start; position < limit; position += 64) {
        const uint8_t *step = bytes + position;
        if (limit - position < 64) {
            // The last step, padded with NULs: no NUL is a line end, and none is in the block.
            memset(padded, 0, sizeof padded);
            memcpy(padded, step, limit - position);
            step = padded;
        }
        StepMasks m;
        masks(step, &m);
        if (scanStep(bytes, position, limit, &m, &state, shape)) {
            // The CRs between the text's end and the empty line's LF (the last line's, the empty
            // line's) are not the text's.
            for (size_t at = state.textEnd; at + 1 < shape->blockEnd; at++) shape->carriageReturns -= bytes[at] == '\r';
            shape->textEnd = state.textEnd;
            shape->lineCount = state.lineCount;
            shape->longestLine = state.longest;
            return true;
        }
    }
    return false;
}

bool cuekit_scan_subrip_text_sse2(const uint8_t *bytes, size_t start, size_t limit, CueKitSubRipTextShape *shape) {
    return scanWith(bytes, start, limit, shape, masksSSE2);
}

__attribute__((target("avx2"))) static bool scanAVX2(const uint8_t *bytes, size_t start, size_t limit, CueKitSubRipTextShape *shape) {
    return scanWith(bytes, start, limit, shape, masksAVX2);
}

bool cuekit_scan_subrip_text(const uint8_t *bytes, size_t start, size_t limit, CueKitSubRipTextShape *shape) {
    if (cuekit_cpu_has_avx2()) return scanAVX2(bytes, start, limit, shape);
    return cuekit_scan_subrip_text_sse2(bytes, start, limit, shape);
}

#else

bool cuekit_scan_subrip_text(const uint8_t *bytes, size_t start, size_t limit, CueKitSubRipTextShape *shape) {
    return cuekit_scan_subrip_text_portable(bytes, start, limit, shape);
}

bool cuekit_scan_subrip_text_sse2(const uint8_t *bytes, size_t start, size_t limit, CueKitSubRipTextShape *shape) {
    return cuekit_scan_subrip_text_portable(bytes, start, limit, shape);
}

#endif
