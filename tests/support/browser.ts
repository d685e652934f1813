import chromium from '@sparticuz/chromium';
import { type Browser, chromium as playwright } from 'playwright-core';

/**
 * A headless Chromium that `npm install` brought: `@sparticuz/chromium` ships the browser compressed in
 * its npm package and unpacks it to /tmp on first use (no download from anywhere else). Its own flags,
 * plus `--no-sandbox` (tests run as root, where Chromium's sandbox refuses to start), minus
 * `--disable-web-security`: the console must work under the browser's normal same-origin rules.
 * No browser is an error that says so, never a skipped test.
 */
export async function launchBrowser(): Promise<Browser> {
  let executablePath: string;
  try {
    executablePath = await chromium.executablePath();
  } catch (err) {
    throw new Error(
      'the console test needs the Chromium of @sparticuz/chromium (npm install); it could not be unpacked',
      { cause: err },
    );
  }
  const args = [
    ...chromium.args.filter((a) => a !== '--disable-web-security' && a !== '--no-sandbox'),
    '--no-sandbox',
  ];
  try {
    return await playwright.launch({ executablePath, args, headless: true });
  } catch (err) {
    throw new Error(`the console test could not start Chromium at ${executablePath}`, { cause: err });
  }
}
