// npx tsx scripts/bench-import.ts — imports 50 000 historic-car models as CSV and as XLSX through the real HTTP route, timing each and measuring the server's memory.
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import ExcelJS from 'exceljs';
import { recordFigure, seeded } from './bench/lib.ts';
import { forkServer } from './bench/server.ts';

const ROWS = Number(process.env.BENCH_ROWS) || 50_000;
const TARGET_SECONDS = 10;
const TARGET_MB = 300;
const ADMIN_EMAIL = 'bench-import@local';
const ADMIN_PASSWORD = 'bench-password-1234';
const MB = 1024 * 1024;

const HEADER = ['marca', 'modello', 'cilindrata', 'cilindrata_da', 'cilindrata_a', 'anno', 'anno_da', 'anno_a',
  'valore_a', 'valore_b', 'valore_c', 'nome_tipologia', 'tipologia', 'convenzione', 'colore'];
const MAKES: Array<[string, string[], 'A' | 'M']> = [
  ['Fiat', ['500', '600', '850', '124 Spider', '128', '131 Mirafiori', '1100', 'Dino', 'Barchetta', 'X1/9'], 'A'],
  ['Alfa Romeo', ['Giulia', 'Giulietta', 'Spider Duetto', 'GTV', 'Alfetta', '2000 Berlina', 'Montreal'], 'A'],
  ['Lancia', ['Fulvia', 'Flavia', 'Aurelia', 'Appia', 'Beta', 'Delta', 'Stratos', 'Flaminia'], 'A'],
  ['Porsche', ['356', '911', '912', '914', '924', '928', '944'], 'A'],
  ['Mercedes-Benz', ['190 SL', '230 SL', '280 SL', '300 SE', 'W123', 'Pagoda', '450 SLC'], 'A'],
  ['Volkswagen', ['Maggiolino', 'Karmann Ghia', 'T2', 'Golf GTI', 'Scirocco'], 'A'],
  ['Citroën', ['DS', '2CV', 'SM', 'Méhari', 'CX', 'Dyane'], 'A'],
  ['Autobianchi', ['Bianchina', 'A112', 'Primula'], 'A'],
  ['Innocenti', ['Mini', 'Lambretta LI', 'Lambretta DL'], 'M'],
  ['Piaggio', ['Vespa 125', 'Vespa 150 GS', 'Vespa 50', 'Ape'], 'M'],
  ['Moto Guzzi', ['Falcone', 'V7', 'Le Mans', 'Airone'], 'M'],
  ['Ducati', ['Scrambler', '750 SS', 'Pantah', '900 SS'], 'M'],
  ['BMW', ['2002', 'E9 CS', 'R 60', 'R 75/5', 'Isetta'], 'A'],
  ['Jaguar', ['E-Type', 'XK 120', 'Mk II', 'XJ6'], 'A'],
  ['Ferrari', ['308 GTB', '246 GT', '365 GT4', '400i', 'Mondial'], 'A'],
];
const BODIES = ['Berlina', 'Coupé', 'Spider', 'Cabriolet', 'Station Wagon', 'Fuoristrada', 'Scooter', 'Motocicletta'];
const CLUBS = ['ASI', 'FMI', 'ACI Storico', ''];
const COLOURS = ['verde', 'giallo', 'rosso'];

/** One realistic model row (strings as a user would type them in a CSV; numbers for XLSX cells). */
function modelRow(rnd: () => number, i: number): Array<string | number | null> {
  const [make, models, type] = MAKES[Math.floor(rnd() * MAKES.length)]!;
  const model = `${models[Math.floor(rnd() * models.length)]!} ${['S', 'L', 'GT', 'TI', 'Super', 'Sport'][i % 6]} ${1 + (i % 97)}`;
  const cc = type === 'M' ? 50 + Math.floor(rnd() * 1000) : 500 + Math.floor(rnd() * 4000);
  const from = 1930 + Math.floor(rnd() * 60);
  const range = rnd() < 0.7;
  const value = 2000 + Math.round(rnd() * 150_000_00) / 100;
  return [
    make, model,
    range ? null : cc, range ? cc : null, range ? cc + Math.floor(rnd() * 600) : null,
    range ? null : from, range ? from : null, range ? Math.min(from + Math.floor(rnd() * 15), new Date().getFullYear()) : null,
    value, Math.round(value * 75) / 100, Math.round(value * 50) / 100,
    type === 'M' ? BODIES[6 + (i % 2)]! : BODIES[i % 6]!, type, CLUBS[i % CLUBS.length] || null, COLOURS[i % 3]!,
  ];
}

