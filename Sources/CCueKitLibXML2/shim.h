// libxml2 as CueKitTTML sees it. Only CueKitTTML imports this module, with `internal import`.
//
// Debian builds libxml2 with ICU, and the Swift toolchain's Foundation carries its own ICU headers:
// a Swift file that sees both fails with "'UErrorCode' has different definitions in different
// modules". CueKit never uses libxml2's ICU encoders, so the switch is turned off before the other
// headers are read.
#ifndef CCUEKIT_LIBXML2_SHIM_H
#define CCUEKIT_LIBXML2_SHIM_H

#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/globals.h>

// Some of libxml2's errors (encoding conversion, I/O) have no parser context: they go to the
// calling thread's generic error handler, which prints to standard error. The reader sees them
// through the parser's state instead, and installs this handler around each libxml2 call, on its
// own thread only (libxml2 keeps the handler per thread), restoring the previous one after.
// Variadic, so it is defined here: Swift cannot define a C variadic function.
static void cuekit_xml_discard_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

typedef struct {
    xmlGenericErrorFunc handler;
    void *context;
} cuekit_xml_generic_error_handler;

static inline cuekit_xml_generic_error_handler cuekit_xml_silence_generic_errors(void) {
    cuekit_xml_generic_error_handler saved = {*__xmlGenericError(), *__xmlGenericErrorContext()};
    xmlSetGenericErrorFunc(NULL, cuekit_xml_discard_generic_error);
    return saved;
}

static inline void cuekit_xml_restore_generic_errors(cuekit_xml_generic_error_handler saved) {
    xmlSetGenericErrorFunc(saved.context, saved.handler);
}

#endif
