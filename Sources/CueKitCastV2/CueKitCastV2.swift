// The Cast v2 channel: what a Cast device speaks on TCP port 8009, under TLS.
//
// - ``CastV2Message``: one message (its virtual connection's ends, its namespace, its JSON), and
//   its frame: a 4-byte big-endian length and a protobuf `CastMessage` (`Proto/cast_channel.proto`).
// - ``CastV2FrameDecoder`` and ``CastV2FrameEncoder``: the frames on a NIO channel.
// - ``CastV2Connection``: a sender's end of the channel: CONNECT, heartbeat, requests matched to
//   their answers by `requestId`, with timeouts.
// - `RemoteMediaClient.connect(toDevice:)`: CueKitCastSender's client over that channel, joined to
//   the device's Default Media Receiver.
// - ``CastV2Device``: a device's end: it answers the connection, heartbeat and receiver namespaces
//   and hands the media namespace to a `CastMediaApplication` (`cuekit cast emulate`).
//
// Devices present self-signed certificates, which no authority vouches for: a sender accepts them
// as every Cast sender does (the Cast SDKs then authenticate the device by a challenge CueKit does
// not make). The channel is encrypted, not authenticated.
