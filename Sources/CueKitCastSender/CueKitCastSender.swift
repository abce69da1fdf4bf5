// CueKitCastSender
