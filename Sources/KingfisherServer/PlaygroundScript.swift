// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import Foundation
import Kingfisher

/// The playground page's script: builds image URLs from the form as the service parses them
/// (``ImageURLPath/make(source:processing:format:signer:)`` encodes the same way), loads the
/// result with the `Accept` browsers send for images, and keeps the form in the address.
enum PlaygroundScript {
    static func source(allowsUnsigned: Bool) -> String {
        let blendModes = CGBlendMode.allCases.map { "\"\($0.name)\"" }.joined(separator: ",")
        return
            template
            .replacingOccurrences(of: "{{UNSIGNED}}", with: allowsUnsigned ? "true" : "false")
            .replacingOccurrences(of: "{{BLEND_MODES}}", with: "[\(blendModes)]")
    }

    private static let template = #"""
        "use strict";
        const allowsUnsigned = {{UNSIGNED}};
        const BLEND_MODES = {{BLEND_MODES}};
        // What browsers send for <img>, so that "auto" negotiates here as it would in a page.
        const IMAGE_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
        const $ = (id) => document.getElementById(id);
        function el(tag, props = {}, ...children) {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(props)) if (value !== undefined) node[key] = value;
          node.append(...children);
          return node;
        }

        // One field per argument of the grammar (an anchor is its two AX,AY arguments). `d` is what an
        // omitted argument means; `omit` leaves a trailing argument out of the text when it has that value.
        const f = (kind, label, more = {}) => ({kind, label, ...more});
        const unit = {min: 0, max: 1, step: 0.05};
        const STEPS = {
          downsample: {about: "decode smaller, fast", fields: [f("size")], init: ["400x400"]},
          resize: {about: "fill, fit or stretch to a size", fields: [f("size"), f("choice", "", {options: ["fill", "fit", "none"], d: "none"})], init: ["300x200", "fill"]},
          crop: {about: "cut out a size", fields: [f("size"), f("anchor", "anchor", {d: "0.5,0.5", omit: true})], init: ["300x200", "0.5,0.5"]},
          round: {about: "round the corners", fields: [f("radius", "radius"), f("corners", "", {d: "all", omit: true})], init: ["16", "all"]},
          border: {about: "draw a border", fields: [f("color"), f("num", "width", {min: 0}), f("num", "radius", {min: 0, d: "0", omit: true})], init: ["#FFFFFF", "8", "0"]},
          blur: {about: "Gaussian blur", fields: [f("num", "radius", {min: 0, max: 1000})], init: ["4"]},
          overlay: {about: "lay a colour over it", fields: [f("color"), f("num", "image", unit)], init: ["#0A66C2", "0.7"]},
          tint: {about: "tint with a colour", fields: [f("color")], init: ["#FF660060"]},
          colors: {about: "brightness, contrast, saturation, EV", fields: [f("num", "bright", {min: -1, max: 1, step: 0.05}), f("num", "contrast", {min: 0, max: 4, step: 0.05}),
                   f("num", "saturation", {min: 0, max: 4, step: 0.05}), f("num", "EV", {min: -10, max: 10, step: 0.1})], init: ["0", "1.1", "1.3", "0"]},
          blackwhite: {about: "greyscale", fields: [], init: []},
          blend: {about: "blend mode, alpha, background", fields: [f("choice", "", {options: BLEND_MODES}), f("num", "alpha", {...unit, d: "1", omit: true}),
                  f("color", "on", {d: "", omit: true})], init: ["multiply", "1", "#FFCC00"]},
        };

        const CORNERS = ["tl", "tr", "bl", "br"];
        function valid(field, value) {
          switch (field.kind) {
            case "size": return /^[\d.]+x[\d.]+$/i.test(value);
            case "choice": return field.options.includes(value);
            case "anchor": return /^[^,]+,[^,]+$/.test(value);
            case "corners": return value === "all" || value.split("+").every((c) => CORNERS.includes(c));
            default: return true;
          }
        }

        // The arguments of a step as field values, or null when the form cannot show them (it stays text).
        function fieldValues(name, args) {
          const fields = STEPS[name].fields;
          if (name === "round") {
            // A target size (round(R,WxH)) is not in the form.
            if (args.length < 1 || args.length > 2 || (args[1] && !valid(fields[1], args[1]))) return null;
            return [args[0], args[1] || "all"];
          }
          if (name === "blend") {
            // ALPHA and #BG may come in either order.
            if (args.length < 1 || args.length > 3 || !valid(fields[0], args[0])) return null;
            const rest = args.slice(1);
            return [args[0], rest.find((a) => !a.startsWith("#")) || "1", rest.find((a) => a.startsWith("#")) || ""];
          }
          const values = [];
          let index = 0;
          for (const field of fields) {
            if (index >= args.length) {
              if (field.d === undefined) return null;
              values.push(field.d);
              continue;
            }
            const width = field.kind === "anchor" ? 2 : 1;
            const value = args.slice(index, index + width).join(",");
            index += width;
            if (!valid(field, value)) return null;
            values.push(value);
          }
          return index === args.length ? values : null;
        }

        function fieldControl(field, value) {
          const box = el("span", {className: "field"});
          box.dataset.kind = field.kind;
          if (field.label) box.append(field.label);
          const number = (v, label, more = {}) => el("input", {type: "number", value: v, placeholder: label, title: label, step: "any", ...more});
          switch (field.kind) {
            case "size": {
              const [w = "", h = ""] = value.split(/x/i);
              box.append(number(w, "width", {min: 1}), "×", number(h, "height", {min: 1}));
              break;
            }
            case "anchor": {
              const [x = "", y = ""] = value.split(",");
              box.append(number(x, "x (0 left … 1 right)", {min: 0, max: 1, step: 0.1}), number(y, "y (0 top … 1 bottom)", {min: 0, max: 1, step: 0.1}));
              break;
            }
            case "num":
              box.append(number(value, field.label, {min: field.min, max: field.max, step: field.step ?? "any"}));
              break;
            case "radius":
              box.append(el("input", {type: "text", className: "n", value, placeholder: "8 or 50%", title: "points, or % of the width"}));
              break;
            case "choice": {
              const select = el("select", {title: "mode"});
              for (const option of field.options) select.append(el("option", {value: option, textContent: option === "none" ? "stretch" : option}));
              select.value = value;
              box.append(select);
              break;
            }
            case "corners": {
              const on = value === "all" ? CORNERS : value.split("+");
              for (const corner of CORNERS) box.append(el("label", {title: "round this corner"}, el("input", {type: "checkbox", value: corner, checked: on.includes(corner)}), corner));
              break;
            }
            case "color": {
              const text = el("input", {type: "text", className: "hex mono", value, placeholder: field.d === "" ? "none" : "#RRGGBBAA", title: "#RRGGBB or #RRGGBBAA"});
              const pick = el("input", {type: "color", title: "pick a colour"});
              const sync = () => { const m = /^#([0-9a-f]{6})/i.exec(text.value.trim()); pick.value = m ? "#" + m[1].toLowerCase() : "#000000"; };
              // Picking keeps the alpha already typed.
              pick.addEventListener("input", () => {
                text.value = pick.value.toUpperCase() + (/^#[0-9a-f]{6}([0-9a-f]{2})$/i.exec(text.value.trim())?.[1] ?? "");
                text.dispatchEvent(new Event("input", {bubbles: true}));
              });
              text.addEventListener("input", sync);
              sync();
              box.append(pick, text);
              break;
            }
          }
          return box;
        }

        function controlValue(box) {
          const inputs = [...box.querySelectorAll("input, select")];
          switch (box.dataset.kind) {
            case "size": return inputs[0].value || inputs[1].value ? `${inputs[0].value}x${inputs[1].value}` : "";
            case "anchor": return `${inputs[0].value || "0.5"},${inputs[1].value || "0.5"}`;
            case "corners": {
              const on = inputs.filter((i) => i.checked).map((i) => i.value);
              return on.length === 0 || on.length === 4 ? "all" : on.join("+");
            }
            case "color": return inputs[1].value.trim();
            default: return inputs[0].value.trim();
          }
        }

        function stepRow(name, values, text) {
          const row = el("li", {className: "step"});
          const known = values !== null;
          row.dataset.name = known ? name : "";
          const params = el("span", {className: "params"});
          if (known) STEPS[name].fields.forEach((field, i) => params.append(fieldControl(field, values[i] ?? "")));
          else params.append(el("span", {className: "field"}, el("input", {type: "text", className: "raw mono", value: text, title: "this step as text"})));
          const tools = el("span", {className: "tools"});
          for (const [act, label, title] of [["up", "↑", "move up"], ["down", "↓", "move down"], ["remove", "✕", "remove"]]) {
            const button = el("button", {type: "button", textContent: label, title});
            button.dataset.act = act;
            tools.append(button);
          }
          row.append(el("b", {textContent: name && Object.hasOwn(STEPS, name) ? name : "text"}), params, tools);
          return row;
        }

        function rowText(row) {
          const name = row.dataset.name;
          if (!name) return row.querySelector("input").value.trim();
          const fields = STEPS[name].fields;
          const values = [...row.querySelectorAll(".params > .field")].map(controlValue);
          while (values.length && fields[values.length - 1].omit && values[values.length - 1] === fields[values.length - 1].d) values.pop();
          const args = values.map((v, i) => (v === "" && fields[i].d !== undefined ? fields[i].d : v));
          return args.length ? `${name}(${args.join(",")})` : name;
        }

        function rowsFromText(spec) {
          const rows = [];
          for (const step of spec.split("|>").map((s) => s.trim()).filter(Boolean)) {
            const m = /^([a-z]+)(?:\((.*)\))?$/.exec(step);
            const args = m && m[2] !== undefined && m[2].trim() !== "" ? m[2].split(",").map((a) => a.trim()) : [];
            const values = m && Object.hasOwn(STEPS, m[1]) ? fieldValues(m[1], args) : null;
            rows.push(stepRow(m ? m[1] : "", values, step));
          }
          $("steps").replaceChildren(...rows);
          $("no-steps").hidden = rows.length > 0;
        }

        function textFromRows() {
          $("spec").value = [...$("steps").children].map(rowText).filter(Boolean).join("|>");
          $("no-steps").hidden = $("steps").children.length > 0;
        }

        // The service's encodings: base64url without padding of the URL's UTF-8, and percent-encoding
        // that leaves unreserved characters and the grammar's "(),", as ImageURLPath.make does.
        function base64url(text) {
          let binary = "";
          for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
          return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
        }
        function encodeProcessing(spec) {
          if (!spec) return "-";
          return encodeURIComponent(spec).replace(/[!'*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()).replace(/%2C/g, ",");
        }
        const shellQuote = (text) => "'" + text.replace(/'/g, "'\\''") + "'";

        function readHash() {
          const params = {};
          for (const part of location.hash.slice(1).split("&")) {
            const eq = part.indexOf("=");
            if (eq < 0) continue;
            // decodeURIComponent, not URLSearchParams: a "+" in a hand-written link stays a "+".
            try { params[part.slice(0, eq)] = decodeURIComponent(part.slice(eq + 1)); } catch { params[part.slice(0, eq)] = part.slice(eq + 1); }
          }
          return params;
        }
        function writeHash(params) {
          const readable = (v) => encodeURIComponent(v).replace(/%(3A|2F|28|29|2C|7C|40)/g, (m) => decodeURIComponent(m));
          const hash = Object.entries(params).filter(([, v]) => v).map(([k, v]) => `${k}=${readable(v)}`).join("&");
          history.replaceState(null, "", hash ? "#" + hash : location.pathname);
        }

        function setStatus(state, text) {
          document.body.dataset.state = state;
          $("status").textContent = text;
        }
        function setURL(url) {
          $("url").textContent = url;
          if (url) $("url").href = url; else $("url").removeAttribute("href");
        }

        // The path a signature or signed URL pasted into #signed previews, or "" for none.
        function signedURL(path) {
          const pasted = $("signed").value.trim();
          $("signed-note").hidden = true;
          if (!pasted) return "";
          if (!pasted.includes("/")) return `${location.origin}/${pasted}${path}`;
          try {
            // A URL naming the public host is previewed here, on this service.
            const pathname = new URL(pasted, location.origin).pathname;
            $("signed-note").hidden = pathname.slice(pathname.indexOf("/", 1)) === path;
            return location.origin + pathname;
          } catch {
            return "";
          }
        }

        let generation = 0, inflight = null, shownObjectURL = "";
        async function show(url, format) {
          const mine = ++generation;
          inflight?.abort();
          inflight = new AbortController();
          setStatus("loading", "Loading…");
          const started = performance.now();
          try {
            // Fetched rather than set as the <img> source, to read the status and the one-line error
            // text, the type and the bytes of exactly what is shown.
            const response = await fetch(url, {headers: {Accept: IMAGE_ACCEPT}, signal: inflight.signal});
            const body = await response.blob();
            if (mine !== generation) return;
            const elapsed = Math.round(performance.now() - started);
            if (!response.ok) {
              const line = (await body.text()).trim().split("\n")[0];
              return setStatus("error", `${response.status}${response.statusText ? " " + response.statusText : ""}: ${line || "no reason given"}`);
            }
            const type = (response.headers.get("Content-Type") || body.type || "unknown").split(";")[0];
            const img = $("result");
            const objectURL = URL.createObjectURL(body);
            img.onload = () => {
              if (mine !== generation) return;
              if (shownObjectURL) URL.revokeObjectURL(shownObjectURL);
              shownObjectURL = objectURL;
              const size = $("result-size");
              size.dataset.width = img.naturalWidth;
              size.dataset.height = img.naturalHeight;
              size.textContent = `${img.naturalWidth} × ${img.naturalHeight}`;
              $("result-type").textContent = type.replace(/^image\//, "").toUpperCase() + (format ? "" : " (auto)");
              $("result-bytes").textContent = body.size < 1000 ? `${body.size} bytes` : `${(body.size / 1000).toFixed(1)} kB`;
              $("result-bytes").title = `${body.size} bytes`;
              $("result-time").textContent = `${elapsed} ms`;
              setStatus("loaded", "Loaded.");
            };
            img.onerror = () => {
              if (mine === generation) setStatus("error", `The service answered ${type}, which this browser cannot display.`);
            };
            img.src = objectURL;
          } catch (error) {
            if (mine === generation && error.name !== "AbortError") setStatus("error", `The service did not answer: ${error.message}`);
          }
        }

        function update() {
          const source = $("source").value.trim();
          const spec = $("spec").value.trim();
          const format = document.querySelector("input[name=format]:checked").value;
          writeHash({source, processing: spec, format, signed: $("signed").value.trim()});
          const idle = (text) => { generation++; inflight?.abort(); setURL(""); setStatus("idle", text); };
          if (!source) return idle("Enter a source image URL to start.");
          if (!/^https?:\/\/[^/?#]/i.test(source)) return idle("The source must be an absolute http:// or https:// URL.");
          const path = `/${encodeProcessing(spec)}/${base64url(source)}${format ? "." + format : ""}`;
          let url = location.origin + "/unsafe" + path;
          if (!allowsUnsigned) {
            $("sign-path").textContent = path;
            $("sign-command").textContent =
              `printf '%s' ${shellQuote(path)} | openssl dgst -sha256 -hmac "$KF_SERVE_KEY" -binary | openssl base64 -A | tr '+/' '-_' | tr -d '='`;
            $("kf-command").textContent = `kf url ${shellQuote(source)}${spec ? " --processor " + shellQuote(spec) : ""}${format ? " --format " + format : ""}`;
            url = signedURL(path);
            if (!url) return idle("Sign the path above, then paste the signature (or the signed URL) to preview the result.");
          }
          setURL(url);
          show(url, format);
        }

        // Typing waits for a pause, so that "300" does not fetch "3" and "30" first.
        let timer = 0;
        const schedule = (delay = 350) => { clearTimeout(timer); timer = setTimeout(update, delay); };

        for (const [name, step] of Object.entries(STEPS)) $("add").append(el("option", {value: name, textContent: `${name} · ${step.about}`}));
        $("add").addEventListener("change", () => {
          const name = $("add").value;
          $("add").value = "";
          if (!name) return;
          $("steps").append(stepRow(name, STEPS[name].init, ""));
          textFromRows();
          schedule(0);
        });
        $("steps").addEventListener("input", () => { textFromRows(); schedule(); });
        $("steps").addEventListener("click", (event) => {
          const button = event.target.closest("button[data-act]");
          if (!button) return;
          const row = button.closest("li");
          if (button.dataset.act === "remove") row.remove();
          else if (button.dataset.act === "up" && row.previousElementSibling) row.previousElementSibling.before(row);
          else if (button.dataset.act === "down" && row.nextElementSibling) row.nextElementSibling.after(row);
          textFromRows();
          schedule(0);
        });
        for (const chip of document.querySelectorAll(".chip")) {
          chip.addEventListener("click", () => { $("spec").value = chip.dataset.spec; rowsFromText(chip.dataset.spec); schedule(0); });
        }
        $("spec").addEventListener("input", () => { rowsFromText($("spec").value); schedule(); });
        $("source").addEventListener("input", () => schedule());
        $("signed").addEventListener("input", () => schedule(0));
        $("formats").addEventListener("change", () => schedule(0));
        for (const button of document.querySelectorAll("[data-copy]")) {
          button.addEventListener("click", async () => {
            const text = $(button.dataset.copy).textContent;
            if (!text) return;
            try {
              await navigator.clipboard.writeText(text);
            } catch {
              // The clipboard API needs a secure context; plain http on another host than localhost is not one.
              const area = el("textarea", {value: text});
              document.body.append(area);
              area.select();
              document.execCommand("copy");
              area.remove();
            }
            button.textContent = "Copied";
            setTimeout(() => { button.textContent = "Copy"; }, 1200);
          });
        }

        if (!allowsUnsigned) {
          $("signing").hidden = false;
          $("mode").textContent = "signed URLs only";
          $("mode").classList.add("signed");
        }
        const initial = readHash();
        $("source").value = initial.source || "";
        $("spec").value = initial.processing || "";
        $("signed").value = initial.signed || "";
        const formatInput = document.querySelector(`input[name=format][value="${CSS.escape((initial.format || "").replace(/^jpeg$/, "jpg"))}"]`);
        if (formatInput) formatInput.checked = true;
        rowsFromText($("spec").value);
        update();
        """#
}
