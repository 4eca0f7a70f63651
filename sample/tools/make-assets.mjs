#!/usr/bin/env node
/**
 * Renders the sample's PNG attachments from small HTML mock-ups (fictional apps, receipts and
 * charts written for apb). Not run by the tests: run it by hand after editing a mock-up, then
 * re-run build-data.mjs (record content does not depend on the images' bytes).
 *
 *   node sample/tools/make-assets.mjs
 *
 * Needs playwright-core (a dev dependency) and Debian's chromium at /usr/bin/chromium
 * (`apt-get install -y chromium`); it never downloads a browser.
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'assets');

const BASE_CSS = `*{box-sizing:border-box;margin:0;padding:0}body{font-family:"DejaVu Sans",Arial,sans-serif;color:#1f2933;background:#fff}`;

/** Teamline notification settings, before (`goal: false`) or after the change. */
function teamlineSettings(goal) {
  const toggle = (on, dim = false) =>
    `<span class="tg ${on ? 'on' : ''}" style="${dim ? 'opacity:.45' : ''}"><span class="knob"></span></span><span class="tgl">${on ? 'On' : 'Off'}</span>`;
  return `<!doctype html><html><head><style>${BASE_CSS}
  .top{height:36px;background:#24345a;color:#fff;display:flex;align-items:center;padding:0 12px;font-size:13px;gap:18px}
  .top b{font-size:15px;letter-spacing:.5px;margin-right:10px}.top .act{border-bottom:2px solid #8fb3ff;padding-bottom:2px}
  .wrap{display:flex;height:284px}.side{width:118px;background:#f1f4f9;border-right:1px solid #d9e0ea;padding:12px 0;font-size:12px}
  .side div{padding:7px 14px;color:#52606d}.side .sel{background:#dfe8fb;color:#1d3f8f;font-weight:bold;border-left:3px solid #3a66d6}
  .main{flex:1;padding:12px 16px;font-size:12px}.main h1{font-size:15px;margin-bottom:2px}.sub{color:#7b8794;font-size:11px;margin-bottom:10px}
  .row{display:flex;align-items:center;justify-content:space-between;padding:7px 0;border-bottom:1px solid #eef1f5}
  .row .l{display:flex;flex-direction:column}.row .h{color:#7b8794;font-size:10px}
  .tg{display:inline-block;width:30px;height:16px;border-radius:8px;background:#c5ccd6;position:relative;vertical-align:middle}
  .tg.on{background:#2f9e5b}.knob{position:absolute;top:2px;left:2px;width:12px;height:12px;border-radius:6px;background:#fff}.tg.on .knob{left:16px}
  .tgl{font-size:10px;color:#52606d;margin-left:5px;display:inline-block;width:20px}
  .sel-box{border:1px solid #b8c2cc;border-radius:4px;padding:3px 8px;width:96px;display:flex;justify-content:space-between;background:#fff}
  .sel-box.dis{background:#f1f3f5;color:#9aa5b1;border-color:#d9dee4}
  .btn{margin-top:12px;display:inline-block;background:#3a66d6;color:#fff;padding:6px 14px;border-radius:4px;font-weight:bold}
  .toast{position:absolute;left:272px;top:270px;background:#e3f6e8;border:1px solid #2f9e5b;color:#1e6b3c;padding:5px 10px;border-radius:4px;font-size:11px;font-weight:bold}
  </style></head><body>
  <div class="top"><b>Teamline</b><span>Projects</span><span>Inbox</span><span class="act">Settings</span><span style="margin-left:auto;font-size:11px">ines.moreira</span></div>
  ${goal ? '<div class="toast">&#10003; Settings saved</div>' : ''}
  <div class="wrap"><div class="side"><div>Profile</div><div class="sel">Notifications</div><div>Security</div><div>Integrations</div></div>
  <div class="main"><h1>Notification settings</h1><div class="sub">Choose how Teamline keeps you up to date.</div>
  <div class="row"><div class="l"><span>Mentions &mdash; push notifications</span><span class="h">When someone @mentions you</span></div><div>${toggle(true)}</div></div>
  <div class="row"><div class="l"><span>Weekly digest email</span><span class="h">A summary of your projects' activity</span></div><div>${toggle(goal)}</div></div>
  <div class="row"><div class="l"><span>Digest day</span><span class="h">${goal ? 'Day the digest is sent' : 'Available when the weekly digest is on'}</span></div>
    <div class="sel-box ${goal ? '' : 'dis'}"><span>${goal ? 'Monday' : 'Friday'}</span><span>&#9662;</span></div></div>
  <div class="row"><div class="l"><span>Product updates</span><span class="h">News about Teamline features</span></div><div>${toggle(false)}</div></div>
  <div class="btn">Save changes</div></div></div></body></html>`;
}

