// UTF-8 validation: see CCueKitBytes.h.

#include "CCueKitBytes.h"

#include <string.h>

bool cuekit_utf8_is_valid_portable(const uint8_t *bytes, size_t count) {
    size_t i = 0;
    while (i < count) {
        uint8_t lead = bytes[i];
        if (lead < 0x80) {
            i += 1;
            continue;
        }
        // The length of the sequence, and the range its second byte must be in (RFC 3629's table).
        size_t length;
        uint8_t low = 0x80, high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0) low = 0xA0;
            if (lead == 0xED) high = 0x9F;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0) low = 0x90;
            if (lead == 0xF4) high = 0x8F;
        } else {
            return false;
        }
        if (count - i < length) return false;
        if (bytes[i + 1] < low || bytes[i + 1] > high) return false;
        for (size_t k = 2; k < length; k++) {
            if ((bytes[i + k] & 0xC0) != 0x80) return false;
        }
        i += length;
    }
    return true;
}

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include "CPUFeatures.h"

// What can be wrong with two bytes in a row, one bit each. Three tables, indexed by the high and
// low nibbles of the first byte and the high nibble of the second, give the faults each nibble
// allows; a fault is present when all three allow it.
enum {
    TOO_SHORT = 1 << 0,    // a lead byte, then no continuation byte
    TOO_LONG = 1 << 1,     // ASCII, then a continuation byte
    OVERLONG_3 = 1 << 2,   // E0, then 80-9F
    TOO_LARGE = 1 << 3,    // F4, then 90-BF; F5-FF, then 90-BF
    SURROGATE = 1 << 4,    // ED, then A0-BF
    OVERLONG_2 = 1 << 5,   // C0 or C1, then a continuation byte
    TOO_LARGE_1000 = 1 << 6,  // F5-FF, then 80-8F
    OVERLONG_4 = 1 << 6,   // F0, then 80-8F
    TWO_CONTINUATIONS = 1 << 7,  // a continuation byte, then another (right only as a sequence's third or fourth byte)
    CARRY = TOO_SHORT | TOO_LONG | TWO_CONTINUATIONS,
};

/// The faults of each byte of `input` with the byte before it (`previous` holds the 16 bytes
/// before `input`), 0 where there are none.
__attribute__((target("ssse3"))) static inline __m128i faults(__m128i input, __m128i previous) {
    const __m128i firstHigh = _mm_setr_epi8(
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        (char)TWO_CONTINUATIONS, (char)TWO_CONTINUATIONS, (char)TWO_CONTINUATIONS, (char)TWO_CONTINUATIONS,
        TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE, TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
    const __m128i firstLow = _mm_setr_epi8(
        (char)(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4), (char)(CARRY | OVERLONG_2), (char)CARRY, (char)CARRY,
        (char)(CARRY | TOO_LARGE), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000),
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000));
    const __m128i secondHigh = _mm_setr_epi8(
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4),
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | OVERLONG_3 | TOO_LARGE),
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | SURROGATE | TOO_LARGE),
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | SURROGATE | TOO_LARGE),
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT);
    const __m128i nibble = _mm_set1_epi8(0x0F);
    __m128i previous1 = _mm_alignr_epi8(input, previous, 15);
    __m128i byte1High = _mm_shuffle_epi8(firstHigh, _mm_and_si128(_mm_srli_epi16(previous1, 4), nibble));
    __m128i byte1Low = _mm_shuffle_epi8(firstLow, _mm_and_si128(previous1, nibble));
    __m128i byte2High = _mm_shuffle_epi8(secondHigh, _mm_and_si128(_mm_srli_epi16(input, 4), nibble));
    __m128i pairFaults = _mm_and_si128(_mm_and_si128(byte1High, byte1Low), byte2High);
    // A byte two after a lead of E0 or more, or three after one of F0 or more, must be a
    // continuation: there TWO_CONTINUATIONS is right, and its absence wrong.
    __m128i previous2 = _mm_alignr_epi8(input, previous, 14);
    __m128i previous3 = _mm_alignr_epi8(input, previous, 13);
    __m128i third = _mm_subs_epu8(previous2, _mm_set1_epi8(0xE0 - 0x80));
    __m128i fourth = _mm_subs_epu8(previous3, _mm_set1_epi8((char)(0xF0 - 0x80)));
    __m128i mustContinue = _mm_and_si128(_mm_or_si128(third, fourth), _mm_set1_epi8((char)0x80));
    return _mm_xor_si128(mustContinue, pairFaults);
}

__attribute__((target("ssse3"))) static bool isValidSSSE3(const uint8_t *bytes, size_t count) {
    __m128i previous = _mm_setzero_si128();
    __m128i found = _mm_setzero_si128();
    uint8_t padded[16];
    size_t i = 0;
    for (;;) {
        __m128i input;
        if (count - i >= 16) {
            input = _mm_loadu_si128((const __m128i *)(bytes + i));
        } else {
            // The last step, padded with NULs (ASCII): at least one follows the last byte, which
            // shows a sequence cut short as a lead without its continuation.
            memset(padded, 0, sizeof padded);
            memcpy(padded, bytes + i, count - i);
            input = _mm_loadu_si128((const __m128i *)padded);
            return _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(found, faults(input, previous)), _mm_setzero_si128())) == 0xFFFF;
        }
        found = _mm_or_si128(found, faults(input, previous));
        previous = input;
        i += 16;
    }
}

