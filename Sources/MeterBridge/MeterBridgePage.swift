import Foundation
import Schema

/// The meter bridge's page, embedded in the binary (no file is ever read to serve it): the HTML here, the script
/// and the style in `MeterBridgePage+Script.swift` and `MeterBridgePage+Style.swift`.
///
/// Every figure on the page is text in an element whose `data-path` is its OSC address (with `data-arg`, the
/// argument's index, where the message has several), so scripts and tests read the page as a console reads OSC.
enum MeterBridgePage {
    /// The page, with `prefix` (the OSC prefix, `--prefix`) for the script to build `data-path` from.
    static func html(prefix: String) -> String {
        let prefix = escaped(prefix)
        let figures = figuresJSON
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="jacktap-prefix" content="\(prefix)">
        <title>jacktap · meter bridge</title>
        <link rel="stylesheet" href="/meter-bridge.css">
        <script type="application/json" id="figures">\(figures)</script>
        <script src="/meter-bridge.js" defer></script>
        </head>
        <body>
        <header id="top">
          <h1>jacktap</h1>
          <p id="status">JACK <b data-path="\(prefix)/status" data-arg="0">…</b>
            · xruns <b data-path="\(prefix)/status" data-arg="1">0</b>
            · overruns <b data-path="\(prefix)/status" data-arg="2">0</b>
            · <span id="link">connecting</span></p>
          <label id="target-label">target
            <select id="target">
              <option value="-23">-23 LUFS · EBU R128</option>
              <option value="-24">-24 LKFS · ATSC A/85</option>
              <option value="-16">-16 LUFS · podcasts</option>
              <option value="-14">-14 LUFS · streaming</option>
            </select></label>
        </header>
        <section id="programmes" aria-label="programme loudness"></section>
        <section id="pairs" aria-label="stereo correlation"></section>
        <main id="ports" aria-label="ports"></main>
        <div id="detail" hidden>
          <div id="detail-head"><h2 id="detail-name"></h2><button id="detail-close" type="button">close</button></div>
          <canvas id="detail-spectrum"></canvas>
        </div>
        <noscript><p>The meter bridge draws with JavaScript. Without it, /snapshot.json gives the newest figures
        and /ws streams them.</p></noscript>
        </body>
        </html>

        """
    }

    /// `text` safe inside an HTML attribute.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Each figure's path (below its scope), label and summary from the schema, as JSON the page's script reads:
    /// a data block, never run. `<` is written as \u003c, so nothing in it can close the script element.
    static var figuresJSON: String {
        var entries = [String: [String: String]]()
        for figure in FigureSchema.all { entries[figure.path] = ["label": figure.label, "summary": figure.summary] }
        let text = OSCQueryNamespace.text(entries)
        return text.replacingOccurrences(of: "<", with: "\\u003c")
    }
}
