/// The sender page (`/sender`): a person's remote for the receiver, speaking Cast's media
/// namespace over `/cast` like any other sender.
///
/// It offers what the server has (`/media.json`): a media picker, the tracks with a switch each
/// (those named after the media chosen, else the first eight; the first of them on at load), and
/// the folder's Cast styles; the choices write a LOAD message, with
/// absolute URLs, that the person can still edit as JSON. It lists the loaded media's text tracks
/// with a switch each (and one for all off), edits every field of the text track style, shows a
/// failed load (`LOAD_FAILED`, `ERROR`) with its reason at the top, and shows each message it is
/// sent. `window.cuekit` exposes the offer, the messages received, the failure shown and `send`,
/// for tests.
enum SenderPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>CueKit sender</title>
        <style>
        body { font: 14px system-ui, sans-serif; margin: 16px; max-width: 960px; color: #222; }
        fieldset { margin: 12px 0; border: 1px solid #ccc; border-radius: 6px; }
        label { display: inline-block; min-width: 150px; margin: 3px 0; }
        textarea { width: 100%; height: 160px; font: 12px ui-monospace, monospace; }
        #log { height: 220px; overflow: auto; background: #f6f6f6; font: 12px ui-monospace, monospace; white-space: pre-wrap; padding: 6px; }
        .error { color: #b00020; }
        .failure { color: #fff; background: #b00020; padding: 8px 12px; border-radius: 6px; margin: 8px 0; font-weight: 600; }
        </style>
        </head>
        <body>
        <h1>CueKit sender</h1>
        <p id="connection">Connecting…</p>
        <div id="failure" class="failure" hidden></div>
        <fieldset>
          <legend>Load</legend>
          <div id="offer">Asking the server what it has…</div>
          <p><label for="media">Media</label> <select id="media"></select></p>
          <div id="offered-tracks"></div>
          <p><label for="style">Style</label> <select id="style"><option value="">(none)</option></select></p>
          <details>
            <summary>The LOAD message (edit it by hand if you like; the choices above rewrite it)</summary>
            <textarea id="load-json" spellcheck="false"></textarea>
          </details>
          <button id="load">Load</button> <button id="get-status">Get status</button>
          <button id="play">Play</button> <button id="pause">Pause</button>
        </fieldset>
        <fieldset>
          <legend>Text tracks</legend>
          <div id="tracks">Nothing is loaded.</div>
          <button id="tracks-off">All off</button>
        </fieldset>
        <fieldset>
          <legend>Text track style</legend>
          <div id="style-fields"></div>
          <button id="apply-style">Apply style</button>
        </fieldset>
        <h2>Messages</h2>
        <div id="log"></div>
        <script>
        "use strict";
        const cuekit = window.cuekit = { messages: [], media: null, status: null, socket: null, send: null, offer: null, failure: null };
        let requestId = 1;
        const log = document.getElementById("log");

        function write(line, isError) {
          const entry = document.createElement("div");
          entry.textContent = line;
          if (isError) entry.className = "error";
          log.prepend(entry);
        }

        function send(message) {
          message.requestId = message.requestId || requestId++;
          if (cuekit.status && message.type !== "LOAD" && message.type !== "GET_STATUS" && message.mediaSessionId === undefined) {
            message.mediaSessionId = cuekit.status.mediaSessionId;
          }
          cuekit.socket.send(JSON.stringify(message));
          write("→ " + JSON.stringify(message));
          return message.requestId;
        }
        cuekit.send = send;

        function connect() {
          const scheme = location.protocol === "https:" ? "wss://" : "ws://";
          const socket = new WebSocket(scheme + location.host + "/cast");
          cuekit.socket = socket;
          socket.onopen = () => { document.getElementById("connection").textContent = "Connected to " + location.host; send({ type: "GET_STATUS" }); };
          socket.onclose = () => { document.getElementById("connection").textContent = "Disconnected; retrying…"; setTimeout(connect, 1000); };
          socket.onmessage = (event) => receive(JSON.parse(event.data));
        }

        function showFailure(text) {
          cuekit.failure = text;
          const box = document.getElementById("failure");
          box.textContent = text || "";
          box.hidden = !text;
        }

        function receive(message) {
          cuekit.messages.push(message);
          write("← " + JSON.stringify(message), message.type !== "MEDIA_STATUS");
          if (message.type === "LOAD_FAILED" || message.type === "ERROR") {
            const reason = (message.customData && message.customData.message) || message.reason || "no reason given";
            const code = message.detailedErrorCode ? " [" + message.detailedErrorCode + "]" : "";
            showFailure((message.type === "LOAD_FAILED" ? "The load failed: " : "Playback failed: ") + reason + code);
          }
          if (message.type !== "MEDIA_STATUS") return;
          const status = message.status && message.status[0];
          if (!status) { cuekit.status = null; cuekit.media = null; showTracks(); return; }
          cuekit.status = status;
          if (status.playerState !== "IDLE") showFailure(null);
          if (status.playerState === "IDLE" && !status.media) { cuekit.media = null; showTracks(); return; }
          if (status.media) { cuekit.media = status.media; showStyle(status.media.textTrackStyle || {}); }
          showTracks();
        }

        function showTracks() {
          const box = document.getElementById("tracks");
          box.textContent = "";
          const tracks = ((cuekit.media && cuekit.media.tracks) || []).filter((track) => track.type === "TEXT");
          if (tracks.length === 0) { box.textContent = cuekit.media ? "The media has no text tracks." : "Nothing is loaded."; return; }
          const active = new Set((cuekit.status && cuekit.status.activeTrackIds) || []);
          for (const track of tracks) {
            const label = document.createElement("label");
            const box2 = document.createElement("input");
            box2.type = "checkbox";
            box2.id = "track-" + track.trackId;
            box2.checked = active.has(track.trackId);
            box2.addEventListener("change", () => {
              const ids = tracks.map((t) => t.trackId).filter((id) => document.getElementById("track-" + id).checked);
              send({ type: "EDIT_TRACKS_INFO", activeTrackIds: ids });
            });
            label.append(box2, " " + (track.name || track.language || ("Track " + track.trackId)) + " (" + track.trackId + ")");
            box.append(label, document.createElement("br"));
          }
        }

        const colorFields = ["foregroundColor", "backgroundColor", "edgeColor", "windowColor"];
        const choiceFields = {
          edgeType: ["NONE", "OUTLINE", "DROP_SHADOW", "RAISED", "DEPRESSED"],
          fontGenericFamily: ["SANS_SERIF", "MONOSPACED_SANS_SERIF", "SERIF", "MONOSPACED_SERIF", "CASUAL", "CURSIVE", "SMALL_CAPITALS"],
          fontStyle: ["NORMAL", "BOLD", "BOLD_ITALIC", "ITALIC"],
          windowType: ["NONE", "NORMAL", "ROUNDED_CORNERS"],
        };
        const numberFields = { fontScale: "0.1", windowRoundedCornerRadius: "1" };

        function buildStyleForm() {
          const box = document.getElementById("style-fields");
          for (const name of colorFields) {
            const label = document.createElement("label");
            label.textContent = name;
            const use = document.createElement("input"); use.type = "checkbox"; use.id = "use-" + name;
            const color = document.createElement("input"); color.type = "color"; color.id = name;
            const opacity = document.createElement("input"); opacity.type = "range"; opacity.min = 0; opacity.max = 255; opacity.value = 255; opacity.id = name + "-alpha";
            box.append(label, use, color, " opacity ", opacity, document.createElement("br"));
          }
          for (const [name, values] of Object.entries(choiceFields)) {
            const label = document.createElement("label");
            label.textContent = name;
            const select = document.createElement("select"); select.id = name;
            select.append(new Option("(unset)", ""));
            for (const value of values) select.append(new Option(value, value));
            box.append(label, select, document.createElement("br"));
          }
          for (const [name, step] of Object.entries(numberFields)) {
            const label = document.createElement("label");
            label.textContent = name;
            const input = document.createElement("input"); input.type = "number"; input.step = step; input.min = 0; input.id = name;
            box.append(label, input, document.createElement("br"));
          }
          const label = document.createElement("label");
          label.textContent = "fontFamily";
          const family = document.createElement("input"); family.type = "text"; family.id = "fontFamily";
          box.append(label, family, document.createElement("br"));
        }

        function hex(value) { return value.toString(16).padStart(2, "0").toUpperCase(); }

        function readStyle() {
          const style = {};
          for (const name of colorFields) {
            if (!document.getElementById("use-" + name).checked) continue;
            style[name] = document.getElementById(name).value.toUpperCase() + hex(Number(document.getElementById(name + "-alpha").value));
          }
          for (const name of Object.keys(choiceFields)) {
            const value = document.getElementById(name).value;
            if (value) style[name] = value;
          }
          for (const name of Object.keys(numberFields)) {
            const value = document.getElementById(name).value;
            if (value !== "") style[name] = Number(value);
          }
          const family = document.getElementById("fontFamily").value;
          if (family) style.fontFamily = family;
          return style;
        }

        function showStyle(style) {
          for (const name of colorFields) {
            const value = style[name];
            document.getElementById("use-" + name).checked = Boolean(value);
            if (value) {
              document.getElementById(name).value = value.slice(0, 7).toLowerCase();
              document.getElementById(name + "-alpha").value = value.length === 9 ? parseInt(value.slice(7), 16) : 255;
            }
          }
          for (const name of Object.keys(choiceFields)) document.getElementById(name).value = style[name] || "";
          for (const name of Object.keys(numberFields)) document.getElementById(name).value = style[name] === undefined ? "" : style[name];
          document.getElementById("fontFamily").value = style.fontFamily || "";
        }

        // The files the server has (GET /media.json), offered as choices that write the LOAD.
        let chosenStyle = null;

        async function readOffer() {
          const box = document.getElementById("offer");
          try {
            const response = await fetch("/media.json");
            cuekit.offer = await response.json();
          } catch (error) {
            box.textContent = "The server did not say what it has: " + error.message;
            box.className = "error";
            return;
          }
          const offer = cuekit.offer;
          const media = document.getElementById("media");
          for (const item of offer.media) media.append(new Option(item.name + " (" + item.contentType + ")", item.url));
          const tracks = document.getElementById("offered-tracks");
          offer.tracks.forEach((track, index) => {
            const row = document.createElement("div");
            const include = document.createElement("input"); include.type = "checkbox"; include.id = "offer-track-" + index;
            const active = document.createElement("input"); active.type = "radio"; active.name = "active-track"; active.value = String(index);
            active.id = "offer-active-" + index;
            const label = document.createElement("label"); label.htmlFor = include.id;
            label.textContent = track.name + " (" + track.format + (track.language ? ", " + track.language : "") + ")";
            const activeLabel = document.createElement("label"); activeLabel.htmlFor = active.id; activeLabel.textContent = " on at load";
            row.append(include, label, active, activeLabel);
            tracks.append(row);
          });
          if (offer.tracks.length > 0) {
            const row = document.createElement("div");
            const none = document.createElement("input"); none.type = "radio"; none.name = "active-track"; none.value = ""; none.id = "offer-active-none";
            const label = document.createElement("label"); label.htmlFor = none.id; label.textContent = "no track on at load";
            row.append(none, label);
            tracks.append(row);
          }
          const style = document.getElementById("style");
          for (const item of offer.styles) style.append(new Option(item.name, item.url));
          let summary = offer.media.length + " media, " + offer.tracks.length + " tracks, " + offer.styles.length + " styles in the served folder.";
          if (offer.media.length === 0) summary += " Put a video (.webm, .mp4…) in the folder to load it.";
          if (offer.truncated) summary += " Not everything is listed: " + offer.reason + ".";
          box.textContent = summary;
          for (const element of document.querySelectorAll("#offered-tracks input")) element.addEventListener("change", writeLoad);
          media.addEventListener("change", () => { chooseTracks(); writeLoad(); });
          style.addEventListener("change", chooseStyle);
          chooseTracks();
          writeLoad();
        }

        // The tracks offered with a media file: those named after it (movie.en.vtt for movie.webm),
        // else the first few; the first of them on at load.
        function chooseTracks() {
          const offer = cuekit.offer;
          const mediaURL = document.getElementById("media").value;
          const item = offer.media.find((m) => m.url === mediaURL);
          const stem = item ? item.name.replace(/\.[^./]*$/, "") + "." : null;
          let chosen = offer.tracks.map((track, index) => index).filter((index) => stem && offer.tracks[index].name.startsWith(stem));
          if (chosen.length === 0) chosen = offer.tracks.map((track, index) => index).slice(0, 8);
          offer.tracks.forEach((track, index) => {
            document.getElementById("offer-track-" + index).checked = chosen.includes(index);
            document.getElementById("offer-active-" + index).checked = index === chosen[0];
          });
          const none = document.getElementById("offer-active-none");
          if (none) none.checked = chosen.length === 0;
        }

        async function chooseStyle() {
          const url = document.getElementById("style").value;
          chosenStyle = null;
          if (url) {
            try {
              chosenStyle = await (await fetch(url)).json();
              showStyle(chosenStyle);
            } catch (error) {
              write("The style " + url + " cannot be read: " + error.message, true);
            }
          }
          writeLoad();
        }

        // The LOAD for the choices, with absolute URLs: a receiver resolves relative ones against its own page.
        function buildLoad() {
          const offer = cuekit.offer || { media: [], tracks: [] };
          const mediaURL = document.getElementById("media").value;
          const item = offer.media.find((m) => m.url === mediaURL);
          const media = { contentId: mediaURL ? location.origin + mediaURL : "", contentType: item ? item.contentType : "video/mp4", streamType: "BUFFERED" };
          const tracks = [];
          const activeTrackIds = [];
          const activeIndex = (document.querySelector("input[name=active-track]:checked") || { value: "" }).value;
          offer.tracks.forEach((track, index) => {
            if (!document.getElementById("offer-track-" + index).checked) return;
            const trackId = tracks.length + 1;
            tracks.push({
              trackId, type: "TEXT", subtype: track.kind || "SUBTITLES", trackContentId: location.origin + track.url,
              trackContentType: "text/vtt", name: track.name, language: track.language || "und",
            });
            if (String(index) === activeIndex) activeTrackIds.push(trackId);
          });
          if (tracks.length > 0) media.tracks = tracks;
          if (chosenStyle) media.textTrackStyle = chosenStyle;
          return { type: "LOAD", media, activeTrackIds };
        }

        function writeLoad() {
          document.getElementById("load-json").value = JSON.stringify(buildLoad(), null, 2);
        }

        buildStyleForm();
        document.getElementById("load").addEventListener("click", () => {
          showFailure(null);
          try { send(JSON.parse(document.getElementById("load-json").value)); }
          catch (error) { write("The LOAD message is not JSON: " + error.message, true); }
        });
        document.getElementById("get-status").addEventListener("click", () => send({ type: "GET_STATUS" }));
        document.getElementById("play").addEventListener("click", () => send({ type: "PLAY" }));
        document.getElementById("pause").addEventListener("click", () => send({ type: "PAUSE" }));
        document.getElementById("tracks-off").addEventListener("click", () => send({ type: "EDIT_TRACKS_INFO", activeTrackIds: [] }));
        document.getElementById("apply-style").addEventListener("click", () => send({ type: "EDIT_TRACKS_INFO", textTrackStyle: readStyle() }));
        readOffer();
        connect();
        </script>
        </body>
        </html>
        """#
}
