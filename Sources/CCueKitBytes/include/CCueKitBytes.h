// CCueKitBytes: byte classification for the readers' fast paths, with the processor's vector
// instructions (AVX2 or SSE2 on x86-64; a portable loop elsewhere).
//
// Swift has no portable way to turn a vector comparison into a bit mask (x86's `pmovmskb`), which
// is what lets one pass over a cue block find its line ends, its `-->`s, its markup and its
// non-ASCII bytes at once (a WebVTT block, or a SubRip block's text lines), one pass over cue text
// mark its tags and references, and the TTML
// reader's look-ahead cross an XML document's text and values to the bytes that matter; this small
// C module does those passes and the UTF-8 check, and nothing else.

#ifndef CCUEKITBYTES_H
#define CCUEKITBYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// What one pass over a WebVTT block found: where its lines end, which of them hold `-->`,
/// and whether it has markup or non-ASCII bytes.
///
/// Offsets are into the buffer given to the scan. The block is the lines from `start` up to
/// the first empty line (an LF right after an LF).
typedef struct CueKitBlockShape {
    /// The offset of the LF that ends the block's first line.
    size_t firstLineEnd;
    /// The offset of the LF that ends its second line (0 when it has one line).
    size_t secondLineEnd;
    /// The offset of the LF that ends its last line.
    size_t lastLineEnd;
    /// How many (non-empty) lines the block has.
    size_t lineCount;
    /// The offset of the `>` of the block's first `-->`, and of its last one (both 0 when it has
    /// none): a cue block has one `-->`, on its first or second line, and none after.
    size_t firstArrow;
    size_t lastArrow;
    /// Nonzero when the block has a `<` or a `&` (cue text markup or a character reference).
    uint32_t hasMarkup;
    /// Nonzero when the block has a byte of 0x80 or more (UTF-8 beyond ASCII, to be validated).
    uint32_t hasNonASCII;
} CueKitBlockShape;

/// Scans the block that starts at `bytes[start]` (a non-empty line) and ends at the first empty
/// line before `limit`, and fills `shape`. Returns false, leaving `shape` unspecified, when the
/// block does not end before `limit`. Reads no byte outside `bytes[start..<limit]`.
///
/// With AVX2 where the processor has it (64 bytes a step), else SSE2 (32 bytes a step).
bool cuekit_scan_block(const uint8_t *bytes, size_t start, size_t limit, CueKitBlockShape *shape);

/// `cuekit_scan_block` with SSE2 whatever the processor has (for tests on processors with AVX2;
/// the portable scan where there is no SSE2).
bool cuekit_scan_block_sse2(const uint8_t *bytes, size_t start, size_t limit, CueKitBlockShape *shape);

/// `cuekit_scan_block` one byte at a time: the reference the vector scans are tested against.
bool cuekit_scan_block_portable(const uint8_t *bytes, size_t start, size_t limit, CueKitBlockShape *shape);

/// What one pass over the text lines of a SubRip block found: where they end, how long the
/// longest is, and whether they hold anything the SubRip reader's fast path must look at again.
///
/// Offsets are into the buffer given to the scan. The text is the lines from `start` up to the
/// first empty line (an LF, or a CR and an LF, at a line's start); lines end at LF, or CR LF.
typedef struct CueKitSubRipTextShape {
    /// Just past the last text line, before its line end.
    size_t textEnd;
    /// Just after the empty line that ends the text.
    size_t blockEnd;
    /// How many text lines there are (0 when the line at `start` is empty).
    size_t lineCount;
    /// The length of the longest text line, without its line end.
    size_t longestLine;
    /// How many CRs `start..<textEnd` holds.
    size_t carriageReturns;
    /// Nonzero when a CR in `start..<textEnd` is not followed by an LF (a line break of its own).
    uint32_t hasStrayCarriageReturn;
    /// Nonzero when the text has a `<`, `>`, `&` or `{` (markup to map, or bytes to escape).
    uint32_t hasMarkup;
    /// Nonzero when the text has a byte of 0x80 or more (to be checked as UTF-8).
    uint32_t hasNonASCII;
    /// Nonzero when the text has a NUL (which the reader replaces).
    uint32_t hasNUL;
    /// Nonzero when the text holds `-->`.
    uint32_t hasArrow;
    /// Nonzero when the text holds an ASS line break (`\N` or `\n`).
    uint32_t hasASSBreak;
    /// Nonzero when a text line starts with a blank byte, a digit or 0xEF: it may be blank, a
    /// sequence number, or start with a byte order mark.
    uint32_t lineStartToCheck;
} CueKitSubRipTextShape;