const RECEIPT_LINES = [
  ['Coperto', 3, 3.0],
  ['Antipasto misto', 2, 14.0],
  ['Risotto ai funghi', 1, 19.5],
  ['Tagliata di manzo', 2, 24.0],
  ['Branzino al forno', 1, 26.0],
  ['Acqua minerale 0,75l', 2, 3.5],
  ['Rosso di Montalcino btg', 1, 38.0],
  ['Tiramisu della casa', 1, 11.0],
];

function receipt() {
  const eur = (n) => n.toFixed(2).replace('.', ',');
  const total = RECEIPT_LINES.reduce((sum, [, qty, price]) => sum + qty * price, 0);
  if (Math.abs(total - 186.5) > 1e-9) throw new Error(`receipt total drifted: ${total}`);
  const vat = total - total / 1.1;
  const rows = RECEIPT_LINES.map(([name, qty, price]) => `<tr><td>${qty} x ${name}</td><td class="r">${eur(qty * price)}</td></tr>`).join('');
  return `<!doctype html><html><head><style>${BASE_CSS}
  body{background:#d7d2c8;display:flex;justify-content:center;padding:14px 0}
  .paper{width:292px;background:#fffdf7;padding:14px 16px;font-family:"DejaVu Sans Mono",monospace;font-size:11.5px;border:1px solid #c9c3b6}
  .c{text-align:center}.big{font-size:15px;font-weight:bold}hr{border:none;border-top:1px dashed #777;margin:7px 0}
  table{width:100%;border-collapse:collapse}td{padding:1px 0}.r{text-align:right}.tot td{font-weight:bold;font-size:14px;padding-top:3px}
  </style></head><body><div class="paper">
  <div class="c big">TRATTORIA DA PAOLO</div><div class="c">Via dei Fiori Chiari 17</div><div class="c">20121 Milano MI</div><div class="c">P.IVA 08812340961</div>
  <hr><div>Data: 27/02/2025&nbsp;&nbsp;&nbsp;Ora: 21:42</div><div>Tavolo 12&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;Coperti: 3</div><hr>
  <table>${rows}</table><hr>
  <table><tr class="tot"><td>TOTALE EUR</td><td class="r">${eur(total)}</td></tr>
  <tr><td>di cui IVA 10%</td><td class="r">${eur(vat)}</td></tr><tr><td>Pagamento</td><td class="r">CARTA VISA ****4471</td></tr></table>
  <hr><div class="c">DOCUMENTO COMMERCIALE</div><div class="c">n. 0412-0087 &nbsp; Grazie e arrivederci!</div></div></body></html>`;
}

const MAU = [
  ['Jan', 102], ['Feb', 108], ['Mar', 115], ['Apr', 121], ['May', 129], ['Jun', 137],
  ['Jul', 148], ['Aug', 121], ['Sep', 126], ['Oct', 131], ['Nov', 127], ['Dec', 135],
];

function mauChart() {
  const W = 480, H = 320, left = 44, right = 14, top = 46, bottom = 40;
  const plotW = W - left - right, plotH = H - top - bottom, max = 160;
  const slot = plotW / MAU.length, barW = slot * 0.62;
  const y = (v) => top + plotH - (v / max) * plotH;
  let svg = '';
  for (let v = 0; v <= max; v += 40) {
    svg += `<line x1="${left}" x2="${W - right}" y1="${y(v)}" y2="${y(v)}" stroke="#e4e7eb"/><text x="${left - 6}" y="${y(v) + 4}" font-size="10" text-anchor="end" fill="#616e7c">${v}</text>`;
  }
  MAU.forEach(([month, value], i) => {
    const x = left + i * slot + (slot - barW) / 2;
    svg += `<rect x="${x}" y="${y(value)}" width="${barW}" height="${top + plotH - y(value)}" fill="#3a66d6"/>`;
    svg += `<text x="${x + barW / 2}" y="${y(value) - 4}" font-size="10" text-anchor="middle" fill="#1f2933">${value}</text>`;
    svg += `<text x="${x + barW / 2}" y="${top + plotH + 14}" font-size="10" text-anchor="middle" fill="#3e4c59">${month}</text>`;
  });
  return `<!doctype html><html><head><style>${BASE_CSS}</style></head><body>
  <svg width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg" font-family="DejaVu Sans, Arial, sans-serif">
  <rect width="${W}" height="${H}" fill="#fff"/>
  <text x="${left}" y="20" font-size="14" font-weight="bold" fill="#1f2933">Pocketly app &#8212; monthly active users, 2024</text>
  <text x="${left}" y="36" font-size="10.5" fill="#616e7c">Thousands of users, all platforms. Source: product analytics export, 6 Jan 2025</text>
  ${svg}<line x1="${left}" x2="${W - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#9aa5b1"/>
  <text x="${W / 2}" y="${H - 6}" font-size="10" text-anchor="middle" fill="#616e7c">Month (2024)</text></svg></body></html>`;
}

