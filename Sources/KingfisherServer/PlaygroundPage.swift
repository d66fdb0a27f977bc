import Foundation

/// The page at `/`: paste a source URL, pick processing and a format, see the result and the URL
/// that made it.
///
/// With `--allow-unsigned` it builds and shows `unsafe` URLs; with a key it never sees the key:
/// it shows the path to sign, how to sign it, and previews a signed URL pasted back. The form
/// also reads `#source=…&processing=…&format=…` from the address, so a link can open it filled in.
enum PlaygroundPage {
    static func html(name: String, allowsUnsigned: Bool) -> String {
        let escapedName = name.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return template
            .replacingOccurrences(of: "{{NAME}}", with: escapedName)
            .replacingOccurrences(of: "{{UNSIGNED}}", with: allowsUnsigned ? "true" : "false")
    }

    private static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{NAME}} · image playground</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d232a; background: #f4f6f8; }
  main { max-width: 980px; margin: 0 auto; padding: 24px; }
  h1 { font-size: 22px; margin: 0 0 4px; }
  p.lead { margin: 0 0 20px; color: #56606b; }
  form { display: grid; grid-template-columns: 150px 1fr; gap: 10px 14px; align-items: center;
         background: #fff; padding: 18px; border-radius: 10px; box-shadow: 0 1px 3px #0002; }
  label { font-weight: 600; }
  input, select { font: inherit; padding: 6px 8px; border: 1px solid #c7ced6; border-radius: 6px; }
  .row { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
  .row input[type=number] { width: 90px; }
  code, .url { font-family: ui-monospace, monospace; font-size: 13px; word-break: break-all; }
  .url { display: block; background: #fff; padding: 10px; border-radius: 6px; border: 1px solid #dde3e9; }
  section { margin-top: 20px; }
  #preview { margin-top: 12px; min-height: 60px; background: repeating-conic-gradient(#e9edf1 0 25%, #fff 0 50%) 0 0 / 20px 20px;
             border-radius: 8px; padding: 12px; display: flex; justify-content: center; }
  #preview img { max-width: 100%; }
  #status { color: #56606b; }
  #status.error { color: #b3261e; }
  .hidden { display: none; }
</style>
</head>
<body>
<main>
  <h1>{{NAME}}</h1>
  <p class="lead">Image playground: paste a source URL, choose processing and a format, and get the URL that serves the result.</p>
  <form id="form" autocomplete="off">
    <label for="source">Source URL</label>
    <input id="source" type="url" placeholder="https://example.com/photo.jpg" required>
    <label>Resize</label>
    <div class="row">
      <input id="width" type="number" min="1" max="100000" placeholder="width"> ×
      <input id="height" type="number" min="1" max="100000" placeholder="height">
      <select id="mode"><option value="fill">fill</option><option value="fit">fit</option><option value="none">stretch</option></select>
      <label><input id="crop" type="checkbox"> crop to the size</label>
    </div>
    <label>Effects</label>
    <div class="row">
      round <input id="round" type="number" min="0" max="10000" placeholder="radius">
      blur <input id="blur" type="number" min="0" max="1000" placeholder="radius">
      <label><input id="blackwhite" type="checkbox"> black &amp; white</label>
    </div>
    <label for="extra">More steps</label>
    <input id="extra" placeholder="e.g. border(#000000,2)|>tint(#FF000040)">
    <label for="format">Format</label>
    <select id="format">
      <option value="">negotiate (AVIF, WebP, else the source's)</option>
      <option value="jpg">jpg</option><option value="png">png</option><option value="webp">webp</option>
      <option value="avif">avif</option><option value="gif">gif</option>
    </select>
  </form>

  <section>
    <label>Processing</label> <code id="processing">-</code>
    <span id="url-label"></span>
    <a id="url" class="url" href="#"></a>
  </section>

  <section id="signing" class="hidden">
    <p>This service only serves signed URLs. Sign the path below with the service's key:
       the signature is base64url (no padding) of HMAC-SHA256 over it, and the URL is <code>/SIGNATURE</code> followed by the path.</p>
    <code id="sign-command" class="url"></code>
    <p><label for="signed">Signed URL</label> <input id="signed" style="width:100%" placeholder="paste the signed URL to preview it"></p>
  </section>

  <section>
    <span id="status">Paste a source URL to start.</span>
    <output id="result-size" data-width="" data-height=""></output>
    <div id="preview"><img id="result" alt="" class="hidden"></div>
  </section>
</main>
<script>
"use strict";
const allowsUnsigned = {{UNSIGNED}};
const $ = (id) => document.getElementById(id);

function base64url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function processingSpec() {
  const steps = [];
  const w = $("width").value, h = $("height").value;
  if (w && h) {
    steps.push(`resize(${w}x${h},${$("mode").value})`);
    if ($("crop").checked && $("mode").value === "fill") steps.push(`crop(${w}x${h})`);
  }
  if ($("round").value) steps.push(`round(${$("round").value})`);
  if ($("blur").value) steps.push(`blur(${$("blur").value})`);
  if ($("blackwhite").checked) steps.push("blackwhite");
  const extra = $("extra").value.trim();
  if (extra) steps.push(extra);
  return steps.join("|>");
}

function encodeProcessing(spec) {
  return spec ? encodeURIComponent(spec).replace(/[!'*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()) : "-";
}

function show(url) {
  const img = $("result");
  $("status").className = "";
  $("status").textContent = "Loading…";
  img.classList.add("hidden");
  img.onload = () => {
    $("status").textContent = `Loaded: ${img.naturalWidth}×${img.naturalHeight}`;
    $("result-size").dataset.width = img.naturalWidth;
    $("result-size").dataset.height = img.naturalHeight;
    document.body.dataset.state = "loaded";
    img.classList.remove("hidden");
  };
  img.onerror = async () => {
    document.body.dataset.state = "error";
    let reason = "the image did not load";
    try { const r = await fetch(url); reason = `${r.status}: ${(await r.text()).trim()}`; } catch (e) {}
    $("status").className = "error";
    $("status").textContent = `Error ${reason}`;
  };
  img.src = url;
}

function update() {
  const source = $("source").value.trim();
  const spec = processingSpec();
  $("processing").textContent = spec || "-";
  if (!source) return;
  const ext = $("format").value ? "." + $("format").value : "";
  const path = `/${encodeProcessing(spec)}/${base64url(source)}${ext}`;
  if (allowsUnsigned) {
    const url = location.origin + "/unsafe" + path;
    $("url-label").textContent = "URL";
    $("url").textContent = url;
    $("url").href = url;
    show(url);
  } else {
    $("signing").classList.remove("hidden");
    $("url-label").textContent = "Path to sign";
    $("url").textContent = path;
    $("url").removeAttribute("href");
    $("sign-command").textContent =
      `printf '%s' '${path}' | openssl dgst -sha256 -hmac "$KEY" -binary | basenc --base64url | tr -d '='`;
  }
}

function fillFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has("source")) $("source").value = params.get("source");
  if (params.has("format")) $("format").value = params.get("format");
  if (params.has("processing")) $("extra").value = params.get("processing");
}

$("form").addEventListener("input", update);
$("form").addEventListener("submit", (e) => { e.preventDefault(); update(); });
$("signed").addEventListener("input", () => { const u = $("signed").value.trim(); if (u) show(u); });
fillFromHash();
update();
</script>
</body>
</html>
"""#
}
