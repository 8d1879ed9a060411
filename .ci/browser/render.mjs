// Render Mermaid diagrams in headless Chromium and describe what came out (tests/browser).
//
//   node .ci/browser/render.mjs JOBS.json RESULTS.json
//
// JOBS.json: {"chromium": "/usr/bin/chromium", "jobs": [{"name", "version", "diagram",
// "theme", "securityLevel", "png"?}]}. "version" names a folder in node_modules (an npm alias
// such as mermaid-11). Nothing is fetched: the page is built from a string, Mermaid's bundle is
// read from node_modules, and Chromium runs with no network beyond what the page asks for
// (nothing). RESULTS.json gets one entry per job: the SVG as XML, its natural size, and any
// error Mermaid threw. The checks themselves live in the Python test.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
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
const results = [];
const MEASURE = async (job) => {
  const m = globalThis.mermaid;
  m.initialize({ startOnLoad: false, theme: job.theme, securityLevel: job.securityLevel });
  document.body.style.background = job.theme === "dark" ? "#0d1117" : "#ffffff";
  const out = document.getElementById("out");
  out.replaceChildren();
  for (const stray of document.querySelectorAll("body > div:not(#out)")) stray.remove();
  let error = null;
  try {
    const { svg, bindFunctions } = await m.render(`graph${job.index}`, job.diagram);
    out.innerHTML = svg;
    if (bindFunctions) bindFunctions(out);
  } catch (e) {
    error = String(e && e.message ? e.message : e);
  }
  // mermaid 10 leaves its error picture in the body when render throws
  const svg = out.querySelector("svg") || document.querySelector("body > div svg");
  if (!svg) return { error, svg: null };
  const box = svg.viewBox && svg.viewBox.baseVal;
  // the picture at its natural size, as GitHub shows a diagram narrower than the page
  if (box && box.width) {
    svg.style.maxWidth = "none";
    svg.setAttribute("width", String(box.width));
    svg.setAttribute("height", String(box.height));
  }
  const rect = svg.getBoundingClientRect();
  return {
    error,
    svg: new XMLSerializer().serializeToString(svg),
    width: rect.width,
    height: rect.height,
  };
};
try {
  const byVersion = new Map();
  spec.jobs.forEach((job, index) => {
    if (!byVersion.has(job.version)) byVersion.set(job.version, []);
    byVersion.get(job.version).push({ ...job, index });
  });
  for (const [version, jobs] of byVersion) {
    const page = await context.newPage();
    await page.setContent(
      `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">` +
      `<div id="out" style="display:inline-block;padding:8px"></div></body></html>`);
    await page.addScriptTag({
      content: readFileSync(join(here, "node_modules", version, "dist", "mermaid.min.js"), "utf8"),
    });
    for (const job of jobs) {
      const started = Date.now();
      const result = await page.evaluate(MEASURE, job);
      if (job.png && result.svg) {
        await page.locator("#out").screenshot({ path: job.png });
      }
      result.name = job.name;
      result.mermaid = version;
      result.index = job.index;
      result.ms = Date.now() - started;
      results.push(result);
    }
    await page.close();
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
results.sort((a, b) => a.index - b.index);
writeFileSync(resultsPath, JSON.stringify(results));
