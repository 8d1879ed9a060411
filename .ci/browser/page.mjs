// Open the HTML pages `adrguard graph --format html` writes, in headless Chromium, offline, and
// describe what each one shows (tests/browser/test_graph_page.py).
//
//   node .ci/browser/page.mjs JOBS.json RESULTS.json
//
// JOBS.json: {"chromium": "/usr/bin/chromium", "jobs": [{"name", "page" (a file path),
// "click"?: true, "png"?}]}. The browser context is offline: a page that loads Mermaid from its
// CDN cannot, which is part of what is tested. Every request the page makes is recorded, and
// every alert() or dialog (a hostile title must never open one). RESULTS.json gets one entry per
// job: the graph's state ("drawn" or "error"), the status text, the SVG, each drawn node (its
// Mermaid name, its text, the link around it), the links in the records table, the requests,
// the dialogs, console errors and, with "click", the URL reached by clicking the first node.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const [jobsPath, resultsPath] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(jobsPath, "utf8"));
const profile = mkdtempSync(join(tmpdir(), "adrguard-chromium-"));
const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

const context = await chromium.launchPersistentContext(profile, {
  executablePath: spec.chromium,
  headless: true,
  args: FLAGS,
  viewport: { width: 1280, height: 800 },
  offline: true,
});
await context.addInitScript(() => {
  window.__alerts = [];
  for (const name of ["alert", "confirm", "prompt"]) {
    window[name] = (message) => { window.__alerts.push(`${name}: ${message}`); };
  }
});

const DESCRIBE = () => {
  const box = document.getElementById("graph");
  const svg = box.querySelector("svg");
  const XLINK = "http://www.w3.org/1999/xlink";
  const linkOf = (a) => a && (a.getAttribute("href") || a.getAttributeNS(XLINK, "href"));
  const nodes = [];
  if (svg) {
    for (const g of svg.querySelectorAll("g.node")) {
      const m = /flowchart-(n\d+)-\d+$/.exec(g.id || "");
      if (!m) continue;
      const a = g.closest("a") || g.querySelector("a");
      nodes.push({ name: m[1], text: (g.textContent || "").replace(/\s+/g, " ").trim(),
                   href: linkOf(a) || null, resolved: a ? new URL(linkOf(a), document.baseURI).href : null });
    }
  }
  const rows = [...document.querySelectorAll("#records tbody tr")].map((tr) => {
    const a = tr.querySelector("a");
    return { id: tr.id, cells: [...tr.cells].map((c) => c.textContent),
             href: a ? a.getAttribute("href") : null, resolved: a ? a.href : null };
  });
  return {
    state: box.getAttribute("data-state"),
    status: (document.getElementById("graph-status") || {}).textContent || "",
    svg: svg ? new XMLSerializer().serializeToString(svg) : null,
    nodes, rows, alerts: window.__alerts, scripts: document.scripts.length,
  };
};

const results = [];
try {
  for (const job of spec.jobs) {
    const page = await context.newPage();
    const requests = [];
    const dialogs = [];
    const errors = [];
    page.on("request", (r) => {
      const url = r.url();
      if (!url.startsWith("data:")) requests.push(url);
    });
    page.on("dialog", async (d) => { dialogs.push(d.message()); await d.dismiss(); });
    page.on("pageerror", (e) => errors.push(String(e)));
    const url = pathToFileURL(job.page).href;
    await page.goto(url, { waitUntil: "load" });
    await page.waitForFunction(
      () => document.getElementById("graph").getAttribute("data-state") !== "pending",
      null, { timeout: 60000 });
    const result = await page.evaluate(DESCRIBE);
    if (job.png) await page.screenshot({ path: job.png, fullPage: true });
    if (job.click && result.nodes.length && result.nodes[0].href) {
      const [target] = await Promise.all([
        page.waitForEvent("framenavigated", { timeout: 30000 }).then(() => page.url()),
        page.locator("#graph svg g.node").first().click(),
      ]);
      result.clicked = target;
    }
    Object.assign(result, { name: job.name, url, requests, dialogs, errors });
    results.push(result);
    await page.close();
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
writeFileSync(resultsPath, JSON.stringify(results));
