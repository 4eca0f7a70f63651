/** The report page's stylesheet (inlined; no external font or asset). */
export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #5b6470; --line: #d8dee4; --ok: #1a7f37; --bad: #b42318; --fail: #7a4b00; --warn: #8a5a00; --accent: #0b5cad; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fff; }
header.top { position: sticky; top: 0; z-index: 2; background: #f6f8fa; border-bottom: 1px solid var(--line); padding: 8px 20px; display: flex; gap: 20px; align-items: baseline; flex-wrap: wrap; }
header.top h1 { font-size: 18px; margin: 0; }
header.top nav a { margin-right: 14px; color: var(--accent); }
main { padding: 0 20px 40px; max-width: 1600px; }
h2 { margin-top: 32px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 22px 0 6px; font-size: 15px; }
h4 { margin: 10px 0 4px; font-size: 13px; color: var(--muted); }
p.desc, p.note, .facets { color: var(--muted); margin: 4px 0; }
.warning { background: #fff8e6; border: 1px solid #f0d28a; padding: 6px 10px; border-radius: 4px; margin: 6px 0; }
.table-wrap { position: relative; max-width: 100%; }
.scroll { overflow-x: auto; }
.scroll-cue { display: none; position: absolute; top: 6px; right: 0; bottom: 12px; width: 120px; pointer-events: none; align-items: flex-start; justify-content: flex-end; padding: 4px 6px 0 0; font-size: 12px; font-weight: 600; color: var(--accent); background: linear-gradient(to right, rgba(255,255,255,0), #fff 70%); }
.table-wrap.overflowing:not(.at-end) .scroll-cue { display: flex; }
.scroll-cue span { white-space: nowrap; background: #fff; padding: 1px 3px; border-radius: 3px; box-shadow: 0 0 0 1px var(--line); }
table.data th:first-child, table.data td:first-child { position: sticky; left: 0; z-index: 1; background: #fff; box-shadow: inset -1px 0 0 var(--line); }
table.data th:first-child { background: #f6f8fa; }
table.data th[data-sort] { padding: 0; }
button.sort { all: unset; display: block; padding: 3px 16px 3px 7px; cursor: pointer; font-weight: 600; position: relative; }
button.sort:focus-visible { outline: 2px solid var(--accent); }
th[aria-sort="ascending"] button.sort::after { content: "▲"; position: absolute; right: 3px; font-size: 9px; top: 6px; }
th[aria-sort="descending"] button.sort::after { content: "▼"; position: absolute; right: 3px; font-size: 9px; top: 6px; }
.list-tools { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: baseline; color: var(--muted); margin: 6px 0; }
.list-tools .export { margin-left: auto; }
.browser-panes.has-case { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.35fr); gap: 16px; align-items: start; }
.browser-panes.has-case .wide { display: none; }
.browser-panes.has-case #case-view { position: sticky; top: 52px; max-height: calc(100vh - 64px); overflow: auto; margin-top: 0; }
@media (max-width: 1100px) { .browser-panes.has-case { display: flex; flex-direction: column-reverse; } .browser-panes.has-case #case-view { position: static; max-height: none; } }
.notes { margin: 10px 0; }
.banner { background: #fdecea; border: 2px solid var(--bad); color: #7a1010; padding: 8px 12px; border-radius: 4px; margin: 12px 0; font-weight: 600; }
table.scorecard th { white-space: normal; vertical-align: bottom; max-width: 9em; }
table.scorecard td.headline { min-width: 7.5em; }
table.scorecard .hv { display: block; font-size: 16px; font-weight: 600; }
table.scorecard .hci { display: block; font-size: 11px; color: var(--muted); }
table.scorecard th.ranked { box-shadow: inset 0 -3px 0 var(--accent); }
table.scorecard tr.unfinished td { background: #fff8e6; }
table.sortable th button.sort { padding-right: 16px; white-space: normal; }
svg#headline-chart { display: block; max-width: 100%; height: auto; margin: 8px 0 4px; }
figure { scroll-margin-top: 56px; }
table.steps { table-layout: fixed; width: 100%; }
table.steps th:first-child { width: 56px; } table.steps th:last-child { width: 108px; }
table.steps td { white-space: normal; vertical-align: top; overflow-wrap: anywhere; }
table.steps td .args { font: 12px ui-monospace, monospace; color: var(--muted); white-space: pre-wrap; overflow-wrap: anywhere; }
table.steps tr.same td.match { color: var(--ok); } table.steps tr.tool td.match { color: var(--warn); } table.steps tr.differs td.match { color: var(--bad); }
table.steps td.none { color: var(--muted); }
table.data { border-collapse: collapse; margin: 6px 0 12px; font-variant-numeric: tabular-nums; }
table.data th, table.data td { border: 1px solid var(--line); padding: 3px 7px; text-align: left; white-space: nowrap; }
table.data th { background: #f6f8fa; font-weight: 600; }
table.data td.num { text-align: right; }
table.data tr.mismatch td { background: #fff1f0; }
figure { margin: 12px 0 20px; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: var(--muted); }
.filters { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; margin: 10px 0; }
.filters label { display: flex; gap: 4px; align-items: center; }
.filters select, .filters input { font: inherit; padding: 2px 4px; }
table.cases { width: 100%; }
table.cases td.query { max-width: 420px; overflow: hidden; text-overflow: ellipsis; color: var(--muted); }
table.cases tr.current td { background: #eef6ff; }
table.cases tr.current td:first-child { box-shadow: inset 3px 0 0 var(--accent), inset -1px 0 0 var(--line); }
button.link { background: none; border: none; color: var(--accent); cursor: pointer; padding: 0; font: inherit; text-decoration: underline; }
.pager { display: flex; gap: 8px; margin: 6px 0; }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 12px; border: 1px solid currentColor; }
.badge.ok { color: var(--ok); } .badge.bad { color: var(--bad); } .badge.fail { color: var(--fail); } .badge.warn { color: var(--warn); }
#case-view, section, h3 { scroll-margin-top: 56px; }
#case-view { border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; margin-top: 16px; background: #fcfcfd; }
#case-view header { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
#case-view header h3 { margin: 0; }
details.section { margin: 8px 0; }
details.section > summary { cursor: pointer; font-weight: 600; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; max-height: 420px; overflow: auto; margin: 4px 0; font-size: 12.5px; }
ul.tools { padding-left: 18px; } ul.tools li { margin: 3px 0; }
code.call { display: block; margin: 2px 0; }
.answers.side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; }
@media (max-width: 900px) { .answers.side-by-side { grid-template-columns: 1fr; } }
.answer-column { border-top: 2px solid var(--line); padding-top: 6px; min-width: 0; }
img.case-image { max-width: 100%; max-height: 480px; border: 1px solid var(--line); }
#live-banner { background: #eef6ff; border-bottom: 1px solid var(--line); padding: 4px 20px; display: flex; gap: 12px; align-items: center; }
`;
