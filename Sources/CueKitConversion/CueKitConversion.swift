// CueKitConversion: any track file CueKit reads, as one stream of events, and events to a styled
// WebVTT track. The formats' own modules stay independent; this one knows them all.
