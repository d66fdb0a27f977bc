// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"use strict";
// The page is static: the steps, presets, formats and settings come from the service's
// catalogue (/playground/catalogue.json), which the processing grammar's one table makes.
let allowsUnsigned = false;
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
// omitted argument means ("" for an optional argument that is simply absent); an optional
// argument left at `d` is left out of the text where the grammar allows.
let STEPS = {};
function stepsFrom(catalogue) {
  const steps = {};
  for (const step of catalogue.steps) {
    const fields = step.arguments.map((a) => ({
      kind: a.kind === "number" ? "num" : a.kind, label: a.label, optional: a.optional,
      d: a.optional ? (a.default ?? "") : undefined, min: a.min, max: a.max, step: a.step,
      options: a.options ?? [], labels: a.labels ?? {},
    }));
    steps[step.name] = {about: step.summary, fields, anyOrder: step.anyOrder, init: step.example};
  }
  return steps;
}

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
// Whether `text` has the field's shape, for steps whose optional arguments come in any order.
function recognises(field, text) {
  switch (field.kind) {
    case "size": return /^\d/.test(text) && /x/i.test(text);
    case "color": return text.startsWith("#");
    case "corners": return /^[a-z]/i.test(text);
    case "choice": return field.options.includes(text);
    default: return /^[-.\d]/.test(text);
  }
}

// The arguments of a step as field values, or null when the form cannot show them (it stays
// text): required arguments in order, then optional ones in order or by their shape.
function fieldValues(name, args) {
  const step = STEPS[name];
  const fields = step.fields;
  const values = new Array(fields.length);
  const pending = fields.map((_, i) => i);
  let index = 0;
  while (index < args.length) {
    if (!pending.length) return null;
    let slot = pending[0];
    if (step.anyOrder && fields[slot].optional) {
      slot = pending.find((i) => recognises(fields[i], args[index]));
      if (slot === undefined) return null;
    }
    pending.splice(pending.indexOf(slot), 1);
    const width = fields[slot].kind === "anchor" ? 2 : 1;
    if (index + width > args.length) return null;
    const value = args.slice(index, index + width).join(",");
    if (!valid(fields[slot], value)) return null;
    values[slot] = value;
    index += width;
  }
  for (const i of pending) {
    if (fields[i].d === undefined) return null;
    values[i] = fields[i].d;
  }
  return values;
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
      for (const option of field.options) select.append(el("option", {value: option, textContent: field.labels[option] ?? option}));
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
  const step = STEPS[name];
  const fields = step.fields;
  const values = [...row.querySelectorAll(".params > .field")].map(controlValue);
  // An optional argument that is absent or at its default is left out: anywhere when the
  // grammar tells arguments apart by shape, else only from the end.
  const leaveOut = values.map((v, i) => fields[i].optional && (v === "" || v === fields[i].d));
  if (!step.anyOrder) for (let i = values.length - 2; i >= 0; i--) leaveOut[i] = leaveOut[i] && leaveOut[i + 1];
  const args = values.map((v, i) => (v === "" && fields[i].d !== undefined ? fields[i].d : v)).filter((_, i) => !leaveOut[i]);
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

// The time the URL expires, in seconds since 1970, or 0 for never: fixed when it is typed, so
// the path (and a signature pasted for it) stays the same while the page is open.
let expiresAt = 0;
function setExpiry(unix) {
  expiresAt = unix > 0 ? unix : 0;
  $("expires-at").dataset.unix = expiresAt ? String(expiresAt) : "";
  $("expires-at").textContent = expiresAt ? `until ${new Date(expiresAt * 1000).toISOString().replace(".000Z", "Z")}` : "";
}

function update() {
  const source = $("source").value.trim();
  const spec = $("spec").value.trim();
  const format = document.querySelector("input[name=format]:checked").value;
  writeHash({source, processing: spec, format, expires: expiresAt ? String(expiresAt) : "", signed: $("signed").value.trim()});
  const idle = (text) => { generation++; inflight?.abort(); setURL(""); setStatus("idle", text); };
  if (!source) return idle("Enter a source image URL to start.");
  if (!/^https?:\/\/[^/?#]/i.test(source)) return idle("The source must be an absolute http:// or https:// URL.");
  // The service's expires(…) step goes first, as `kf url` puts it.
  const steps = expiresAt ? [`expires(${expiresAt})`, spec].filter(Boolean).join("|>") : spec;
  const path = `/${encodeProcessing(steps)}/${base64url(source)}${format ? "." + format : ""}`;
  let url = location.origin + "/unsafe" + path;
  if (!allowsUnsigned) {
    $("sign-path").textContent = path;
    $("sign-command").textContent =
      `printf '%s' ${shellQuote(path)} | openssl dgst -sha256 -hmac "$KF_SERVE_KEY" -binary | openssl base64 -A | tr '+/' '-_' | tr -d '='`;
    $("kf-command").textContent = `kf url ${shellQuote(source)}${spec ? " --processor " + shellQuote(spec) : ""}${format ? " --format " + format : ""}${expiresAt ? " --expires-at " + expiresAt : ""}`;
    url = signedURL(path);
    if (!url) return idle("Sign the path above, then paste the signature (or the signed URL) to preview the result.");
  }
  setURL(url);
  show(url, format);
}

// Typing waits for a pause, so that "300" does not fetch "3" and "30" first.
let timer = 0;
const schedule = (delay = 350) => { clearTimeout(timer); timer = setTimeout(update, delay); };

async function start() {
  let catalogue;
  try {
    const response = await fetch("/playground/catalogue.json");
    if (!response.ok) throw new Error(`${response.status}: ${(await response.text()).trim()}`);
    catalogue = await response.json();
  } catch (error) {
    return setStatus("error", `The playground's catalogue did not load: ${error.message}`);
  }
  allowsUnsigned = catalogue.allowsUnsigned;
  STEPS = stepsFrom(catalogue);
  document.title = `${catalogue.name} · image playground`;
  $("name").textContent = catalogue.name;
  $("grammar").textContent = catalogue.grammar;
  for (const format of catalogue.formats) {
    $("formats").append(el("label", {}, el("input", {type: "radio", name: "format", value: format}), el("span", {textContent: format})));
  }
  $("format-hint").textContent = catalogue.negotiated.length
    ? `auto: ${catalogue.negotiated.map((f) => f.toUpperCase()).join(" or ")} when the browser asks for them, else the source's format.`
    : "auto: the source's format.";
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
  for (const preset of catalogue.presets) {
    const chip = el("button", {type: "button", className: "chip", textContent: preset.name, title: preset.spec});
    chip.addEventListener("click", () => { $("spec").value = preset.spec; rowsFromText(preset.spec); schedule(0); });
    $("presets").append(chip, " ");
  }
  $("spec").addEventListener("input", () => { rowsFromText($("spec").value); schedule(); });
  $("source").addEventListener("input", () => schedule());
  $("signed").addEventListener("input", () => schedule(0));
  $("formats").addEventListener("change", () => schedule(0));
  $("expires-in").addEventListener("input", () => {
    const seconds = parseInt($("expires-in").value, 10);
    setExpiry(seconds > 0 ? Math.floor(Date.now() / 1000) + seconds : 0);
    schedule();
  });
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
  setExpiry(parseInt(initial.expires, 10) || 0);
  const formatInput = document.querySelector(`input[name=format][value="${CSS.escape((initial.format || "").replace(/^jpeg$/, "jpg"))}"]`);
  if (formatInput) formatInput.checked = true;
  rowsFromText($("spec").value);
  update();
}

start();
