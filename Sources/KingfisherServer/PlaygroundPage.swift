// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Crypto
import Foundation
import Kingfisher

/// The page at `/`: paste a source URL, build a processing chain step by step (or as text), pick
/// a format, and see the result, its size, format and bytes, and the URL that made it.
///
/// With `--allow-unsigned` it builds and loads `unsafe` URLs; with a key it never sees the key:
/// it shows the path to sign and commands that sign it, and previews a signature (or signed URL)
/// pasted back. It reads and keeps `#source=…&processing=…&format=…&signed=…` in the address, so
/// a link opens it filled in. One self-contained page: no scripts, styles or fonts from elsewhere.
enum PlaygroundPage {
    /// The page, and the `Content-Security-Policy` it is served with: its one inline script is
    /// allowed by the hash of exactly what stands between its tags, and nothing else may run.
    static func html(name: String, allowsUnsigned: Bool) -> (html: String, contentSecurityPolicy: String) {
        let script = PlaygroundScript.source(allowsUnsigned: allowsUnsigned)
        // The name goes in last, so that a name containing a placeholder is left as it is.
        let html =
            template
            .replacingOccurrences(of: "{{SCRIPT}}", with: script)
            .replacingOccurrences(of: "{{GRAMMAR}}", with: escaped(ImageProcessorSpec.grammar))
            .replacingOccurrences(of: "{{NAME}}", with: escaped(name))
        let scriptHash = Data(SHA256.hash(data: Data(script.utf8))).base64EncodedString()
        let policy =
            "default-src 'none'; script-src 'sha256-\(scriptHash)'; style-src 'unsafe-inline'; "
            + "img-src * data: blob:; connect-src *; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return (html, policy)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    private static let template = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{NAME}} · image playground</title>
        <style>
          :root { --fg: #1c2128; --muted: #5b6673; --line: #d5dce3; --bg: #f2f4f7; --accent: #0a66c2; --err: #b42318; }
          * { box-sizing: border-box; }
          body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
          header, main { max-width: 1280px; margin: 0 auto; padding: 0 24px; }
          header { padding-top: 18px; display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
          h1 { font-size: 20px; margin: 0; }
          header p { margin: 2px 0 0; color: var(--muted); flex-basis: 100%; }
          .badge { font-size: 12px; padding: 1px 9px; border-radius: 99px; background: #e3eefa; color: var(--accent); }
          .badge.signed { background: #fdf0dc; color: #8a5300; }
          main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.1fr); gap: 18px; align-items: start; padding-top: 14px; padding-bottom: 32px; }
          @media (max-width: 880px) { main { grid-template-columns: minmax(0, 1fr); } }
          .card { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px 16px; }
          #output { position: sticky; top: 12px; }
          h2 { font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 18px 0 6px; }
          .card > h2:first-child, #signing > h2:first-child, #signing[hidden] + h2 { margin-top: 0; }
          input, select, button { font: inherit; color: inherit; }
          input[type=text], input[type=url], input[type=number], select { border: 1px solid var(--line); border-radius: 6px; padding: 4px 7px; background: #fff; }
          input:focus-visible, select:focus-visible, button:focus-visible { outline: 2px solid #0a66c266; outline-offset: 1px; }
          .wide { width: 100%; }
          code, pre, .mono { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
          .hint { color: var(--muted); font-size: 12.5px; margin: 5px 0 0; }
          #steps { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; counter-reset: step; }
          .step { display: flex; align-items: center; gap: 8px; border: 1px solid var(--line); border-radius: 8px; padding: 5px 6px 5px 10px; background: #f8fafb; }
          .step::before { counter-increment: step; content: counter(step); color: var(--muted); font-size: 12px; width: 12px; }
          .step b { width: 74px; flex: none; font-weight: 600; }
          .params { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; flex: 1; min-width: 0; }
          .field { display: inline-flex; gap: 5px; align-items: center; color: var(--muted); }
          .field input[type=number], .field input.n { width: 60px; }
          .field input.hex { width: 86px; }
          .field input.raw { width: 100%; }
          .field:has(.raw) { flex: 1; }
          .field input[type=color] { width: 26px; height: 26px; padding: 0; border: 1px solid var(--line); border-radius: 5px; background: none; }
          .tools { display: flex; flex: none; }
          .tools button, .chip, .copy button, .seg span { cursor: pointer; }
          .tools button { border: 0; background: none; color: var(--muted); padding: 2px 6px; border-radius: 5px; }
          .tools button:hover { background: #e6eaee; color: var(--fg); }
          #no-steps { color: var(--muted); margin: 2px 0; }
          .row { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin-top: 8px; }
          .chip { border: 1px solid var(--line); background: #fff; border-radius: 99px; padding: 1px 10px; font-size: 13px; }
          .chip:hover { border-color: var(--accent); color: var(--accent); }
          details { margin-top: 6px; }
          summary { cursor: pointer; color: var(--muted); font-size: 12.5px; }
          pre { margin: 6px 0 0; padding: 8px 10px; background: #f6f8fa; border-radius: 6px; overflow: auto; }
          .seg { display: inline-flex; border: 1px solid var(--line); border-radius: 7px; overflow: hidden; }
          .seg label + label span { border-left: 1px solid var(--line); }
          .seg input { position: absolute; opacity: 0; }
          .seg span { display: block; padding: 4px 13px; }
          .seg input:checked + span { background: var(--accent); color: #fff; }
          .seg input:focus-visible + span { outline: 2px solid #0a66c266; outline-offset: -2px; }
          .copy { display: flex; gap: 8px; align-items: flex-start; background: #f6f8fa; border: 1px solid var(--line); border-radius: 8px; padding: 7px 8px 7px 10px; }
          .copy > :first-child { flex: 1; min-width: 0; overflow-wrap: anywhere; }
          .copy + .copy { margin-top: 6px; }
          .copy button { flex: none; border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 0 9px; font-size: 12.5px; }
          #url:empty::before { content: "—"; color: var(--muted); }
          #url { color: var(--accent); }
          .warn { color: #8a5300; }
          #status { margin: 0 0 6px; }
          body[data-state=loaded] #status { display: none; }
          body[data-state=error] #status { color: var(--err); font-weight: 500; }
          #facts { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 0 0 8px; color: var(--muted); font-size: 13px; }
          #facts b { color: var(--fg); font-weight: 600; }
          body:not([data-state=loaded]) #facts { display: none; }
          #preview { min-height: 150px; border: 1px solid var(--line); border-radius: 8px; padding: 16px; display: flex; align-items: center; justify-content: center;
                     overflow: auto; background: repeating-conic-gradient(#eceff3 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
          #result { max-width: 100%; height: auto; }
          #result:not([src]), body[data-state=error] #result, body[data-state=idle] #result { display: none; }
          body[data-state=loading] #result { opacity: .45; }
          body[data-state=loaded] #preview { min-height: 260px; }
          [hidden] { display: none !important; }
          @media (max-width: 560px) {
            header, main { padding-left: 10px; padding-right: 10px; }
            .card { padding: 12px; }
            .step { flex-wrap: wrap; }
            .step b { width: auto; }
            .tools { margin-left: auto; }
            .params { order: 1; flex-basis: 100%; }
          }
        </style>
        </head>
        <body data-state="idle">
        <header>
          <h1>{{NAME}}</h1> <span id="mode" class="badge">unsigned URLs allowed</span>
          <p>Image playground: point it at a source image, build the processing, pick a format, and copy the URL that serves the result.</p>
        </header>
        <main>
          <section class="card" id="controls">
            <h2><label for="source">Source image</label></h2>
            <input id="source" class="wide" type="url" placeholder="https://example.com/photo.jpg" spellcheck="false" autocomplete="off">
            <p class="hint">The service fetches it, so it must be reachable from the service.</p>

            <h2>Processing <span class="hint">· steps run top to bottom</span></h2>
            <ol id="steps"></ol>
            <p id="no-steps">No steps: the source is served as it is.</p>
            <div class="row">
              <select id="add" aria-label="add a step"><option value="">+ Add a step…</option></select>
            </div>
            <div class="row">
              <span class="hint">Or start from:</span>
              <button type="button" class="chip" data-spec="resize(300x200,fill)|>crop(300x200)">thumbnail</button>
              <button type="button" class="chip" data-spec="resize(160x160,fill)|>crop(160x160)|>round(50%)">avatar</button>
              <button type="button" class="chip" data-spec="resize(360x360,fit)|>border(#FFFFFF,10,16)">framed</button>
              <button type="button" class="chip" data-spec="downsample(400x400)|>blackwhite|>tint(#0A66C260)">duotone</button>
              <button type="button" class="chip" data-spec="downsample(400x400)|>blur(8)">blurred</button>
            </div>
            <h2><label for="spec">As text</label></h2>
            <input id="spec" class="wide mono" type="text" placeholder="- (none)" spellcheck="false" autocomplete="off">
            <details><summary>Grammar</summary><pre>{{GRAMMAR}}</pre></details>

            <h2>Format</h2>
            <div class="seg" id="formats">
              <label><input type="radio" name="format" value="" checked><span>auto</span></label><label><input type="radio" name="format" value="jpg"><span>jpg</span></label><label><input type="radio" name="format" value="png"><span>png</span></label><label><input type="radio" name="format" value="webp"><span>webp</span></label><label><input type="radio" name="format" value="avif"><span>avif</span></label><label><input type="radio" name="format" value="gif"><span>gif</span></label>
            </div>
            <p class="hint" id="format-hint">auto: AVIF or WebP when the browser asks for them, else the source's format.</p>
          </section>

          <section class="card" id="output">
            <div id="signing" hidden>
              <h2>Path to sign</h2>
              <div class="copy"><code id="sign-path"></code><button type="button" data-copy="sign-path">Copy</button></div>
              <p class="hint">This service serves signed URLs only, and this page never sees the key. The signature is base64url (no padding) of
                HMAC-SHA256 over the path with the key; the URL is <code>/SIGNATURE</code> and the path. With the key in <code>KF_SERVE_KEY</code>,
                either command prints what to paste below:</p>
              <div class="copy"><code id="sign-command"></code><button type="button" data-copy="sign-command">Copy</button></div>
              <div class="copy"><code id="kf-command"></code><button type="button" data-copy="kf-command">Copy</button></div>
              <h2><label for="signed">Signature or signed URL</label></h2>
              <input id="signed" class="wide mono" type="text" placeholder="paste the signature to preview the result" spellcheck="false" autocomplete="off">
              <p class="hint warn" id="signed-note" hidden>This signed URL is for another path than the one above: previewing it as it is.</p>
            </div>
            <h2>URL</h2>
            <div class="copy"><a id="url" class="mono" target="_blank" rel="noopener"></a><button type="button" data-copy="url">Copy</button></div>

            <h2>Result</h2>
            <p id="status" role="status">Enter a source image URL to start.</p>
            <p id="facts"><span><b><output id="result-size" data-width="" data-height=""></output></b> px</span><span id="result-type"></span><span id="result-bytes"></span><span id="result-time"></span></p>
            <div id="preview"><img id="result" alt="the processed image"></div>
          </section>
        </main>
        <script>{{SCRIPT}}</script>
        </body>
        </html>
        """#
}
