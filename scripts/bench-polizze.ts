// npx tsx scripts/bench-polizze.ts — the policy list with per_page=-1 on 50 000 policies: time to first byte, total time and the server's peak memory.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { recordFigure, scratchDatabase } from './bench/lib.ts';
import { forkServer } from './bench/server.ts';

const ROWS = Number(process.env.BENCH_ROWS) || 50_000;
const RUNS = 3;
const ADMIN_EMAIL = 'bench-polizze@local';
const ADMIN_PASSWORD = 'bench-password-1234';
const MB = 1024 * 1024;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a benchmark reads whatever the API answers
async function call(port: number, method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: await res.json() };
}

/** GET with time to the response headers and to the first body byte, total time and size; the body is parsed to count the rows. */
function timedGet(port: number, url: string, token: string): Promise<{ status: number; headersMs: number; firstByteMs: number; firstRowMs: number; totalMs: number; bytes: number; rows: number; total: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get({ host: '127.0.0.1', port, path: url, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const headersMs = performance.now() - t0;
      let firstByteMs = 0;
      // The first row, not only the '{"data":[' the stream opens with.
      let firstRowMs = 0;
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        if (!firstByteMs) firstByteMs = performance.now() - t0;
        bytes += c.length;
        chunks.push(c);
        if (!firstRowMs && bytes > '{"data":['.length + 1) firstRowMs = performance.now() - t0;
      });
      res.on('end', () => {
        const totalMs = performance.now() - t0;
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: unknown[]; total: number };
        resolve({ status: res.statusCode ?? 0, headersMs, firstByteMs, firstRowMs, totalMs, bytes, rows: parsed.data.length, total: parsed.total });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function main(): Promise<void> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanup = async () => {
    while (cleanups.length) await cleanups.pop()!().catch((error: Error) => console.error(`cleanup failed: ${error.message}`));
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    let adminUrl: URL;
    if (process.env.DATABASE_URL) {
      adminUrl = new URL(process.env.DATABASE_URL);
      console.log(`database server: ${adminUrl.host} (DATABASE_URL), a fresh database`);
    } else {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-polizze-'));
      await chmod(dir, 0o755);
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const { startEmbedded } = await import('../src/server/db/embedded.ts');
      const embedded = await startEmbedded(path.join(dir, 'db'));
      cleanups.push(() => embedded.stop());
      adminUrl = new URL(embedded.url);
      console.log(`database server: embedded PostgreSQL under ${dir}`);
    }
    adminUrl.pathname = '/postgres';
    const url = await scratchDatabase(adminUrl, 'bench_polizze', cleanups);

    const server = await forkServer({ DATABASE_URL: url.toString(), ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_MFA_ESENTE: '1' });
    cleanups.push(() => server.stop());
    const login = await call(server.port, 'POST', '/api/login', undefined, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
    const token = login.json.token as string;
    // The referenced records through the API, the policies in bulk (the list is what is measured, not the inserts).
    const model = async (path: string, body: unknown) => {
      const res = await call(server.port, 'POST', path, token, body);
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.json)}`);
      return res.json.data.model.id as number;
    };
    const fornitore = await model('/api/compagnia', { ragioneSociale: 'Tirrenica Assicurazioni', tipoCompagnia: 'FORNITORE', percentRitenuta: 11.5 });
    const contrattuale = await model('/api/compagnia_contrattuale', { nome: 'Assicuratrice Tirrenica' });
    const prodotto = await model('/api/categoria_prodotto', { nome: 'Incendio e Furto', compagnia_fornitore_id: fornitore, compagnia_contrattuale_id: contrattuale, ramo_id: 8, settore_id: 1, percentuale_provvigione_attiva: 20 });
    const collaboratore = await model('/api/collaboratore', { sesso: 'M', nome: 'Mario', cognome: 'Rossi', tipo: 'AGENTE' });
    const cliente = await model('/api/cliente', { tipo: 'RETAIL', sesso: 'F', nome: 'Anna', cognome: 'Bianchi', collaboratore_id: collaboratore });
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    const t0 = performance.now();
    await db.query(`INSERT INTO polizza (collaboratore_id, cliente_id, compagnia_contrattuale_id, fornitore_id, mandato_prodotto_id, ramo_id, polizza_numero,
        data_entrata_in_effetto, data_scadenza, data_inizio, data_fine, frazionamento_slug, tacito_rinnovo, tipo_pagamento,
        totale_premio_imponibile, totale_premio_imposte, diritti, spese, competenze, totale_premio_lordo, premio,
        stato, data_ultimo_stato, saldato, prodotto_label, garanzie)
      SELECT $1, $2, $3, $4, $5, 8, 'BENCH-' || g, d, d + 365, d, d + 365, 'TRIMESTRALE', g % 2 = 0, 'BONIFICO',
        300 + g % 900, round((300 + g % 900) * 0.2225, 2), 10, 5, 20, 335 + g % 900 + round((300 + g % 900) * 0.2225, 2), 335 + g % 900 + round((300 + g % 900) * 0.2225, 2),
        (ARRAY['GIACENZA','IN_PAGAMENTO','SALDATA'])[1 + g % 3], d, g % 3 = 2, 'TIRRENICA ASSICURAZIONI / ASSICURATRICE TIRRENICA / Incendio e Furto (8)',
        jsonb_build_array(jsonb_build_object('garanzia', 'Incendio', 'importo_netto', 200 + g % 500, 'importo_lordo', 244.5 + g % 500),
                          jsonb_build_object('garanzia', 'Furto', 'importo_netto', 100 + g % 400, 'importo_lordo', 122.25 + g % 400))
      FROM generate_series(1, ${ROWS}) g, LATERAL (SELECT DATE '2025-01-01' + (g % 700) AS d) x`, [collaboratore, cliente, contrattuale, fornitore, prodotto]);
    await db.query('ANALYZE polizza');
    await db.end();
    console.log(`${ROWS} policies inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);

    let worstExtraMb = 0;
    for (let run = 1; run <= RUNS; run++) {
      const idle = await server.ask('reset');
      const r = await timedGet(server.port, '/api/polizza?per_page=-1', token);
      const report = await server.ask('report');
      if (r.status !== 200 || r.rows !== ROWS || r.total !== ROWS) throw new Error(`run ${run}: HTTP ${r.status}, ${r.rows} rows, total ${r.total}`);
      console.log(`run ${run}: HTTP ${r.status}, ${r.rows} rows, ${(r.bytes / MB).toFixed(1)} MB; headers ${r.headersMs.toFixed(0)} ms, first byte ${r.firstByteMs.toFixed(0)} ms, first row ${r.firstRowMs.toFixed(0)} ms, `
        + `last byte ${r.totalMs.toFixed(0)} ms; server RSS before ${(idle.rss! / MB).toFixed(0)} MB, peak ${(report.peakRss! / MB).toFixed(0)} MB `
        + `(+${((report.peakRss! - idle.rss!) / MB).toFixed(0)} MB), maxRSS of the process ${(report.maxRss! / MB).toFixed(0)} MB`);
      worstExtraMb = Math.max(worstExtraMb, (report.peakRss! - idle.rss!) / MB);
    }
    recordFigure('stream', { figure: `per_page=-1 on ${ROWS} policies, server memory added (worst of ${RUNS})`, value: Math.round(worstExtraMb), unit: 'MB', target: '< 100 MB', met: worstExtraMb < 100 });
    await server.stop();
  } finally {
    await cleanup();
  }
}

await main();