const INVOICE_LINES = [
  ['Shipping carton 40x30x30 cm, double wall', 1200, 2.1],
  ['Void-fill paper roll, 450 m', 40, 18.5],
  ['Packing tape 48 mm x 66 m, brown', 240, 1.55],
];

function invoice() {
  const eur = (n) => n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const net = INVOICE_LINES.reduce((sum, [, qty, price]) => sum + qty * price, 0);
  const vat = Math.round(net * 0.22 * 100) / 100;
  if (Math.abs(net + vat - 4431.04) > 1e-6) throw new Error(`invoice total drifted: ${net + vat}`);
  const rows = INVOICE_LINES.map(([d, q, p]) => `<tr><td>${d}</td><td class="r">${q.toLocaleString('en-GB')}</td><td class="r">${eur(p)}</td><td class="r">${eur(q * p)}</td></tr>`).join('');
  return `<!doctype html><html><head><style>${BASE_CSS}
  body{background:#cfd4da;padding:10px}.doc{background:#fff;padding:14px 16px;font-size:11px;border:1px solid #b8c2cc}
  .hd{display:flex;justify-content:space-between}.co{font-size:15px;font-weight:bold;color:#1d5b79}.t{font-size:18px;font-weight:bold;text-align:right}
  .meta td{padding:1px 8px 1px 0}table.l{width:100%;border-collapse:collapse;margin-top:8px}table.l th{background:#e6eef3;text-align:left;padding:3px;font-size:10.5px}
  table.l td{padding:3px;border-bottom:1px solid #e4e7eb}.r{text-align:right}.sum{margin-top:6px;margin-left:auto;width:210px}.sum td{padding:2px 0}
  .due{margin-top:8px;font-weight:bold;color:#9b2c2c}</style></head><body><div class="doc">
  <div class="hd"><div><div class="co">Alba Packaging S.r.l.</div><div>Via Industria 44, 12051 Alba (CN), Italy</div><div>VAT IT04417890042</div></div>
  <div><div class="t">INVOICE</div><table class="meta"><tr><td>No.</td><td><b>INV-88412</b></td></tr><tr><td>Date</td><td>05 Mar 2025</td></tr><tr><td>Your PO</td><td><b>PO-2025-0147</b></td></tr></table></div></div>
  <div style="margin-top:6px">Bill to: Northwind Home Goods B.V., Keizersgracht 210, Amsterdam</div>
  <table class="l"><tr><th>Description</th><th class="r">Qty</th><th class="r">Unit EUR</th><th class="r">Amount EUR</th></tr>${rows}</table>
  <table class="sum"><tr><td>Net</td><td class="r">${eur(net)}</td></tr><tr><td>VAT 22%</td><td class="r">${eur(vat)}</td></tr>
  <tr><td><b>Total due EUR</b></td><td class="r"><b>${eur(net + vat)}</b></td></tr></table>
  <div class="due">Payment due: 04 Apr 2025 (30 days net)</div><div>Bank: IBAN IT60 X054 2811 1010 0000 0123 456</div></div></body></html>`;
}

const ASSET_PAGES = [
  { file: 'teamline_settings_start.png', html: teamlineSettings(false), width: 480, height: 320 },
  { file: 'teamline_settings_goal.png', html: teamlineSettings(true), width: 480, height: 320 },
  { file: 'receipt_trattoria_da_paolo.png', html: receipt(), width: 340, height: 480 },
  { file: 'mau_chart_2024.png', html: mauChart(), width: 480, height: 320 },
  { file: 'invoice_alba_packaging.png', html: invoice(), width: 500, height: 340 },
];

async function main() {
  mkdirSync(ASSETS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    for (const { file, html, width, height } of ASSET_PAGES) {
      const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
      await page.setContent(html, { waitUntil: 'load' });
      const target = path.join(ASSETS, file);
      await page.screenshot({ path: target, type: 'png' });
      await page.close();
      console.log(`${file}: ${statSync(target).size} bytes`);
    }
  } finally {
    await browser.close();
  }
}

await main();
