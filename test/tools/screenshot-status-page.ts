// `npm run screenshot [-- OUT.png]`: starts a throwaway three-node cluster on loopback,
// gives it a few clients, locks, a queue and some history, opens the leader's status page
// in headless Chromium (Debian's /usr/bin/chromium) and writes a PNG (default
// docs/status-page.png, the picture in the README). Stops the cluster afterwards.
import { resolve } from "node:path";
import { launchChromium } from "../integration/browser.ts";
import { startCluster } from "../integration/harness.ts";

const out = resolve(process.argv[2] ?? "docs/status-page.png");
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const cluster = await startCluster({ metrics: true, clusterId: "palisade-demo" });
  const browser = await launchChromium();
  try {
    const leader = await cluster.leaderId();
    const client = cluster.client();
    const billing = await client.openSession({ ttlMs: 15_000, clientName: "billing-worker@app-1" });
    const reports = await client.openSession({ ttlMs: 30_000, clientName: "report-runner@cron-2" });
    const sync = await client.openSession({ ttlMs: 10_000, clientName: "invoice-sync@app-3" });

    const first = await billing.acquire("orders/42");
    await billing.release("orders/42", first.token ?? 0n);
    await reports.acquire("reports/nightly");
    await sync.acquire("invoices/eu");

    const page = await browser.newPage({
      viewport: { width: 1440, height: 640 },
      deviceScaleFactor: 1,
    });
    await page.goto(`${cluster.metricsOrigin(leader)}/ui`);
    await page.locator("#live.on").waitFor({ timeout: 15_000 });

    // What the live feed shows: a grant, a queue forming behind it, a release.
    const held = await billing.acquire("orders/42");
    sync.acquire("orders/42", { waitMs: 60_000 }).catch(() => undefined);
    reports.acquire("orders/42", { waitMs: 60_000 }).catch(() => undefined);
    await pause(300);
    await sync.release(
      "invoices/eu",
      (await client.read.getLock("invoices/eu")).holder?.token ?? 0n,
    );
    await pause(1_500);
    await page.locator("#locks button.lockname", { hasText: "orders/42" }).click();
    await page.locator("#history tbody tr").first().waitFor();
    await pause(2_500);
    await page.screenshot({ path: out, fullPage: true });
    process.stdout.write(
      `wrote ${out} (the page of node ${leader}, the leader; token ${held.token} on orders/42)\n`,
    );
  } finally {
    await browser.close();
    await cluster.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`screenshot: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
