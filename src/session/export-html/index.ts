// Public surface of the HTML export.
export { renderSessionHtml, type SessionHtmlInput } from "./render-session.js";
export { exportSessionHtml, defaultExportName, type ExportHtmlOptions } from "./export-session.js";
