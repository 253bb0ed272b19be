// The HTTP implementations of the insurer's issue API and of Koala against a local stub server speaking the shapes of their wire files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpAutoStoricheEmissione } from '../../src/server/adapters/auto-storiche/emissione-http.ts';
import { EsitoIncerto, type RichiestaEmissione } from '../../src/server/adapters/auto-storiche/emissione-types.ts';
import { configurazioneHttp } from '../../src/server/adapters/auto-storiche/emissione-wire.ts';
import { loadConfig } from '../../src/server/config.ts';
import { HttpKoala } from '../../src/server/adapters/koala/http.ts';
import { KoalaNonRaggiungibile } from '../../src/server/adapters/koala/types.ts';

interface Seen { method: string; url: string; headers: IncomingMessage['headers']; body: unknown }
const seen: Seen[] = [];
const issued = new Map<string, { verti_policy_number: string }>();
let mode: 'ok' | '500' | 'slow' | '422' | '409' = 'ok';
let server: Server;
let base: string;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.headers.authorization !== 'Bearer segreto') return send(res, 401, { message: 'no' });
      if (mode === '500') return send(res, 500, { message: 'boom' });
      if (mode === 'slow') return setTimeout(() => send(res, 200, { result: 0 }), 500);
      if (mode === '422') return send(res, 422, { Error: [{ descError: 'Codice fiscale non valido' }] });
      if (mode === '409') return send(res, 409, { message: 'Idempotency-Key already used' });
      const key = String(req.headers['idempotency-key'] ?? '');
      if (req.url === '/v1/policies' && req.method === 'POST') {
        const policy = issued.get(key) ?? { verti_policy_number: `HT${issued.size + 1}` };
        issued.set(key, policy);
        return send(res, 200, { result: 0, ...policy, infodrive_id: 'INF1', Error: [], documents: [{ name: 'Contratto', url: 'https://x/c.pdf' }] });
      }
      if (req.url?.startsWith('/v1/requests/')) {
        const found = issued.get(decodeURIComponent(req.url.slice('/v1/requests/'.length)));
        return found ? send(res, 200, { operation: 'issue', response: { result: 0, ...found, Error: [] } }) : send(res, 404, { message: 'not found' });
      }
      if (req.url?.endsWith('/cancellation')) return send(res, 200, { result: 0, Error: null });
      if (req.url === '/v1/polizze/import') return send(res, 201, { import_id: 'K-1' });
      return send(res, 200, { result: 1, Error: [{ descError: 'Avviso', codError: 'W1' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const richiesta: RichiestaEmissione = {
  riferimento: 'quotazione-1', decorrenza: '2026-12-01', premio_centesimi: 30176, check_atrc_contract_expiration_date: false,
  contraente: { nome: 'MARIO', cognome: 'ROSSI', cfisc: 'RSSMRA80A01H501U' },
  veicoli: [{ targa: 'AB123CD', marca: 'Fiat', modello: '500 F', anno: 1968, tipologia_ania: 'A', furto: true }],
};

describe('insurer issue API over HTTP', () => {
  const http = () => new HttpAutoStoricheEmissione({ baseUrl: base, apiKey: 'segreto', timeoutMs: 200 });

  it('is configured by environment and refuses to start half-configured', () => {
    expect(configurazioneHttp(loadConfig({ AUTO_STORICHE_EMISSIONE_ADAPTER: 'http', AUTO_STORICHE_EMISSIONE_URL: 'https://x/v1/', AUTO_STORICHE_API_KEY: 'k' }))).toEqual({ baseUrl: 'https://x/v1', apiKey: 'k', timeoutMs: 30000 });
    expect(() => loadConfig({ AUTO_STORICHE_EMISSIONE_ADAPTER: 'http', AUTO_STORICHE_EMISSIONE_URL: 'https://x' })).toThrow('AUTO_STORICHE_API_KEY è obbligatorio con AUTO_STORICHE_EMISSIONE_ADAPTER=http');
  });

  it('issues with the idempotency key and the wire shapes, and finds the call again by key', async () => {
    mode = 'ok';
    const esito = await http().emetti('chiave-1', richiesta);
    expect(esito).toEqual({ result: 0, verti_policy_number: 'HT1', infodrive_id: 'INF1', Error: [], documenti: [{ nome: 'Contratto', url: 'https://x/c.pdf' }] });
    const call = seen.at(-1)!;
    expect(call.headers['idempotency-key']).toBe('chiave-1');
    expect(call.body).toMatchObject({ reference: 'quotazione-1', effective_date: '2026-12-01', premium: 301.76, check_atrc_contract_expiration_date: false, vehicles: [{ plate_number: 'AB123CD', theft: true }] });
    expect(await http().emetti('chiave-1', richiesta)).toMatchObject({ verti_policy_number: 'HT1' });
    expect(await http().cerca('chiave-1')).toMatchObject({ trovata: true, operazione: 'emissione', esito: { verti_policy_number: 'HT1' } });
    expect(await http().cerca('mai-vista')).toEqual({ trovata: false });
    expect(await http().anteprima(richiesta)).toEqual({ result: 1, Error: [{ descError: 'Avviso', codError: 'W1' }] });
    expect(await http().storna('chiave-2', 'HT1')).toEqual({ result: 0, Error: [] });
  });

  it('a 5xx, a timeout: outcome unknown; a 4xx without result: an error answer', async () => {
    mode = '500';
    await expect(http().emetti('chiave-3', richiesta)).rejects.toBeInstanceOf(EsitoIncerto);
    mode = 'slow';
    await expect(http().emetti('chiave-4', richiesta)).rejects.toMatchObject({ causa: 'timeout' });
    mode = '422';
    expect(await http().emetti('chiave-5', richiesta)).toEqual({ result: 2, Error: [{ descError: 'Codice fiscale non valido' }] });
    await expect(new HttpAutoStoricheEmissione({ baseUrl: 'http://127.0.0.1:1', apiKey: 'x', timeoutMs: 500 }).cerca('k')).rejects.toMatchObject({ causa: 'rete' });
  });

  it('a 409 to a keyed request: the key was already received, the outcome is learnt by the lookup, never taken as a refusal', async () => {
    mode = '409';
    await expect(http().emetti('chiave-6', richiesta)).rejects.toMatchObject({ causa: 'conflitto' });
    await expect(http().storna('chiave-7', 'HT1')).rejects.toMatchObject({ causa: 'conflitto' });
    // Without a key (the preview) a 409 is the insurer's refusal.
    expect((await http().anteprima(richiesta)).result).toBe(2);
    mode = 'ok';
  });
});

describe('Koala over HTTP', () => {
  it('imports with a key per resend; unreachable when it answers 5xx', async () => {
    mode = 'ok';
    const koala = new HttpKoala({ baseUrl: base, token: 'segreto', timeoutMs: 500 });
    const dati = { numero_polizza: 'HT1', quotazione_id: 1, contraente: 'ROSSI MARIO', codice_fiscale: 'RSSMRA80A01H501U', decorrenza: '2026-12-01', scadenza: '2027-12-01', premio: 301.76, competenze: 20 };
    expect(await koala.reimportaEmissione('k1', dati)).toEqual({ ok: true, id_importazione: 'K-1' });
    expect(seen.at(-1)!.body).toMatchObject({ policy_number: 'HT1', holder: 'ROSSI MARIO', premium: 301.76, broker_fee: 20 });
    mode = '500';
    await expect(koala.reimportaEmissione('k2', dati)).rejects.toBeInstanceOf(KoalaNonRaggiungibile);
    mode = '422';
    expect(await koala.reimportaEmissione('k3', dati)).toEqual({ ok: false, errori: ['Koala ha rifiutato i dati (HTTP 422).'] });
  });
});
