import Foundation

/// imscJS 1.1.5, the IMSC reference renderer, run in a Chromium page: it draws a TTML document as
/// an IMSC player does, beside what Chromium's own renderer draws from a WebVTT file.
///
/// The vendored files (`Fixtures/conformance/imscJS/`, unchanged) are CommonJS modules. The page
/// gets a `require` of its own (``loaderScript``) that reads each module's text from disk, runs it
/// with `exports`, `require` and `module` as Node would, and resolves `./doc` and the rest to
/// imscJS's files and `sax` to sax 1.2.1; sax's optional `stream` is absent, which it tolerates.
/// The page needs `--allow-file-access-from-files`.
public enum IMSCRenderer {
    /// The folder of the vendored imscJS and sax.
    public static var directory: String { TestPaths.conformance + "/imscJS" }

    /// Each module name the files ask for, and the file that answers it.
    static let modules: [(name: String, file: String)] =
        ["main", "doc", "html", "isd", "names", "styles", "utils"].map { ("./" + $0, "sandflow-imscJS/\($0).js") }
        + [("sax", "isaacs-sax-js/sax.js")]

    /// Script that defines `readText(url)` (the text of a local file) and `imsc` (imscJS's
    /// `main.js`: `fromXML`, `generateISD`, `renderHTML`).
    static var loaderScript: String {
        let table = modules.map { #""\#($0.name)": "\#($0.file)""# }.joined(separator: ", ")
        return """
            function readText(url) {
              const request = new XMLHttpRequest();
              request.open('GET', url, false);
              request.send();
              if (!request.responseText) throw new Error('cannot read ' + url);
              return request.responseText;
            }
            const imsc = (() => {
              const base = '\(URL(fileURLWithPath: directory, isDirectory: true).absoluteString)';
              const files = { \(table) };
              const loaded = {};
              function require(name) {
                if (loaded[name]) return loaded[name].exports;
                if (!(name in files)) throw new Error('no module ' + name);
                const module = { exports: {} };
                loaded[name] = module;
                const run = new Function('exports', 'require', 'module', readText(base + files[name]) + '\\n//# sourceURL=' + files[name]);
                run(module.exports, require, module);
                return module.exports;
              }
              return require('./main');
            })();
            """
    }

    /// Script that defines `drawTTML(url, element, time, width, height)`: imscJS reads the TTML
    /// document at `url`, computes what it shows at `time` seconds and draws it into `element`.
    /// Every message of imscJS's error handler (info, warning, error, fatal), and anything thrown,
    /// is pushed onto the returned array as `level: message`.
    static let drawScript = """
        function drawTTML(url, element, time, width, height) {
          const messages = [];
          const handler = {};
          for (const level of ['info', 'warn', 'error', 'fatal']) {
            handler[level] = message => { messages.push(level + ': ' + message); return false; };
          }
          try {
            const documentRead = imsc.fromXML(readText(url), handler);
            const isd = imsc.generateISD(documentRead, time, handler);
            imsc.renderHTML(isd, element, null, height, width, false, handler);
          } catch (thrown) {
            messages.push('thrown: ' + thrown);
          }
          return messages;
        }
        """
}