async function writeFiles(dir: string): Promise<{ csv: string; xlsx: string }> {
  const csv = path.join(dir, 'modelli.csv');
  const xlsx = path.join(dir, 'modelli.xlsx');
  const rnd = seeded(1965);
  const out = createWriteStream(csv);
  out.write(`${HEADER.join(';')}\n`);
  // Shared strings, as Excel writes them; the reader must cope with sheets stored before the strings.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: xlsx, useSharedStrings: true, useStyles: false });
  const sheet = workbook.addWorksheet('Modelli');
  sheet.addRow(HEADER).commit();
  for (let i = 0; i < ROWS; i++) {
    const row = modelRow(rnd, i);
    // The CSV in Italian style: semicolons, decimal commas.
    const line = row.map((v) => (v === null ? '' : typeof v === 'number' ? String(v).replace('.', ',') : v)).join(';');
    if (!out.write(`${line}\n`)) await once(out, 'drain');
    sheet.addRow(row).commit();
  }
  out.end();
  await once(out, 'finish');
  sheet.commit();
  await workbook.commit();
  return { csv, xlsx };
}

/** Streams the file from disk as multipart/form-data, so the client side holds no copy of it. */
function upload(port: number, token: string, file: string, size: number): Promise<{ status: number; body: string }> {
  const boundary = `----bench${Date.now().toString(16)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cancella"\r\n\r\n0\r\n`
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: '/api/autostoriche/import',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.write(head);
    const source = createReadStream(file);
    source.on('error', reject);
    source.on('end', () => req.end(tail));
    source.pipe(req, { end: false });
  });
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function main(): Promise<void> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanup = async () => {
    while (cleanups.length) await cleanups.pop()!().catch((error: Error) => console.error(`cleanup failed: ${error.message}`));
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  let failed = false;
  try {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-import-'));
    await chmod(dir, 0o755); // the embedded server runs as user postgres when we are root
    cleanups.push(() => rm(dir, { recursive: true, force: true }));

    let adminUrl: URL;
    if (process.env.DATABASE_URL) {
      adminUrl = new URL(process.env.DATABASE_URL);
      console.log(`database server: ${adminUrl.host} (DATABASE_URL); a fresh database per format`);
    } else {
      const { startEmbedded } = await import('../src/server/db/embedded.ts');
      const embedded = await startEmbedded(path.join(dir, 'db'));
      cleanups.push(() => embedded.stop());
      adminUrl = new URL(embedded.url);
      console.log(`database server: embedded PostgreSQL under ${dir}; a fresh database per format`);
    }
    adminUrl.pathname = '/postgres';

    const t0 = performance.now();
    const files = await writeFiles(dir);
    const sizes = { csv: (await stat(files.csv)).size, xlsx: (await stat(files.xlsx)).size };
    console.log(`generated ${ROWS} models in ${((performance.now() - t0) / 1000).toFixed(1)} s: CSV ${(sizes.csv / MB).toFixed(1)} MB, XLSX ${(sizes.xlsx / MB).toFixed(1)} MB`);
    console.log(`${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);

    for (const format of ['csv', 'xlsx'] as const) {
      const name = `bench_import_${format}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: adminUrl.toString() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${quote(name)}`);
      await admin.end();
      cleanups.push(async () => {
        const c = new pg.Client({ connectionString: adminUrl.toString() });
        await c.connect();
        try {
          await c.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
        } finally {
          await c.end();
        }
      });
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;

      const server = await forkServer({ DATABASE_URL: url.toString(), ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_MFA_ESENTE: '1' });
      cleanups.push(() => server.stop());
      const login = await fetch(`http://127.0.0.1:${server.port}/api/login`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
      });
      if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
      const { token } = (await login.json()) as { token: string };

      const idle = await server.ask('reset');
      const started = performance.now();
      const res = await upload(server.port, token, files[format], sizes[format]);
      const seconds = (performance.now() - started) / 1000;
      const report = await server.ask('report');

      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      const stored = Number((await check.query('SELECT count(*) AS n FROM autostoriche')).rows[0].n);
      await check.end();

      const body = res.body.length > 300 ? `${res.body.slice(0, 300)}...` : res.body;
      const peakMb = report.peakRss! / MB;
      const maxMb = report.maxRss! / MB;
      const within = res.status === 200 && stored === ROWS && seconds < TARGET_SECONDS && maxMb < TARGET_MB;
      console.log(`${format.toUpperCase()}: HTTP ${res.status} in ${seconds.toFixed(2)} s, ${stored} rows stored, ${body}`);
      console.log(`  server memory: RSS before ${(idle.rss! / MB).toFixed(0)} MB, peak sampled ${peakMb.toFixed(0)} MB, maxRSS (whole process life) ${maxMb.toFixed(0)} MB`);
      console.log(`  target (CSV) under ${TARGET_SECONDS} s and ${TARGET_MB} MB: ${within ? 'met' : 'NOT met'}${format === 'xlsx' ? ' (XLSX reported against the same figures, for information)' : ''}`);
      if (format === 'csv' && !within) failed = true;
      if (format === 'xlsx') recordFigure('import', { figure: `XLSX import of ${ROWS} rows, server peak memory (maxRSS)`, value: Math.round(maxMb), unit: 'MB', target: '< 300 MB', met: res.status === 200 && stored === ROWS && maxMb < 300 });
      else recordFigure('import', { figure: `CSV import of ${ROWS} rows, time`, value: seconds, unit: 's', target: `< ${TARGET_SECONDS} s`, met: within });

      await server.stop();
    }
  } finally {
    await cleanup();
  }
  if (failed) process.exitCode = 1;
}

await main();
