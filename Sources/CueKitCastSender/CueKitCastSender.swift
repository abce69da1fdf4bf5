// CueKitCastSender: a Swift sender for a CueKit receiver (`cuekit serve`), with the shape of the
// Cast SDKs' RemoteMediaClient, over the receiver's WebSocket.
