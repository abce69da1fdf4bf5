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

#endif
