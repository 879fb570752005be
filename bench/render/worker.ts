/**
 * One engine in its own process, driven by run.ts over IPC. A process per engine keeps the
 * engines' memory apart, so each one's peak RSS can be read: the kernel's high-water mark for
 * this process (`resourceUsage().maxRSS`), plus, for Chromium, what run.ts samples for the
 * browser processes this one started.
 *
 *   node --import tsx bench/render/worker.ts <engine>
 */
import type { Kind } from './fixture.ts';
import type { Engine, EngineName } from './engines/types.ts';
import type { ToParent, ToWorker } from './protocol.ts';

async function create(name: EngineName): Promise<Engine> {
  switch (name) {
    case 'ours':
      return (await import('./engines/ours.ts')).createOursEngine();
    case 'tagged':
      return (await import('./engines/ours.ts')).createOursEngine({ tagged: true });
    case 'pdfkit':
      return (await import('./engines/pdfkit.ts')).createPdfkitEngine();
    case 'pdfme':
      return (await import('./engines/pdfme.ts')).createPdfmeEngine();
    case 'chromium':
      return (await import('./engines/chromium.ts')).createChromiumEngine();
  }
}

function send(msg: ToParent): void {
  process.send?.(msg);
}

const name = process.argv[2] as EngineName;
const t0 = performance.now();
let engine: Engine;
try {
  engine = await create(name);
} catch (e) {
  send({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  process.exit(1);
}
send({ type: 'ready', setupMs: performance.now() - t0 });

async function run(kind: Kind, n: number, start: number): Promise<ToParent> {
  let bytes = 0;
  const t = performance.now();
  for (let i = 0; i < n; i++) bytes += (await engine.render(kind, start + i)).byteLength;
  const ms = performance.now() - t;
  return { type: 'result', ms, n, bytes, maxRssKb: process.resourceUsage().maxRSS };
}

process.on('message', (raw) => {
  const msg = raw as ToWorker;
  void (async () => {
    try {
      if (msg.type === 'run') send(await run(msg.kind, msg.n, msg.start));
      else if (msg.type === 'sample') {
        const pdf = await engine.render(msg.kind, msg.i);
        const { writeFileSync } = await import('node:fs');
        writeFileSync(msg.out, pdf);
        send({ type: 'sampled', bytes: pdf.byteLength });
      } else if (msg.type === 'close') {
        await engine.close();
        send({ type: 'closed' });
        process.disconnect();
      }
    } catch (e) {
      send({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  })();
});
