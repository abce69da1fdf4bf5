import Foundation

/// What imscJS (``IMSCRenderer``) presents of a TTML document at each moment it changes: the
/// regions it shows (those holding text) and the text of each, as an IMSC player computes them
/// (imscJS's `getMediaTimeEvents` and `generateISD`).
public struct IMSCPresentation: Sendable {
    /// What is shown from one time event to the next.
    public struct Moment: Sendable {
        /// Seconds from the document's start.
        public var time: Double
        /// The identifiers of the regions shown, in the order imscJS gives them.
        public var regions: [String]
        /// The text shown in each of those regions, its pieces joined.
        public var texts: [String]
    }

    public var moments: [Moment]
    /// Every message imscJS's error handler got (as `level: message`), and anything thrown.
    public var messages: [String]

    /// Reads `ttml` with imscJS in a headless Chromium page and computes each moment.
    public static func read(_ ttml: String) async throws -> IMSCPresentation {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write(ttml, to: "document.ttml")
        let page = """
            <!doctype html>
            <html><body><script>
            \(IMSCRenderer.loaderScript)
            function textOf(element) {
              if ('text' in element) return element.text;
              return (element.contents || []).map(textOf).join('');
            }
            function present() {
              const messages = [];
              const handler = {};
              for (const level of ['info', 'warn', 'error', 'fatal']) {
                handler[level] = message => { messages.push(level + ': ' + message); return false; };
              }
              const moments = [];
              try {
                const documentRead = imsc.fromXML(readText('document.ttml'), handler);
                for (const time of documentRead.getMediaTimeEvents()) {
                  const isd = imsc.generateISD(documentRead, time, handler);
                  const shown = isd.contents.filter(region => textOf(region).length > 0);
                  moments.push({ time: time, regions: shown.map(region => region.id || ''), texts: shown.map(textOf) });
                }
              } catch (thrown) {
                messages.push('thrown: ' + thrown);
              }
              return JSON.stringify({ moments: moments, messages: messages });
            }
            document.title = 'ready';
            </script></body></html>
            """
        folder.write(page, to: "page.html")
        guard let browser = try await DevToolsBrowser.launch(width: 320, height: 240, switches: ["--allow-file-access-from-files"]) else {
            throw ChromiumFailure(message: "Chromium is not installed")
        }
        defer { browser.close() }
        let tab = try await browser.open(URL(fileURLWithPath: folder.file("page.html")).absoluteString)
        defer { Task { await tab.close() } }
        guard try await tab.wait(until: "document.title === 'ready'", seconds: 60) else {
            throw ChromiumFailure(message: "the imscJS page did not load within 60 s")
        }
        guard let json = try await tab.evaluate("present()").stringValue,
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let moments = object["moments"] as? [[String: Any]], let messages = object["messages"] as? [String]
        else { throw ChromiumFailure(message: "imscJS gave no presentation") }
        return IMSCPresentation(
            moments: moments.map {
                Moment(
                    time: ($0["time"] as? Double) ?? -1, regions: ($0["regions"] as? [String]) ?? [],
                    texts: ($0["texts"] as? [String]) ?? [])
            },
            messages: messages)
    }
}
