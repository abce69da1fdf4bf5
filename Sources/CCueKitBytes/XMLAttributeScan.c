// The `=` of each XML start tag counted on the way to libxml2 (see `cuekit_xml_attribute_scan`).
//
// `step` is the state machine, one byte at a time: the reference, and what comments, processing
// instructions, CDATA sections and declarations go through. The vector walk marks, 64 bytes at a
// time, the bytes that can change the common states (`<` in text; `=`, quotes and `>` in a start
// tag; the closing quote in a value; `>` in an end tag) and goes from one such byte to the next,
// passing over the bytes `step` would have left the state unchanged for.

#include "CCueKitBytes.h"

enum {
    STATE_TEXT = CUEKIT_XML_SCAN_TEXT,
    STATE_OPEN = CUEKIT_XML_SCAN_OPEN,
    STATE_START_TAG = CUEKIT_XML_SCAN_START_TAG,
    STATE_QUOTED = CUEKIT_XML_SCAN_QUOTED,
    STATE_SKIPPING = CUEKIT_XML_SCAN_SKIPPING,
    STATE_BANG = CUEKIT_XML_SCAN_BANG,
};

/// What ends a skipped construct (`detail` in the skipping state).
enum { TERMINATOR_COMMENT, TERMINATOR_PROCESSING_INSTRUCTION, TERMINATOR_CDATA, TERMINATOR_TAG_END };

static const char *const terminators[] = {"-->", "?>", "]]>", ">"};
static const uint32_t terminatorLengths[] = {3, 2, 3, 1};
static const char cdataOpening[] = "[CDATA[";

/// Moves the state past one byte at `offset`; true when it is the `=` that takes the open start
/// tag past `limit`.
static inline bool step(CueKitXMLAttributeScan *scan, uint8_t byte, size_t offset, size_t limit, size_t *lastLessThan) {
    switch (scan->state) {
    case STATE_TEXT:
        if (byte == '<') {
            scan->state = STATE_OPEN;
            *lastLessThan = offset;
        }
        return false;
    case STATE_OPEN:
        switch (byte) {
        case 0: break;
        case '!':
            scan->state = STATE_BANG;
            scan->detail = 0;
            scan->matched = 0;
            break;
        case '?':
            scan->state = STATE_SKIPPING;
            scan->detail = TERMINATOR_PROCESSING_INSTRUCTION;
            scan->matched = 0;
            break;
        case '/':
            scan->state = STATE_SKIPPING;
            scan->detail = TERMINATOR_TAG_END;
            scan->matched = 0;
            break;
        default:
            // The element name's first byte, whatever it is.
            scan->state = STATE_START_TAG;
            scan->count = 0;
        }
        return false;
    case STATE_START_TAG:
        if (byte == '=') {
            scan->count += 1;
            return scan->count > limit;
        }
        if (byte == '"' || byte == '\'') {
            scan->state = STATE_QUOTED;
            scan->detail = byte;
        } else if (byte == '>') {
            scan->state = STATE_TEXT;
        }
        return false;
    case STATE_QUOTED:
        if (byte == scan->detail) scan->state = STATE_START_TAG;
        return false;
    case STATE_SKIPPING: {
        if (byte == 0) return false;
        const char *terminator = terminators[scan->detail];
        uint32_t matched = scan->matched;
        if (byte == (uint8_t)terminator[matched]) {
            if (matched + 1 == terminatorLengths[scan->detail]) {
                scan->state = STATE_TEXT;
            } else {
                scan->matched = matched + 1;
            }
        } else if (byte == (uint8_t)terminator[0]) {
            // `--->` and `]]]>` still end it: a repeated first byte keeps what matched.
            bool keeps = matched > 0 && (uint8_t)terminator[matched - 1] == byte;
            scan->matched = keeps ? matched : 1;
        } else {
            scan->matched = 0;
        }
        return false;
    }
    case STATE_BANG: {
        // `detail` is 1 once `<![` says a CDATA section may follow; `matched` counts what of
        // `--` or `[CDATA[` has been seen.
        if (byte == 0) return false;
        uint32_t matched = scan->matched;
        if (matched == 0 && (byte == '-' || byte == '[')) {
            scan->detail = byte == '[';
            scan->matched = 1;
        } else if (matched > 0 && !scan->detail && byte == '-') {
            scan->state = STATE_SKIPPING;
            scan->detail = TERMINATOR_COMMENT;
            scan->matched = 0;
        } else if (matched > 0 && scan->detail && byte == (uint8_t)cdataOpening[matched]) {
            if (matched + 1 == sizeof(cdataOpening) - 1) {
                scan->state = STATE_SKIPPING;
                scan->detail = TERMINATOR_CDATA;
                scan->matched = 0;
            } else {
                scan->matched = matched + 1;
            }
        } else if (byte == '>') {
            scan->state = STATE_TEXT;
        } else {
            // A declaration (which the reader refuses anyway): up to its `>`.
            scan->state = STATE_SKIPPING;
            scan->detail = TERMINATOR_TAG_END;
            scan->matched = 0;
        }
        return false;
    }
    }
    return false;
}

