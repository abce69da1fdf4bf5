// CueKitServer: media and tracks over HTTP with the CORS a Cast receiver needs, tracks converted on
// request, and a receiver whose state the senders drive over WebSockets (`cuekit serve`).