/// Scans the text lines of a SubRip block, from `bytes[start]` (a line start) to the first empty
/// line before `limit`, and fills `shape`. Returns false, leaving `shape` unspecified, when no
/// empty line comes before `limit`. Reads no byte outside `bytes[start..<limit]`.
///
/// With AVX2 where the processor has it, else SSE2 (64 bytes a step either way).
bool cuekit_scan_subrip_text(const uint8_t *bytes, size_t start, size_t limit, CueKitSubRipTextShape *shape);

/// `cuekit_scan_subrip_text` with SSE2 whatever the processor has (for tests; the portable scan
/// where there is no SSE2).
bool cuekit_scan_subrip_text_sse2(const uint8_t *bytes, size_t start, size_t limit, CueKitSubRipTextShape *shape);

/// `cuekit_scan_subrip_text` one byte at a time: the reference the vector scans are tested against.
bool cuekit_scan_subrip_text_portable(const uint8_t *bytes, size_t start, size_t limit, CueKitSubRipTextShape *shape);

/// True when `bytes[0..<count]` is valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// past U+10FFFF, no sequence cut short at the end). NUL counts as valid here; callers that
/// reject it look for it apart (the WebVTT fast path's blocks never hold one).
///
/// Keiser and Lemire's lookup algorithm ("Validating UTF-8 In Less Than One Instruction Per
/// Byte", 2021): 32 bytes a step with AVX2 where the processor has it, else 16 with SSSE3's byte
/// shuffles, else `cuekit_utf8_is_valid_portable`.
bool cuekit_utf8_is_valid(const uint8_t *bytes, size_t count);

/// `cuekit_utf8_is_valid` with SSSE3 whatever else the processor has (for tests on processors
/// with AVX2; the portable check where there is no SSSE3).
bool cuekit_utf8_is_valid_ssse3(const uint8_t *bytes, size_t count);

/// `cuekit_utf8_is_valid` one sequence at a time: the reference the vector check is tested against.
bool cuekit_utf8_is_valid_portable(const uint8_t *bytes, size_t count);

/// Marks the markup bytes of `bytes[0..<count]` (cue text): bit `i % 64` of word `i / 64` is set
/// in `specials` when byte `i` is `<` or `&`, and in `closers` when it is `>`. Each array holds
/// `(count + 63) / 64` words, all written. Reads no byte outside `bytes[0..<count]`.
///
/// With AVX2 where the processor has it, else SSE2 (64 bytes a word either way).
void cuekit_markup_masks(const uint8_t *bytes, size_t count, uint64_t *specials, uint64_t *closers);

/// `cuekit_markup_masks` with SSE2 whatever the processor has (for tests; the portable pass where
/// there is no SSE2).
void cuekit_markup_masks_sse2(const uint8_t *bytes, size_t count, uint64_t *specials, uint64_t *closers);

/// `cuekit_markup_masks` one byte at a time: the reference the vector passes are tested against.
void cuekit_markup_masks_portable(const uint8_t *bytes, size_t count, uint64_t *specials, uint64_t *closers);

/// The Unicode scalars of valid UTF-8 `bytes[from..<count]` up to the first LF (or the end), in
/// `*scalars`; returns where that LF is (or `count`). With AVX2 for 32 bytes or more, where the
/// processor has it (callers take shorter runs themselves); one byte at a time otherwise.
size_t cuekit_scalars_to_line_end(const uint8_t *bytes, size_t count, size_t from, size_t *scalars);

