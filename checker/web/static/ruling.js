// The page of `ruling serve`: sends the position to the JSON API (docs/web.md) as the
// player types, and shows the answer as tables. Every value is put in the page as text
// (never as HTML): a position cannot inject markup.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const examples = JSON.parse($("examples-data").textContent);
  const editor = $("position");
  const gutter = $("gutter");
  const errorBox = $("error");
  const verdict = $("verdict");
  const status = $("status");
  const figure = $("picture");
  const WAIT_MS = 300; // after the last keystroke
  let view = "aros";
  let asked = 0; // the number of the latest request: older answers are dropped
  let timer = null;
  let drawn = null; // the text whose picture is shown

  // ---- Building elements --------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(name, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  const words = (key) => key.replace(/_/g, " ");

  // ---- The editor: line numbers, the error's line ---------------------------------------
  function numberLines(badLine) {
    const count = editor.value.split("\n").length;
    gutter.replaceChildren();
    for (let k = 1; k <= count; k++) {
      gutter.append(el("span", { class: k === badLine ? "bad" : null, "data-line": k }, k), "\n");
    }
    gutter.scrollTop = editor.scrollTop;
  }

  function either(items) {
    const unique = [...new Set(items)];
    if (unique.length === 1) return unique[0];
    return unique.slice(0, -1).join(", ") + " or " + unique[unique.length - 1];
  }

  // The error as `ruling` prints it: file:line:column, the line with a caret, what was expected.
  function errorText(error, text) {
    if (!error.line) return "error: " + error.message;
    let told = `${error.file}:${error.line}:${error.column}: error: ${error.message}`;
    const source = (text.split("\n")[error.line - 1] || "").replace(/\s+$/, "").replace(/\t/g, " ");
    if (source) told += `\n    ${source}\n    ${" ".repeat(Math.max(error.column - 1, 0))}^`;
    if (error.expected && error.expected.length) told += "\n    expected " + either(error.expected);
    return told;
  }

  function showError(error, text) {
    errorBox.hidden = false;
    errorBox.dataset.line = error.line || "";
    errorBox.dataset.kind = error.kind || "";
    errorBox.querySelector("pre").textContent = errorText(error, text);
    numberLines(error.line || 0);
  }

  function clearError() {
    errorBox.hidden = true;
    errorBox.dataset.line = "";
    numberLines(0);
  }

  // ---- Rendering an answer ----------------------------------------------------------------
  const RULE_KEYS = new Set(["rule", "denied_by", "lifted", "resolution_rules", "rules_applied"]);
  const CATALOGUE_KEYS = { skill_name: "skills", weapon_name: "weapons", weapon_names: "weapons" };
  const HIDDEN = { skill: "skill_name", weapon: "weapon_name", weapons: "weapon_names", id: "name" };

  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const isRule = (v) => isObject(v) && typeof v.text === "string" && "source" in v
    && (typeof v.rule === "string" || typeof v.id === "string");
  const isChance = (v) => isObject(v) && "fraction" in v && "value" in v && Object.keys(v).length === 2;
  const isEmpty = (v) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0)
    || (isObject(v) && Object.keys(v).length === 0);
  const isPending = (v) => isObject(v) && typeof v.write === "string" && typeof v.missing === "string";
  const isFlat = (v) => !(Array.isArray(v) && v.some((x) => isObject(x) && !isRule(x) && !isPending(x)))
    && !(isObject(v) && !isRule(v) && !isChance(v));

  function ruleLink(id, ctx, rule) {
    const edition = (rule && rule.edition) || ctx.ruleSet;
    const href = "/rules/" + encodeURIComponent(id) + (edition ? "?edition=" + encodeURIComponent(edition) : "");
    const title = rule ? `${rule.text} (${rule.source})` : null;
    return el("a", { class: "rule", href, title, target: "_blank", rel: "noopener" }, `[${id}]`);
  }

  function catalogueLink(kind, name, ctx) {
    if (!ctx.catalogue) return name;
    const href = `/catalogue/${encodeURIComponent(ctx.catalogue)}/${encodeURIComponent(kind)}/${encodeURIComponent(name)}`;
    return el("a", { class: "entry", href, target: "_blank", rel: "noopener" }, name);
  }

  // A text with its web addresses as links, each shown by its site and page name.
  function withLinks(text) {
    const parts = text.split(/(https?:\/\/[^\s,;)]+)/);
    if (parts.length === 1) return text;
    const span = el("span", {});
    parts.forEach((part, k) => {
      if (k % 2 === 0) { span.append(part); return; }
      let url;
      try { url = new URL(part); } catch (failure) { span.append(part); return; }
      const page = url.pathname.split("/").filter(Boolean).pop() || "";
      span.append(el("a", { href: part, title: part, rel: "noreferrer", target: "_blank" },
        url.host + (page ? "/…/" + decodeURIComponent(page) : "")));
    });
    return span;
  }

  function render(value, key, ctx, owner) {
    if (isEmpty(value)) return null;
    if (isRule(value)) return ruleLink(value.rule || value.id, ctx, value);
    if (isChance(value)) return el("span", { class: "chance", title: value.fraction }, (value.value * 100).toFixed(2) + " %");
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (typeof value === "string") {
      if (RULE_KEYS.has(key)) return ruleLink(value, ctx, null);
      if (CATALOGUE_KEYS[key]) return catalogueLink(CATALOGUE_KEYS[key], value, ctx);
      if (key === "name" && owner && typeof owner.kind === "string") return catalogueLink(owner.kind, value, ctx);
      return withLinks(value);
    }
    if (typeof value !== "object") return String(value);
    if (isPending(value)) {
      // A fact the verdict waits on, as the text output says it: write 'LINE' for [rule]...
      const rules = (value.rules || []).map((rule) => ruleLink(rule.rule || rule.id || rule, ctx, isRule(rule) ? rule : null));
      return el("span", { class: "pending" }, "write ", el("code", {}, value.write), rules.length ? " for " : null,
        ...rules.flatMap((link, k) => (k ? [" ", link] : [link])));
    }
    if (Array.isArray(value)) {
      if (value.every((x) => !isObject(x) || isRule(x) || isChance(x) || isPending(x))) {
        const span = el("span", { class: "list" });
        value.forEach((x, k) => {
          if (k) span.append(", ");
          span.append(Array.isArray(x) ? x.join(" + ") : render(x, key, ctx, owner) ?? "—");
        });
        return span;
      }
      // Options (each with a status) are a table whatever they hold, their denied folded;
      // other rows are a table when every cell is a plain value, else a card each.
      const rows = value.every(isObject)
        && (value.every((row) => "status" in row) || value.every((row) => Object.values(row).every(isFlat)));
      return rows ? table(value, ctx) : cards(value, ctx);
    }
    return fields(value, ctx);
  }

  // Long details folded where they stand: each score of a roll, each end state.
  const FOLDED = new Set(["scores", "end_states"]);

  function folded(summary, shown) {
    return el("details", { class: "more" }, el("summary", {}, summary), shown);
  }

  function fields(object, ctx) {
    const list = el("dl", { class: "fields" });
    for (const [key, value] of Object.entries(object)) {
      if (HIDDEN[key] && !isEmpty(object[HIDDEN[key]])) continue;
      let shown = render(value, key, ctx, object);
      if (shown !== null && FOLDED.has(key) && Array.isArray(value)) shown = folded(`${value.length} ${words(key)}`, shown);
      if (shown !== null) list.append(el("dt", {}, words(key)), el("dd", {}, shown));
    }
    return list;
  }

  // What a player reads first in an option's row, then the rest in the answer's order.
  const FIRST = ["skill_name", "weapon_name", "status", "pending", "denied_by"];

  function columnsOf(rows) {
    const keys = [];
    for (const row of rows) for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
    keys.sort((a, b) => (FIRST.includes(a) ? FIRST.indexOf(a) : FIRST.length)
      - (FIRST.includes(b) ? FIRST.indexOf(b) : FIRST.length));
    return keys.filter((key) => rows.some((row) => !isEmpty(row[key]))
      && !(HIDDEN[key] && rows.some((row) => !isEmpty(row[HIDDEN[key]]))));
  }

  function table(rows, ctx) {
    const denied = rows.filter((row) => row.status === "denied");
    const shown = rows.filter((row) => row.status !== "denied");
    const holder = el("div", { class: "rows" });
    if (shown.length) holder.append(plainTable(shown, ctx));
    else if (denied.length) holder.append(el("p", { class: "none" }, "Nothing is allowed here."));
    if (denied.length) {
      holder.append(el("details", { class: "denied" },
        el("summary", {}, `${denied.length} denied, each with the rule denying it`), plainTable(denied, ctx)));
    }
    return holder;
  }

  function plainTable(rows, ctx) {
    const columns = columnsOf(rows);
    const head = el("tr", {}, ...columns.map((key) => el("th", { scope: "col" }, words(key))));
    const body = rows.map((row) => el("tr", { class: row.status ? "status-" + row.status : null },
      ...columns.map((key) => el("td", { "data-column": words(key) }, render(row[key], key, ctx, row)))));
    return el("div", { class: "scroll" }, el("table", {}, el("thead", {}, head), el("tbody", {}, ...body)));
  }

  function cards(items, ctx) {
    const holder = el("div", { class: "cards" });
    for (const item of items) {
      if (!isObject(item)) { holder.append(el("p", {}, render(item, "", ctx, null))); continue; }
      const title = ["trooper", "reactor", "model", "key", "subject"].find((key) => typeof item[key] === "string");
      const rest = Object.fromEntries(Object.entries(item).filter(([key]) => key !== title));
      holder.append(el("section", { class: "card" }, title ? el("h4", {}, item[title]) : null, fields(rest, ctx)));
    }
    return holder;
  }

  const CAUTION = { not_modelled: "Not modelled: check these by hand", unverified: "Unverified values" };

  function renderAnswer(data) {
    const ctx = {
      ruleSet: data.edition || (data.game === "urban-war" ? "urban_war" : null),
      catalogue: data.edition || null,
    };
    const parts = [];
    for (const [key, heading] of Object.entries(CAUTION)) {
      if (!isEmpty(data[key])) {
        parts.push(el("section", { class: "caution", id: "caution-" + key },
          el("h3", {}, heading), render(data[key], key, ctx, data)));
      }
    }
    for (const [key, value] of Object.entries(data)) {
      if (key in CAUTION || key === "edition" || key === "game") continue;
      let shown = render(value, key, ctx, data);
      if (shown === null) continue;
      // The odds: the summary table open, each option's rolls and end states folded under it.
      if ("summary" in data && (key === "declared" || key === "options")) {
        shown = folded(key === "declared" ? "The Order as declared: its rolls and end states" :
          "Each option: its rolls and end states", shown);
      }
      parts.push(el("section", { class: "part", id: "part-" + key }, el("h3", {}, words(key)), shown));
    }
    verdict.replaceChildren(...parts);
  }

  function headline(data, failed) {
    const game = data.edition ? "Infinity " + data.edition.toUpperCase() : "Urban War";
    if (typeof data.legal === "boolean") return `${game}: ${data.legal ? "LEGAL" : "NOT LEGAL"}`;
    return `${game}: ${view}` + (failed === "1" ? " (a conflict or a breach of the rules: see below)" : "");
  }

  // ---- Asking the server ------------------------------------------------------------------
  async function ask(path, text) {
    const answer = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ position: text }),
    });
    return [answer, await answer.json()];
  }

  // The status line's data-state tells where the latest request is: busy, then answer,
  // error (a located error in the position) or refused (the game does not answer it).
  function settle(state, told) {
    status.dataset.state = state;
    status.textContent = told;
  }

  async function judge() {
    const text = editor.value;
    const mine = ++asked;
    if (!text.trim()) {
      clearError();
      verdict.replaceChildren();
      figure.hidden = true;
      drawn = null;
      settle("empty", "Choose an example or write a position.");
      return;
    }
    settle("busy", "Judging…");
    let answer, data;
    try {
      [answer, data] = await ask("/api/" + view, text);
    } catch (failure) {
      if (mine === asked) settle("refused", "The server did not answer: " + failure);
      return;
    }
    if (mine !== asked) return;
    if (!answer.ok) {
      const error = data.error || { message: "the server answered " + answer.status };
      verdict.replaceChildren();
      if (error.line) {
        showError(error, text);
        settle("error", "The position has an error: see under the editor.");
      } else {
        clearError();
        settle("refused", errorText(error, text));
      }
      return;
    }
    clearError();
    renderAnswer(data);
    await draw(text, mine);
    if (mine === asked) settle("answer", headline(data, answer.headers.get("Ruling-Failed")));
  }

  async function draw(text, mine) {
    if (text === drawn) return;
    try {
      const [answer, data] = await ask("/api/picture", text);
      if (mine !== asked) return;
      drawn = text;
      figure.hidden = !(answer.ok && data.svg);
      if (!figure.hidden) {
        figure.querySelector("img").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(data.svg);
      }
    } catch (failure) {
      figure.hidden = true;
    }
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(judge, WAIT_MS);
  }

  // ---- Wiring ---------------------------------------------------------------------------
  editor.addEventListener("input", () => { numberLines(Number(errorBox.dataset.line) || 0); later(); });
  editor.addEventListener("scroll", () => { gutter.scrollTop = editor.scrollTop; });
  $("example").addEventListener("change", (event) => {
    const chosen = examples.find((e) => e.name === event.target.value);
    if (!chosen) return;
    editor.value = chosen.text;
    const told = chosen.summary.startsWith(chosen.game) ? chosen.summary : `${chosen.game}: ${chosen.summary}`;
    $("summary").textContent = told;
    editor.scrollTop = 0;
    numberLines(0);
    judge();
  });
  for (const tab of document.querySelectorAll("[data-command]")) {
    tab.addEventListener("click", () => {
      view = tab.dataset.command;
      for (const other of document.querySelectorAll("[data-command]")) {
        other.setAttribute("aria-selected", String(other === tab));
      }
      judge();
    });
  }
  numberLines(0);
})();
