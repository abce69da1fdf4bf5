/// The receiver page (`/receiver`): a `<video crossorigin>` with one `<track>` per text track,
/// drawn as the server's ``CastReceiverSession`` says.
///
/// The page holds no rules. It connects to `/receiver/socket`, and each state it is sent names the
/// media, the tracks with their modes (`showing` or `disabled`), the style sheet of the text track
/// style (made in Swift by `TextTrackStyle.receiverPageCSS`), the player state and the playhead. It
/// reports where its player is once a second. `window.cuekit` exposes the last state and the
/// tracks that failed to load, for tests and for a person with the developer tools open.
enum ReceiverPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>CueKit receiver</title>
        <style>
        html, body { margin: 0; height: 100%; background: #000; overflow: hidden; }
        #player { display: block; width: 100vw; height: 100vh; background: #000; }
        #status { position: fixed; left: 8px; top: 6px; color: #9a9a9a; font: 13px system-ui, sans-serif; }
        </style>
        <style id="cast-style"></style>
        </head>
        <body>
        <video id="player" crossorigin="anonymous" muted playsinline preload="auto"></video>
        <div id="status">Waiting for a sender to load media…</div>
        <script>
        "use strict";
        const video = document.getElementById("player");
        const castStyle = document.getElementById("cast-style");
        const statusLine = document.getElementById("status");
        const cuekit = window.cuekit = { state: null, trackErrors: [], mediaErrors: 0, socket: null };
        let sessionId = null;
        let lastTime = null;

        function connect() {
          const scheme = location.protocol === "https:" ? "wss://" : "ws://";
          const socket = new WebSocket(scheme + location.host + "/receiver/socket");
          cuekit.socket = socket;
          socket.onmessage = (event) => apply(JSON.parse(event.data));
          socket.onclose = () => setTimeout(connect, 1000);
        }

        function removeTracks() {
          for (const element of Array.from(video.querySelectorAll("track"))) element.remove();
        }

        function apply(state) {
          cuekit.state = state;
          if (state.mediaSessionId === null) {
            sessionId = null;
            lastTime = null;
            removeTracks();
            video.removeAttribute("src");
            video.load();
            castStyle.textContent = "";
            statusLine.textContent = "Waiting for a sender to load media…";
            statusLine.hidden = false;
            return;
          }
          if (state.mediaSessionId !== sessionId) {
            sessionId = state.mediaSessionId;
            lastTime = null;
            removeTracks();
            video.src = state.src;
            for (const track of state.tracks) {
              const element = document.createElement("track");
              element.id = "track-" + track.trackId;
              element.kind = track.kind;
              element.src = track.src;
              if (track.srclang) element.srclang = track.srclang;
              element.label = track.label;
              element.addEventListener("error", () => cuekit.trackErrors.push(track.trackId));
              element.addEventListener("load", enforceModes);
              video.appendChild(element);
            }
          }
          statusLine.hidden = true;
          castStyle.textContent = state.css;
          enforceModes();
          if (state.currentTime !== lastTime) {
            lastTime = state.currentTime;
            if (Math.abs(video.currentTime - state.currentTime) > 0.25) video.currentTime = state.currentTime;
          }
          if (state.playerState === "PLAYING") video.play().catch(() => {});
          else video.pause();
        }

        // The modes are the server's: Chromium's own choice of a track by the viewer's language, made
        // when tracks are added, is undone.
        function enforceModes() {
          const state = cuekit.state;
          if (!state || !state.tracks) return;
          for (const track of state.tracks) {
            const element = document.getElementById("track-" + track.trackId);
            if (element && element.track.mode !== track.mode) element.track.mode = track.mode;
          }
        }

        video.textTracks.addEventListener("change", enforceModes);
        video.addEventListener("error", () => { cuekit.mediaErrors += 1; });
        setInterval(() => {
          const socket = cuekit.socket;
          if (socket && socket.readyState === WebSocket.OPEN && sessionId !== null) {
            socket.send(JSON.stringify({ type: "PLAYBACK", currentTime: video.currentTime }));
          }
        }, 1000);
        connect();
        </script>
        </body>
        </html>
        """#
}
