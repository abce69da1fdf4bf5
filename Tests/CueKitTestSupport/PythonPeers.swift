/// The Python peers `.ci/setup` installs, pinned, in `.venv` at the package root (ttconv 1.2.3,
/// pychromecast 14.0.7, m3u8 6.0.0, webvtt-py 0.6.0, pysubs2 1.8.0, pycaption 2.3.14), and the scripts in `Tests/Peers` that drive them.
public enum PythonPeers {
    /// The virtual environment's interpreter.
    public static var python: String { TestPaths.packageRoot + "/.venv/bin/python3" }

    /// True when the environment holds ttconv: `.ci/setup` has run.
    public static var hasTTConv: Bool {
        FileTree.exists(python) && ExternalProcess.run(python, ["-c", "import ttconv"]).status == 0
    }

    /// True when the environment holds pychromecast: `.ci/setup` has run.
    public static var hasPychromecast: Bool {
        FileTree.exists(python) && ExternalProcess.run(python, ["-c", "import pychromecast"]).status == 0
    }

    /// True when the environment holds m3u8: `.ci/setup` has run.
    public static var hasM3U8: Bool {
        FileTree.exists(python) && ExternalProcess.run(python, ["-c", "import m3u8"]).status == 0
    }

    /// True when the environment holds webvtt-py: `.ci/setup` has run.
    public static var hasWebVTTPy: Bool {
        FileTree.exists(python) && ExternalProcess.run(python, ["-c", "import webvtt"]).status == 0
    }

    /// True when the environment holds pysubs2: `.ci/setup` has run.
    public static var hasPysubs2: Bool {
        FileTree.exists(python) && ExternalProcess.run(python, ["-c", "import pysubs2"]).status == 0
    }

    /// True when the environment holds pycaption: `.ci/setup` has run.
    public static var hasPycaption: Bool {
        FileTree.exists(python) && ExternalProcess.run(python, ["-c", "import pycaption"]).status == 0
    }

    /// A script of `Tests/Peers`.
    public static func script(_ name: String) -> String { TestPaths.packageRoot + "/Tests/Peers/" + name }
}
