/// Loads WebVTT files into headless Chromium through `<track>` elements and compares what it reads.
///
/// Chromium is what Cast receivers run, so "Chromium reads the same cues from both files" is the
/// check that matters for a writer. One page holds every pair of files as tracks of one `<video>`
/// (`track.mode = "hidden"` makes each load); once all have loaded, the page's script compares
/// `track.cues` of the two tracks of each pair, property by property, and writes one line per pair
/// into the DOM, which `--dump-dom` prints. Compared: `id`, `startTime`, `endTime`, `text`,
/// `vertical`, `line`, `snapToLines`, `position`, `size`, `align` (stock Chromium does not expose
/// `lineAlign`, `positionAlign`, regions or STYLE blocks to script).
///
/// It is also the one place the tests find and start Chromium for one run (``run(_:deadline:)``):
/// screenshots (``ChromiumCaptionRenderer``) and DOM dumps. A browser kept running and driven
/// over the DevTools protocol lives with the server tests, which have a WebSocket client.
public enum Chromium {
    /// The Chromium executable, if installed.
    public static let executable: String? =
        ExternalProcess.find("chromium") ?? ExternalProcess.find("chromium-browser") ?? ExternalProcess.find("google-chrome")

    /// True when Chromium is installed.
    public static var isInstalled: Bool { executable != nil }

    /// The switches every run takes: headless, without the sandbox (which cannot start as root),
    /// and without a GPU.
    public static let headlessSwitches = ["--headless=new", "--no-sandbox", "--disable-gpu"]

    /// Runs Chromium headless (``headlessSwitches``) with `switches`, killed if it still runs after
    /// `deadline` seconds.
    public static func run(_ switches: [String], deadline: Double = 120) -> Result<ExternalProcess.Result, ChromiumFailure> {
        guard let executable else { return .failure(ChromiumFailure(message: "chromium is not installed")) }
        return .success(ExternalProcess.run(executable, headlessSwitches + switches, deadline: deadline))
    }

    /// What Chromium read from one pair of files.
    public struct Comparison: Sendable, CustomStringConvertible {
        /// The pair's index in the list given.
        public var index: Int
        /// Both files loaded and gave the same cues, property by property (or neither loaded).
        public var isSame: Bool
        /// Cues read from the first and the second file (-1 when it failed to load).
        public var cueCounts: (Int, Int)
        /// The first difference, as Chromium's JSON of the two cues (empty when the same).
        public var difference: String

        public var description: String {
            "pair \(index): \(isSame ? "same" : "different") (\(cueCounts.0) and \(cueCounts.1) cues) \(difference)"
        }
    }

    /// Compares each pair `(original, rewritten)` of WebVTT files, all in one Chromium run. The files
    /// must sit in `directory` (the page is written there and loads them by name).
    public static func compare(_ pairs: [(String, String)], in directory: String) -> Result<[Comparison], ChromiumFailure> {
        var tracks = ""
        for (index, pair) in pairs.enumerated() {
            tracks += "<track id=a\(index) src=\"\(pair.0)\"><track id=b\(index) src=\"\(pair.1)\">\n"
        }
        let page = """
            <!doctype html>
            <meta charset=utf-8>
            <video id=v>
            \(tracks)</video>
            <pre id=out>pending</pre>
            <script>
            const pairs = \(pairs.count);
            const properties = ['id', 'startTime', 'endTime', 'text', 'vertical', 'line', 'snapToLines', 'position', 'size', 'align'];
            const loaded = {};
            let pending = pairs * 2;
            function cues(id) {
              if (!loaded[id]) return null;
              return Array.from(document.getElementById(id).track.cues, c => {
                const o = {};
                for (const p of properties) o[p] = Object.is(c[p], -0) ? 0 : c[p];
                return o;
              });
            }
            function report() {
              const lines = [];
              for (let i = 0; i < pairs; i++) {
                const a = cues('a' + i), b = cues('b' + i);
                const counts = (a ? a.length : -1) + ' ' + (b ? b.length : -1);
                let difference = '';
                if (!a && !b) difference = '';
                else if (!a || !b) difference = 'load-failed';
                else if (a.length != b.length) difference = 'count';
                else for (let k = 0; k < a.length; k++) {
                  const x = JSON.stringify(a[k]), y = JSON.stringify(b[k]);
                  if (x != y) { difference = 'cue ' + k + ' ' + x + ' ' + y; break; }
                }
                lines.push('PAIR ' + i + ' ' + (difference ? 'different' : 'same') + ' ' + counts + ' ' + encodeURIComponent(difference));
              }
              document.getElementById('out').textContent = lines.join('\\n') + '\\nEND';
            }
            for (const element of document.querySelectorAll('track')) {
              const finish = ok => { loaded[element.id] = ok; if (--pending == 0) report(); };
              element.addEventListener('load', () => finish(true));
              element.addEventListener('error', () => finish(false));
              element.track.mode = 'hidden';
            }
            if (pending == 0) report();
            </script>
            """
        let pagePath = directory + "/chromium-compare.html"
        ExternalProcess.writeBytes(Array(page.utf8), to: pagePath)
        let result: ExternalProcess.Result
        // The budget is virtual time; the deadline, real time on a busy machine, is generous.
        switch run(["--allow-file-access-from-files", "--virtual-time-budget=60000", "--dump-dom", "file://" + pagePath], deadline: 600) {
        case .success(let run): result = run
        case .failure(let failure): return .failure(failure)
        }
        var comparisons: [Comparison] = []
        var sawEnd = false
        for fullLine in result.output.split(separator: "\n") {
            if fullLine.hasPrefix("END") { sawEnd = true }
            guard let start = fullLine.firstRange(of: "PAIR ")?.lowerBound else { continue }
            let fields = fullLine[start...].split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
            guard fields.count == 6, let index = Int(fields[1]), let first = Int(fields[3]), let second = Int(fields[4])
            else { continue }
            comparisons.append(
                Comparison(
                    index: index, isSame: fields[2] == "same", cueCounts: (first, second),
                    difference: decodePercentEncoding(String(fields[5]))))
        }
        guard sawEnd, comparisons.count == pairs.count else {
            return .failure(
                ChromiumFailure(message: "chromium gave no complete report (status \(result.status)): \(result.error.suffix(2000))"))
        }
        return .success(comparisons)
    }

    /// Undoes `encodeURIComponent`, and the `&amp;`-style escapes of the DOM dump.
    static func decodePercentEncoding(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.replacingEntities.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Chromium could not be run, or gave no usable report.
public struct ChromiumFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    public var description: String { message }
}

extension String {
    fileprivate var replacingEntities: String {
        var result = self
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&amp;", "&")] {
            result = result.split(separator: entity, omittingEmptySubsequences: false).joined(separator: character)
        }
        return result
    }
}
