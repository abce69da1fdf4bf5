/// The receiver page (`/receiver`): a `<video crossorigin>` with one `<track>` per text track,
/// drawn as the server's ``CastReceiverSession`` says.
///
/// The page holds no rules. It connects to `/receiver/socket`, and each state it is sent names the
/// media, the tracks with their modes (`showing` or `disabled`), the style sheet of the text track
/// style (made in Swift by `TextTrackStyle.receiverPageCSS`, made to win over a track's own STYLE
/// rules), the player state and the playhead. It
/// reports where its player is once a second, and whether each new session loaded: `LOADED` once
/// the video has its metadata and every track answered WebVTT with CORS, else `LOAD_ERROR` with
/// Cast's `detailedErrorCode` (100 + the media element's error code for the media, 905 for a
/// track) and a sentence naming the URL. A failure is shown on the page too. `window.cuekit`
/// exposes the last state, the reports and the tracks that failed to load, for tests and for a
/// person with the developer tools open.
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
        #status.error { color: #ff8a80; font-size: 16px; right: 8px; }
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
        const cuekit = window.cuekit = { state: null, trackErrors: [], mediaErrors: 0, reports: [], socket: null };
        let sessionId = null;
        let loadedSession = null;
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
            statusLine.textContent = state.error ? "Could not play: " + state.error : "Waiting for a sender to load media…";
            statusLine.className = state.error ? "error" : "";
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
            checkLoad(state);
          }
          statusLine.hidden = true;
          statusLine.className = "";
          applyCastStyle(state.css);
          enforceModes();
          if (state.currentTime !== lastTime) {
            lastTime = state.currentTime;
            if (Math.abs(video.currentTime - state.currentTime) > 0.25) video.currentTime = state.currentTime;
          }
          if (state.playerState === "PLAYING") video.play().catch(() => {});
          else video.pause();
        }

        // The Cast style wins over a track's own STYLE rules, as it does where CueKit bakes it into
        // WebVTT (after the file's own): each of its declarations is made important, since a
        // track's rules would otherwise win over the page's.
        function applyCastStyle(css) {
          if (castStyle.textContent === css) return;
          castStyle.textContent = css;
          for (const rule of Array.from(castStyle.sheet ? castStyle.sheet.cssRules : [])) {
            if (!rule.style) continue;
            for (const name of Array.from(rule.style)) rule.style.setProperty(name, rule.style.getPropertyValue(name), "important");
          }
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

        function report(message) {
          cuekit.reports.push(message);
          const socket = cuekit.socket;
          if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
        }

        const mediaErrorNames = { 1: "MEDIA_ERR_ABORTED", 2: "MEDIA_ERR_NETWORK", 3: "MEDIA_ERR_DECODE", 4: "MEDIA_ERR_SRC_NOT_SUPPORTED" };

        // What the server answers for a URL, to say why the player refused it.
        async function httpStatus(url) {
          try {
            const response = await fetch(url, { method: "HEAD", mode: "cors", credentials: "omit" });
            return response.ok ? "" : " (HTTP " + response.status + ")";
          } catch (error) {
            return " (it cannot be fetched: the server is unreachable or sends no CORS headers)";
          }
        }

        function mediaLoaded(src) {
          return new Promise((resolve, reject) => {
            if (video.readyState >= 1) { resolve(); return; }
            video.addEventListener("loadedmetadata", () => resolve(), { once: true });
            video.addEventListener("error", async () => {
              const code = video.error ? video.error.code : 0;
              const name = mediaErrorNames[code] || "an unknown error";
              reject({ detailedErrorCode: 100 + code, message: "the media " + src + " could not be played: " + name + (await httpStatus(src)) });
            }, { once: true });
          });
        }

        // A track loads on a receiver when it is served with CORS and is WebVTT.
        async function trackLoaded(track) {
          const what = "track " + track.trackId + " (" + track.src + ")";
          let response;
          try {
            response = await fetch(track.src, { mode: "cors", credentials: "omit" });
          } catch (error) {
            throw { detailedErrorCode: 905, message: what + " cannot be fetched: the server is unreachable or sends no CORS headers" };
          }
          if (!response.ok) throw { detailedErrorCode: 905, message: what + " could not be loaded (HTTP " + response.status + ")" };
          // The first bytes say whether it is WebVTT; the <track> itself reads the rest.
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let text = "";
          while (text.length < 16) {
            const chunk = await reader.read();
            if (chunk.done) break;
            text += decoder.decode(chunk.value, { stream: true });
          }
          reader.cancel().catch(() => {});
          text = text.replace(/^\uFEFF/, "");
          if (!/^WEBVTT([ \t\r\n]|$)/.test(text)) {
            const url = new URL(track.src, location.href);
            const served = url.origin === location.origin && /\.(srt|ttml|dfxp|xml)$/i.test(url.pathname)
              ? "; name it as /tracks" + url.pathname + "?as=vtt, which answers WebVTT" : "";
            throw { detailedErrorCode: 905, message: what + " is not WebVTT, which is all a receiver draws (it starts " + JSON.stringify(text.slice(0, 24)) + ")" + served };
          }
        }

        function checkLoad(state) {
          const id = state.mediaSessionId;
          Promise.all([mediaLoaded(state.src)].concat(state.tracks.map(trackLoaded))).then(
            () => { if (sessionId === id) { loadedSession = id; report({ type: "LOADED", mediaSessionId: id }); } },
            (failure) => {
              if (sessionId !== id) return;
              report({ type: "LOAD_ERROR", mediaSessionId: id, detailedErrorCode: failure.detailedErrorCode || 905, message: failure.message || String(failure) });
            });
        }

        video.textTracks.addEventListener("change", enforceModes);
        // A failure after the load was answered ends the session too (the server tells the senders ERROR).
        video.addEventListener("error", () => {
          cuekit.mediaErrors += 1;
          if (sessionId === null || loadedSession !== sessionId || !video.error) return;
          const code = video.error.code;
          report({ type: "LOAD_ERROR", mediaSessionId: sessionId, detailedErrorCode: 100 + code,
            message: "the media " + video.currentSrc + " stopped playing: " + (mediaErrorNames[code] || "an unknown error") });
        });
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