/// `cuekit_scalars_to_line_end` one byte at a time: the reference the vector pass is tested against.
size_t cuekit_scalars_to_line_end_portable(const uint8_t *bytes, size_t count, size_t from, size_t *scalars);

/// Copies `bytes[0..<count]` into `target` (room for `count` bytes, not overlapping them) with
/// each CR LF pair and each lone CR written as one LF (WebVTT's three line endings as one), and
/// returns how many bytes were written. A CR that is the last byte is written as an LF; an LF
/// that may follow it in the next input is the caller's to skip.
///
/// A vector a step (AVX2 where the processor has it, else SSE2): a line of a CR LF file is one
/// step, with no call.
size_t cuekit_rewrite_line_endings(const uint8_t *bytes, size_t count, uint8_t *target);

/// `cuekit_rewrite_line_endings` with SSE2 whatever the processor has (for tests; the portable
/// loop where there is no SSE2).
size_t cuekit_rewrite_line_endings_sse2(const uint8_t *bytes, size_t count, uint8_t *target);

/// `cuekit_rewrite_line_endings` one byte at a time: the reference the vector passes are tested against.
size_t cuekit_rewrite_line_endings_portable(const uint8_t *bytes, size_t count, uint8_t *target);

/// Where `cuekit_xml_attribute_scan` is in the markup, carried from one chunk to the next. Start
/// with all fields zero (in text, before any markup).
typedef struct CueKitXMLAttributeScan {
    /// One of the `CUEKIT_XML_SCAN_` states.
    uint32_t state;
    /// In a quoted value, its quote; in a skipped construct, which terminator ends it; after `<!`,
    /// 1 when `<![` may open a CDATA section.
    uint32_t detail;
    /// How many bytes of the terminator (or, after `<!`, of `--` or `[CDATA[`) have been seen.
    uint32_t matched;
    /// The `=` outside quotes in the open start tag so far.
    size_t count;
} CueKitXMLAttributeScan;

enum {
    CUEKIT_XML_SCAN_TEXT = 0,
    /// Just after `<`.
    CUEKIT_XML_SCAN_OPEN = 1,
    CUEKIT_XML_SCAN_START_TAG = 2,
    CUEKIT_XML_SCAN_QUOTED = 3,
    /// In a comment, processing instruction, CDATA section, end tag or declaration.
    CUEKIT_XML_SCAN_SKIPPING = 4,
    /// Just after `<!`.
    CUEKIT_XML_SCAN_BANG = 5,
};

/// Counts the `=` outside quotes in each XML start tag of `bytes[0..<count]`, the next chunk of a
/// document, skipping text, quoted values, end tags, comments, processing instructions, CDATA
/// sections and declarations. Returns the offset of the `=` that gives a start tag more than
/// `limit` (the state is then left as it was at that byte), or `SIZE_MAX`. `*lastLessThan` is the
/// offset of the last `<` met in text in these bytes (the open tag's, when a tag is open and began
/// in them), or `SIZE_MAX`. Reads UTF-8 and UTF-16 alike: the markup is ASCII, and NUL bytes change
/// no state.
///
/// Text, values and tags are crossed 64 bytes a step, with AVX2 where the processor has it, else
/// SSE2; one byte at a time on other processors.
size_t cuekit_xml_attribute_scan(
    CueKitXMLAttributeScan *scan, const uint8_t *bytes, size_t count, size_t limit, size_t *lastLessThan);

/// `cuekit_xml_attribute_scan` with SSE2 whatever the processor has (for tests; the portable scan
/// elsewhere).
size_t cuekit_xml_attribute_scan_sse2(
    CueKitXMLAttributeScan *scan, const uint8_t *bytes, size_t count, size_t limit, size_t *lastLessThan);

/// `cuekit_xml_attribute_scan` one byte at a time: the reference the vector scans are tested against.
size_t cuekit_xml_attribute_scan_portable(
    CueKitXMLAttributeScan *scan, const uint8_t *bytes, size_t count, size_t limit, size_t *lastLessThan);

#endif
