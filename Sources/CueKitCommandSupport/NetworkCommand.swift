/// A command that talks to the network and so runs in `cuekit-cast`, the executable that links
/// SwiftNIO. `cuekit` lists it in its help under this name and abstract, and hands its command
/// line to `cuekit-cast` unread, as git hands `git foo` to `git-foo`: the options are declared
/// once, in `cuekit-cast`, which also gives the command's `--help` and usage errors.
package struct NetworkCommand: Sendable, Hashable {
    /// The words after `cuekit` that name it: `["serve"]`, `["cast", "send"]`.
    package let path: [String]
    /// Its one-line summary, the same in both executables' help.
    package let abstract: String

    /// The last word of ``path``: the name its parent command lists.
    package var name: String { path[path.count - 1] }

    package static let serve = NetworkCommand(
        path: ["serve"], abstract: "Serve a folder of media and tracks to Cast receivers, with a receiver page and a sender page.")
    package static let fetch = NetworkCommand(
        path: ["fetch"],
        abstract: "Download a remote HLS subtitle rendition (its playlists and WebVTT segments) into a folder, to read as local files.")
    package static let castSend = NetworkCommand(
        path: ["cast", "send"],
        abstract: "Send a Cast media message (LOAD, EDIT_TRACKS_INFO, GET_STATUS...) to a CueKit receiver and print its answer.")
    package static let castPlay = NetworkCommand(
        path: ["cast", "play"], abstract: "Cast a movie with its caption tracks to a Cast device, styled, and follow its status.")
    package static let castTracks = NetworkCommand(
        path: ["cast", "tracks"], abstract: "Switch the text tracks of the media a Cast device is playing.")
    package static let castRestyle = NetworkCommand(
        path: ["cast", "restyle"], abstract: "Set the text track style of the media a Cast device is playing.")
    package static let castDevices = NetworkCommand(
        path: ["cast", "devices"], abstract: "List the Cast devices on the network (mDNS, _googlecast._tcp): name, address and model.")
    package static let castEmulate = NetworkCommand(
        path: ["cast", "emulate"],
        abstract: "Run a Cast device: the Cast v2 channel on TLS, with CueKit's receiver as its media application.")

    /// Every network command, in the order `cuekit`'s help lists them.
    package static let all: [NetworkCommand] = [serve, fetch, castSend, castPlay, castTracks, castRestyle, castDevices, castEmulate]

    /// The network command a command line (without the program's name) runs, and the arguments
    /// that follow its name, untouched; nil for any other command line. `help serve` (argument
    /// parser's help command) is `serve --help`.
    package static func handedOver(_ arguments: [String]) -> (command: NetworkCommand, arguments: [String])? {
        if arguments.first == "help", let named = handedOver(Array(arguments.dropFirst())) {
            return (named.command, ["--help"])
        }
        guard let command = all.first(where: { arguments.starts(with: $0.path) }) else { return nil }
        return (command, Array(arguments.dropFirst(command.path.count)))
    }
}
