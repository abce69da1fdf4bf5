// CueKitConversion: any track file CueKit reads, as one stream of events, and events to a styled
// WebVTT track. The formats' own modules stay independent; this one knows them all.

// A program that converts needs the model (events, cues, sinks) and Cast's styles with every
// conversion: `import CueKitConversion` brings them.
@_exported import CueKit
@_exported import CueKitCast