size_t cuekit_xml_attribute_scan_portable(
    CueKitXMLAttributeScan *scan, const uint8_t *bytes, size_t count, size_t limit, size_t *lastLessThan) {
    *lastLessThan = SIZE_MAX;
    for (size_t index = 0; index < count; index++) {
        if (step(scan, bytes[index], index, limit, lastLessThan)) return index;
    }
    return SIZE_MAX;
}

#if defined(__x86_64__)
#include <immintrin.h>

#include "CPUFeatures.h"

/// The bytes of 64 that can end a state, a bit each.
typedef struct Marks {
    uint64_t lessThan, greaterThan, equals, doubleQuote, singleQuote;
} Marks;

__attribute__((target("avx2"))) static inline uint64_t mask64AVX2(__m256i low, __m256i high, char byte) {
    __m256i wanted = _mm256_set1_epi8(byte);
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, wanted))
        | ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, wanted)) << 32);
}

__attribute__((target("avx2"))) static void marksAVX2(const uint8_t *bytes, Marks *marks) {
    __m256i low = _mm256_loadu_si256((const __m256i *)bytes);
    __m256i high = _mm256_loadu_si256((const __m256i *)(bytes + 32));
    marks->lessThan = mask64AVX2(low, high, '<');
    marks->greaterThan = mask64AVX2(low, high, '>');
    marks->equals = mask64AVX2(low, high, '=');
    marks->doubleQuote = mask64AVX2(low, high, '"');
    marks->singleQuote = mask64AVX2(low, high, '\'');
}

static inline uint64_t mask64SSE2(const __m128i *parts, char byte) {
    __m128i wanted = _mm_set1_epi8(byte);
    uint64_t mask = 0;
    for (int part = 0; part < 4; part++) {
        mask |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(parts[part], wanted)) << (16 * part);
    }
    return mask;
}

static void marksSSE2(const uint8_t *bytes, Marks *marks) {
    __m128i parts[4];
    for (int part = 0; part < 4; part++) parts[part] = _mm_loadu_si128((const __m128i *)(bytes + 16 * part));
    marks->lessThan = mask64SSE2(parts, '<');
    marks->greaterThan = mask64SSE2(parts, '>');
    marks->equals = mask64SSE2(parts, '=');
    marks->doubleQuote = mask64SSE2(parts, '"');
    marks->singleQuote = mask64SSE2(parts, '\'');
}

/// The bits above bit `at`.
static inline uint64_t bitsAbove(uint64_t at) { return ~((2ULL << at) - 1); }

