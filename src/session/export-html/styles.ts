// The page's inline stylesheet (no external loads).
export const SESSION_CSS = `
:root{--bg:#f6f7f9;--card:#fff;--ink:#1d2430;--muted:#6b7385;--user:#e8f0fe;--assistant:#fff;--tool:#f3f5f8;
--err:#fdecec;--errInk:#a11;--accent:#3a6ff7;--border:#dde1e8;--leaf:#fff6d6}
@media (prefers-color-scheme:dark){:root{--bg:#14171c;--card:#1c2027;--ink:#e4e7ed;--muted:#9aa3b5;--user:#1f2a40;
--assistant:#1c2027;--tool:#222731;--err:#3a1f22;--errInk:#ffb3b3;--accent:#7aa2ff;--border:#2e3440;--leaf:#3a3320}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif}
.layout{display:grid;grid-template-columns:minmax(220px,320px) 1fr;min-height:100vh}
nav.tree{border-right:1px solid var(--border);padding:12px;overflow:auto;max-height:100vh;position:sticky;top:0;font-size:12px}
nav.tree ol{list-style:none;margin:0;padding:0}
nav.tree li{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;color:var(--muted);padding:1px 0}
nav.tree li.on-branch{color:var(--ink)}
nav.tree li.leaf{background:var(--leaf);font-weight:600}
nav.tree a{color:inherit;text-decoration:none}
main{padding:16px 24px;max-width:1000px}
header.session h1{font-size:18px;margin:0 0 8px}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 12px;color:var(--muted)}
dl.meta dd{margin:0;color:var(--ink);word-break:break-all}
.entry{background:var(--card);border:1px solid var(--border);border-radius:8px;padding:8px 12px;margin:8px 0}
.entry.user{background:var(--user)}
.entry.toolResult,.entry.bashExecution{background:var(--tool)}
.entry.error{background:var(--err)}
.entry.leaf{outline:2px solid var(--accent)}
.entry.state{background:none;border-style:dashed;color:var(--muted);padding:4px 12px}
.role{font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin-bottom:4px}
.badge{display:inline-block;background:var(--accent);color:#fff;border-radius:4px;padding:0 6px;margin-left:6px;font-size:11px;text-transform:none}
.text{white-space:pre-wrap;word-wrap:break-word}
pre{white-space:pre-wrap;word-wrap:break-word;background:var(--tool);border-radius:6px;padding:6px 8px;margin:4px 0;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
details>summary{cursor:pointer;color:var(--muted)}
.toolcall .name{font-weight:600}
.errmsg{color:var(--errInk)}
.muted{color:var(--muted)}
img.attachment{max-width:100%;max-height:480px;border-radius:6px;display:block;margin:4px 0}
section.other h2,section.system h2{font-size:15px}
`;
