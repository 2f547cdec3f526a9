// The web UI's files as text inside the single-file bundle: the page's own
// files from lib/web/assets/ and the two libraries it loads, marked and
// DOMPurify (their packages' ES module entries, the files the source form
// serves from node_modules). A bundle has neither folder beside it. Only
// the daemon's web UI imports this module, when it first serves a file.

import type { WebFiles } from "../lib/web/web_files.ts";
import indexHtml from "../lib/web/assets/index.html" with { type: "text" };
import noticeHtml from "../lib/web/assets/notice.html" with { type: "text" };
import styleCss from "../lib/web/assets/style.css" with { type: "text" };
import appJs from "../lib/web/assets/app.js" with { type: "text" };
import apiJs from "../lib/web/assets/api.js" with { type: "text" };
import domJs from "../lib/web/assets/dom.js" with { type: "text" };
import formJs from "../lib/web/assets/form.js" with { type: "text" };
import historyJs from "../lib/web/assets/history.js" with { type: "text" };
import sessionsJs from "../lib/web/assets/sessions.js" with { type: "text" };
import renderJs from "../lib/web/assets/render.js" with { type: "text" };
import highlightJs from "../lib/web/assets/highlight.js" with {
  type: "text",
};
import viewsJs from "../lib/web/assets/views.js" with { type: "text" };
import markedJs from "marked" with { type: "text" };
import purifyJs from "dompurify" with { type: "text" };

/** Every file of the page, as the bundle carries it. */
export const WEB_FILES: WebFiles = {
  "index.html": indexHtml,
  "notice.html": noticeHtml,
  "style.css": styleCss,
  "app.js": appJs,
  "api.js": apiJs,
  "dom.js": domJs,
  "form.js": formJs,
  "history.js": historyJs,
  "sessions.js": sessionsJs,
  "render.js": renderJs,
  "highlight.js": highlightJs,
  "views.js": viewsJs,
  "vendor/marked.js": markedJs,
  "vendor/purify.js": purifyJs,
};