static size_t scanVector(
    CueKitXMLAttributeScan *scan, const uint8_t *bytes, size_t count, size_t limit, size_t *lastLessThan, bool avx2) {
    *lastLessThan = SIZE_MAX;
    size_t index = 0;
    while (index < count) {
        uint32_t state = scan->state;
        bool vectorState = state == STATE_TEXT || state == STATE_START_TAG || state == STATE_QUOTED
            || (state == STATE_SKIPPING && scan->detail == TERMINATOR_TAG_END);
        if (!vectorState) {
            if (step(scan, bytes[index], index, limit, lastLessThan)) return index;
            index += 1;
            continue;
        }
        // The 64 bytes from `index`; past the end, zeros (which decide nothing).
        Marks marks;
        size_t available = count - index;
        if (available >= 64) {
            avx2 ? marksAVX2(bytes + index, &marks) : marksSSE2(bytes + index, &marks);
            available = 64;
        } else {
            uint8_t tail[64] = {0};
            __builtin_memcpy(tail, bytes + index, available);
            avx2 ? marksAVX2(tail, &marks) : marksSSE2(tail, &marks);
        }
        const uint8_t *block = bytes + index;
        // The states that the marks decide, walked with the state in locals; `ahead` keeps the
        // bits of the bytes not yet looked at.
        uint64_t ahead = ~0ULL, found;
        size_t attributes = scan->count;
        uint32_t quote = scan->detail;
        uint64_t at;
        switch (state) {
        case STATE_START_TAG: goto startTag;
        case STATE_QUOTED: goto quoted;
        case STATE_SKIPPING: goto endTag;
        default: goto text;
        }
    text:
        found = marks.lessThan & ahead;
        if (found == 0) {
            state = STATE_TEXT;
            goto nextBlock;
        }
        at = (uint64_t)__builtin_ctzll(found);
        *lastLessThan = index + at;
        if (at + 1 >= available) {
            state = STATE_OPEN;
            goto nextBlock;
        }
        // The byte after `<` says what follows.
        at += 1;
        ahead = bitsAbove(at);
        switch (block[at]) {
        case '/': goto endTag;
        case '!':
        case '?':
        case 0:
            // Comments, processing instructions, declarations and NULs: byte by byte.
            scan->state = STATE_OPEN;
            step(scan, block[at], index + at, limit, lastLessThan);
            index += at + 1;
            continue;
        default: attributes = 0; goto startTag;
        }
    startTag:
        found = (marks.equals | marks.doubleQuote | marks.singleQuote | marks.greaterThan) & ahead;
        if (found == 0) {
            state = STATE_START_TAG;
            goto nextBlock;
        }
        at = (uint64_t)__builtin_ctzll(found);
        ahead = bitsAbove(at);
        switch (block[at]) {
        case '=':
            attributes += 1;
            if (attributes > limit) {
                scan->state = STATE_START_TAG;
                scan->count = attributes;
                return index + at;
            }
            goto startTag;
        case '>': goto text;
        default: quote = block[at]; goto quoted;
        }
    quoted:
        found = (quote == '"' ? marks.doubleQuote : marks.singleQuote) & ahead;
        if (found == 0) {
            state = STATE_QUOTED;
            goto nextBlock;
        }
        ahead = bitsAbove((uint64_t)__builtin_ctzll(found));
        goto startTag;
    endTag:
        found = marks.greaterThan & ahead;
        if (found == 0) {
            state = STATE_SKIPPING;
            quote = TERMINATOR_TAG_END;
            goto nextBlock;
        }
        ahead = bitsAbove((uint64_t)__builtin_ctzll(found));
        goto text;
    nextBlock:
        scan->state = state;
        scan->detail = quote;
        scan->matched = 0;
        scan->count = attributes;
        index += available;
    }
    return SIZE_MAX;
}

size_t cuekit_xml_attribute_scan(
    CueKitXMLAttributeScan *scan, const uint8_t *bytes, size_t count, size_t limit, size_t *lastLessThan) {
    return scanVector(scan, bytes, count, limit, lastLessThan, cuekit_cpu_has_avx2());
}

size_t cuekit_xml_attribute_scan_sse2(
    CueKitXMLAttributeScan *scan, const uint8_t *bytes, size_t count, size_t limit, size_t *lastLessThan) {
    return scanVector(scan, bytes, count, limit, lastLessThan, false);
}

#else

size_t cuekit_xml_attribute_scan(
    CueKitXMLAttributeScan *scan, const uint8_t *bytes, size_t count, size_t limit, size_t *lastLessThan) {
    return cuekit_xml_attribute_scan_portable(scan, bytes, count, limit, lastLessThan);
}

size_t cuekit_xml_attribute_scan_sse2(
    CueKitXMLAttributeScan *scan, const uint8_t *bytes, size_t count, size_t limit, size_t *lastLessThan) {
    return cuekit_xml_attribute_scan_portable(scan, bytes, count, limit, lastLessThan);
}

#endif
