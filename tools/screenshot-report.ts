/**
 * Renders an HTML conformance report in headless Chromium and saves a screenshot (docs/report.png).
 *   tsx tools/screenshot-report.ts [reports/conformance.html] [docs/report.png] [width] [height]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from './lib/browser.ts';

const [input = 'reports/conformance.html', output = 'docs/report.png', width = '1280', height = '900'] = process.argv.slice(2);
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
await page.goto(pathToFileURL(resolve(input)).href);
await page.screenshot({ path: output });
await browser.close();
process.stdout.write(`wrote ${output}\n`);
