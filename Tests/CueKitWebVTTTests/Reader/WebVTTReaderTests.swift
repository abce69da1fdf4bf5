import CueKit
import CueKitWebVTT
import Testing

@Suite struct WebVTTReaderTests {}
