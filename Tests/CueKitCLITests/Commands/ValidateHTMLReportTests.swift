import CueKitTestSupport
import Foundation
import Testing

/// `cuekit validate --format html -o report.html`, read back in headless Chromium for what the page
/// shows: the rows of the table, the marked values and text, the histogram's bars and limit.
@Suite(
    .enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"),
    .enabled(if: Chromium.isInstalled, "chromium is not installed"), .tags(.chromium), .skippableByTag)
struct ValidateHTMLReportTests {
    /// Five cues at 23.976 fps under Netflix's English rules (20 characters per second, 42 a line):
    /// the first too fast (64 cps), the second with a line of 48 characters, the third carrying a
    /// tag that must show as text (which the reader warns about too, as about its bare `&`), the
    /// last two clean. Reading speeds: 64, 19.2, 2.75, 4.5 and 4.
    static let track = """
        WEBVTT

        00:00:01.000 --> 00:00:01.500
        Too fast for anyone to read this

        00:00:02.000 --> 00:00:04.500
        This line is much too long for the Netflix limit

        00:00:05.000 --> 00:00:09.000
        <img src=x onerror=alert(1)>Hello & bye

        00:00:10.000 --> 00:00:12.000
        Nine char

        00:00:13.000 --> 00:00:14.000
        Four

        """

    /// The measurements the page's script makes, one `name value` a line.
    static let probe = """
        <pre id=probe></pre>
        <script>
        const out = [];
        const rows = document.querySelectorAll('table.findings tbody tr');
        out.push('rows ' + rows.length);
        out.push('cues ' + document.querySelectorAll('table.findings tbody tr.cue').length);
        const value = document.querySelector('mark.value');
        if (value) out.push('value ' + value.textContent + ' ' + getComputedStyle(value).backgroundColor);
        const line = document.querySelector('mark.offending.line');
        if (line) out.push('line ' + encodeURIComponent(line.textContent) + ' ' + getComputedStyle(line).backgroundColor);
        out.push('images ' + document.querySelectorAll('img, script:not(#probe-script)').length);
        out.push('external ' + document.querySelectorAll('[src], [href], link, iframe, object').length);
        out.push('text3 ' + encodeURIComponent(rows[rows.length - 1].querySelector('td.text').textContent));
        for (const bar of document.querySelectorAll('svg rect.bar')) {
          const box = bar.getBoundingClientRect();
          out.push('bar ' + bar.dataset.bin + ' ' + bar.dataset.count + ' ' + Math.round(box.height) + ' ' + bar.getAttribute('fill'));
        }
        const limit = document.querySelector('svg line.limit');
        if (limit) out.push('limit ' + limit.dataset.limit + ' ' + limit.getAttribute('x1'));
        const summary = document.querySelector('.summary').getBoundingClientRect().top;
        const histogram = document.querySelector('figure.histogram').getBoundingClientRect().top;
        const table = document.querySelector('table.findings').getBoundingClientRect().top;
        out.push('order ' + (summary < histogram && histogram < table));
        for (const row of document.querySelectorAll('.summary tbody tr')) {
          out.push('summary ' + row.dataset.code + ' ' + row.querySelector('.count').textContent + ' '
            + encodeURIComponent(row.querySelector('.share').textContent || '-'));
        }
        document.getElementById('probe').textContent = 'BEGIN\\n' + out.join('\\n') + '\\nEND';
        </script>
        """

    /// Runs `cuekit validate` with `arguments` to `report.html`, then Chromium on the page with the
    /// probe added; returns the probe's lines and the page.
    private func shown(_ arguments: [String], track: String, in folder: TemporaryDirectory) throws -> (lines: [String], html: String) {
        folder.write(track, to: "track.vtt")
        let run = try CommandLineRun.cuekit(
            ["validate"] + arguments + ["--format", "html", "-o", folder.file("report.html"), folder.file("track.vtt")])
        #expect(run.status == 1, "\(run)")
        #expect(run.standardOutput.isEmpty && run.standardError.isEmpty, "\(run)")
        let html = try #require(folder.read("report.html"))
        let probe = Self.probe.replacingOccurrences(of: "<script>", with: "<script id=probe-script>")
        folder.write(html.replacingOccurrences(of: "</body>", with: probe + "\n</body>"), to: "probe.html")
        let result = try Chromium.run(["--allow-file-access-from-files", "--dump-dom", "file://" + folder.file("probe.html")]).get()
        let dump = result.output
        let begin = try #require(dump.range(of: "BEGIN\n"), "no probe output: \(result.error.suffix(1000))")
        let end = try #require(dump.range(of: "\nEND", range: begin.upperBound..<dump.endIndex))
        let lines = dump[begin.upperBound..<end.lowerBound].split(separator: "\n").map { String($0).removingPercentEncoding ?? String($0) }
        return (lines, html)
    }

