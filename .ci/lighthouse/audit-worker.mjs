// .ci/lighthouse.py's Lighthouse: one Node process for every run, not one per run (the
// CLI spent ~2.5 s of each ~11 s run starting Node and reading its config; issue 38).
// Reads one job a line on stdin ({url, port, formFactor, categories, out}), writes the
// JSON report to `out`, answers {"ok": true} or {"ok": false, "error": "…"} a line.
import { writeFile } from "node:fs/promises";
import { createInterface } from "node:readline";

import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

for await (const line of createInterface({ input: process.stdin })) {
  const job = JSON.parse(line);
  let answer;
  try {
    const flags = {
      port: job.port,
      hostname: "127.0.0.1",
      onlyCategories: job.categories,
      output: "json",
      logLevel: "silent",
      // The page's screenshot for the report's viewer: no score reads it (~1.2 s a run).
      disableFullPageScreenshot: true,
    };
    const config = job.formFactor === "desktop" ? desktopConfig : undefined;
    const result = await lighthouse(job.url, flags, config);
    await writeFile(job.out, result.report);
    answer = { ok: true };
  } catch (error) {
    answer = { ok: false, error: String(error?.message ?? error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
