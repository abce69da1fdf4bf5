// CueKitCastSender: a Swift sender for a CueKit receiver (`cuekit serve`), with the shape of the
// Cast SDKs' RemoteMediaClient, over the receiver's WebSocket or any other RemoteMediaTransport
// (CueKitCastV2 adds a Cast device's Cast v2 channel).