    @Test func thePageShowsTheCuesWithFindingsTheirValuesAndTheReadingSpeeds() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let (lines, html) = try shown(["--qc", "netflix", "--language", "en"], track: Self.track, in: folder)
        // The first two cues have findings, and the third, whose tag Netflix forbids; the reader's
        // two diagnostics on the third cue are rows of their own.
        #expect(lines.contains("rows 5"), "\(lines)")
        #expect(lines.contains("cues 3"), "\(lines)")
        #expect(lines.contains("value 64 rgb(255, 213, 79)"), "\(lines)")
        #expect(lines.contains("line This line is much too long for the Netflix limit rgb(239, 154, 154)"), "\(lines)")
        // The tag in the track is text on the page, not an element.
        #expect(lines.contains("images 0"), "\(lines)")
        #expect(lines.contains("text3 <img src=x onerror=alert(1)>Hello & bye"), "\(lines)")
        // Bins 2, 4 (two cues), 19 and 39-and-over (64 cps), the last over the limit; bars as tall
        // as their counts (160 pixels for the tallest).
        let bars = lines.filter { $0.hasPrefix("bar ") }
        #expect(bars == ["bar 2 1 80 #1565c0", "bar 4 2 160 #1565c0", "bar 19 1 80 #1565c0", "bar 39 1 80 #c62828"], "\(lines)")
        // The limit line at 20 characters per second: 40 + 20 x 15 pixels.
        #expect(lines.contains("limit 20 340"), "\(lines)")
        #expect(lines.contains("order true"), "\(lines)")
        #expect(lines.contains("summary qc-reading-speed 1 20%"), "\(lines)")
        #expect(lines.contains("summary qc-line-length 1 20%"), "\(lines)")
        #expect(lines.contains("summary qc-markup 1 20%"), "\(lines)")
        #expect(lines.contains("summary vtt-unknown-tag 1 -"), "\(lines)")
        // Self-contained: no element loads anything.
        #expect(lines.contains("external 0"), "\(lines)")
        #expect(html.range(of: #"<[a-zA-Z][^>]*\s(src|href)="#, options: .regularExpression) == nil)
    }

    @Test func theTableStopsAtItsLimitAndSaysSo() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        // 1,200 cues of 10 characters in 0.2 s (50 characters per second): each has findings.
        var track = "WEBVTT\n\n"
        for index in 0..<1200 {
            track += "\(Self.timestamp(index * 1000)) --> \(Self.timestamp(index * 1000 + 200))\nSpeed read\n\n"
        }
        let (lines, html) = try shown(["--qc", "netflix", "--language", "en"], track: track, in: folder)
        #expect(lines.contains("rows 1000"), "\(lines.prefix(5))")
        #expect(html.contains("<p class=cut>The table lists the first 1000 rows; 200 more are left out (the summary counts them all).</p>"))
        #expect(lines.contains("summary qc-reading-speed 1200 100%"), "\(lines.filter { $0.hasPrefix("summary") })")
        #expect(lines.contains("bar 39 1200 160 #c62828"), "\(lines.filter { $0.hasPrefix("bar") })")
    }

    static func timestamp(_ milliseconds: Int) -> String {
        String(
            format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60,
            milliseconds % 1000)
    }
}

/// `--format html` without `--qc`: the reader's diagnostics, one row each.
@Suite(.enabled(if: CommandLineRun.isBuilt, "the cuekit binary is not built next to the tests"))
struct ValidateHTMLDiagnosticsTests {
    @Test func readerDiagnosticsAreRowsAndCountedByCode() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        folder.write("WEBVTT\n\n00:00:02.000 --> 00:00:01.000\nBackwards\n", to: "bad.vtt")
        let run = try CommandLineRun.cuekit(["validate", "--format", "html", "-o", folder.file("report.html"), folder.file("bad.vtt")])
        #expect(run.status == 1, "\(run)")
        let html = try #require(folder.read("report.html"))
        let rows = html.components(separatedBy: "<tr class=diagnostic>").count - 1
        #expect(rows == 1, "\(html)")
        #expect(html.contains("<td class=where>3:1</td>"), "\(html)")
        #expect(html.contains("<td class=count>1</td>"), "\(html)")
        #expect(!html.contains("<figure class=histogram>"))
    }

    @Test func anOutputFileGoesWithHTMLOnly() throws {
        let run = try CommandLineRun.cuekit(["validate", "--format", "json", "-o", "report.json", "-"], input: "WEBVTT\n")
        #expect(run.status == 64 || run.status == 2, "\(run)")
        #expect(run.standardError.contains("--output goes with --format html."), "\(run)")
    }
}