/// `input`'s bytes moved `n` places later, the last `n` of `previous` (the 32 bytes before
/// `input`) coming in first: AVX2's byte alignment works within each 16-byte lane, so the lane
/// boundary is bridged with a permute.
#define AVX2_PREVIOUS(input, previous, n) _mm256_alignr_epi8((input), _mm256_permute2x128_si256((previous), (input), 0x21), 16 - (n))

/// `faults` with AVX2, 32 bytes at once (the same tables in both lanes).
__attribute__((target("avx2"))) static inline __m256i faults256(__m256i input, __m256i previous) {
    const __m256i firstHigh = _mm256_setr_epi8(
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        (char)TWO_CONTINUATIONS, (char)TWO_CONTINUATIONS, (char)TWO_CONTINUATIONS, (char)TWO_CONTINUATIONS,
        TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE, TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        (char)TWO_CONTINUATIONS, (char)TWO_CONTINUATIONS, (char)TWO_CONTINUATIONS, (char)TWO_CONTINUATIONS,
        TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE, TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
#define FIRST_LOW \
        (char)(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4), (char)(CARRY | OVERLONG_2), (char)CARRY, (char)CARRY, \
        (char)(CARRY | TOO_LARGE), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), \
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), \
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), \
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE), (char)(CARRY | TOO_LARGE | TOO_LARGE_1000), \
        (char)(CARRY | TOO_LARGE | TOO_LARGE_1000)
#define SECOND_HIGH \
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, \
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4), \
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | OVERLONG_3 | TOO_LARGE), \
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | SURROGATE | TOO_LARGE), \
        (char)(TOO_LONG | OVERLONG_2 | TWO_CONTINUATIONS | SURROGATE | TOO_LARGE), \
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT
    const __m256i firstLow = _mm256_setr_epi8(FIRST_LOW, FIRST_LOW);
    const __m256i secondHigh = _mm256_setr_epi8(SECOND_HIGH, SECOND_HIGH);
#undef FIRST_LOW
#undef SECOND_HIGH
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i previous1 = AVX2_PREVIOUS(input, previous, 1);
    __m256i byte1High = _mm256_shuffle_epi8(firstHigh, _mm256_and_si256(_mm256_srli_epi16(previous1, 4), nibble));
    __m256i byte1Low = _mm256_shuffle_epi8(firstLow, _mm256_and_si256(previous1, nibble));
    __m256i byte2High = _mm256_shuffle_epi8(secondHigh, _mm256_and_si256(_mm256_srli_epi16(input, 4), nibble));
    __m256i pairFaults = _mm256_and_si256(_mm256_and_si256(byte1High, byte1Low), byte2High);
    __m256i previous2 = AVX2_PREVIOUS(input, previous, 2);
    __m256i previous3 = AVX2_PREVIOUS(input, previous, 3);
    __m256i third = _mm256_subs_epu8(previous2, _mm256_set1_epi8(0xE0 - 0x80));
    __m256i fourth = _mm256_subs_epu8(previous3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
    __m256i mustContinue = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(mustContinue, pairFaults);
}

/// `isValidSSSE3` with AVX2: 32 bytes a step.
__attribute__((target("avx2"))) static bool isValidAVX2(const uint8_t *bytes, size_t count) {
    __m256i previous = _mm256_setzero_si256();
    __m256i found = _mm256_setzero_si256();
    uint8_t padded[32];
    size_t i = 0;
    for (;;) {
        __m256i input;
        if (count - i >= 32) {
            input = _mm256_loadu_si256((const __m256i *)(bytes + i));
        } else {
            memset(padded, 0, sizeof padded);
            memcpy(padded, bytes + i, count - i);
            input = _mm256_loadu_si256((const __m256i *)padded);
            return _mm256_testz_si256(_mm256_or_si256(found, faults256(input, previous)), _mm256_set1_epi8(-1));
        }
        found = _mm256_or_si256(found, faults256(input, previous));
        previous = input;
        i += 32;
    }
}

bool cuekit_utf8_is_valid_ssse3(const uint8_t *bytes, size_t count) {
    if (cuekit_cpu_has_ssse3()) return isValidSSSE3(bytes, count);
    return cuekit_utf8_is_valid_portable(bytes, count);
}

bool cuekit_utf8_is_valid(const uint8_t *bytes, size_t count) {
    if (cuekit_cpu_has_avx2()) return isValidAVX2(bytes, count);
    if (cuekit_cpu_has_ssse3()) return isValidSSSE3(bytes, count);
    return cuekit_utf8_is_valid_portable(bytes, count);
}

#else

bool cuekit_utf8_is_valid(const uint8_t *bytes, size_t count) {
    return cuekit_utf8_is_valid_portable(bytes, count);
}

bool cuekit_utf8_is_valid_ssse3(const uint8_t *bytes, size_t count) {
    return cuekit_utf8_is_valid_portable(bytes, count);
}

#endif
