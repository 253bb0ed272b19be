// The e-signature provider's HTTP implementation against a local stub server: request shapes, idempotency key,
// answers, refusals with their error list, 5xx and timeouts reported as retryable.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFirma } from '../../src/server/adapters/firma/http.ts';
import { FirmaError } from '../../src/server/adapters/firma/types.ts';
import { SandboxFirma } from '../../src/server/adapters/firma/sandbox.ts';
import type { CreateSignatureRequestBody } from '../../src/server/adapters/firma/shapes.ts';

let server: http.Server;
let base: string;
const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const send = (status: number, payload: unknown, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(type === 'application/json' ? JSON.stringify(payload) : payload as Buffer);
      };
      if (req.url === '/v1/signature_requests' && req.method === 'POST') {
        const parsed = JSON.parse(body) as CreateSignatureRequestBody;
        if (parsed.signer.email.includes('rifiuto')) return send(422, { message: 'Firmatario non valido', errors: ['Email non abilitata'] });
        if (parsed.signer.email.includes('guasto')) return send(503, { message: 'down' });
        if (parsed.signer.email.includes('lento')) return setTimeout(() => send(200, { id: 'late', status: 'ongoing' }), 1500);
        return send(201, { id: 'req-1', status: parsed.mode === 'otp' ? 'ongoing' : 'draft' });
      }
      if (req.url === '/v1/signature_requests/req-1') return send(200, { id: 'req-1', status: 'done' });
      if (req.url === '/v1/signature_requests/req-1/signed_document') return send(200, Buffer.from('%PDF-1.4 signed'), 'application/pdf');
      return send(404, { message: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const richiesta = (email: string) => ({
  chiave: 'quotazione:7:1', modalita: 'otp' as const, firmatario: { nome: 'Anna Neri', email, telefono: '+39 333 1' },
  documenti: [{ nome: 'contratto.pdf', mime: 'application/pdf', contenuto: Buffer.from('%PDF-1.4') }],
});

describe('HttpFirma', () => {
  const provider = (timeoutMs = 5000) => new HttpFirma(base, 'chiave-api', timeoutMs, 'https://broker.example/api/firma/callback');

  it('sends the documented request with the key and the idempotency key, and reads the answers', async () => {
    expect(await provider().invia(richiesta('anna@example.it'))).toEqual({ id: 'req-1', stato: 'ongoing' });
    const sent = seen.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer chiave-api');
    expect(sent.headers['idempotency-key']).toBe('quotazione:7:1');
    expect(JSON.parse(sent.body)).toEqual({
      external_id: 'quotazione:7:1', mode: 'otp', signer: { full_name: 'Anna Neri', email: 'anna@example.it', phone: '+39 333 1' },
      documents: [{ name: 'contratto.pdf', content_type: 'application/pdf', content_base64: Buffer.from('%PDF-1.4').toString('base64') }],
      callback_url: 'https://broker.example/api/firma/callback',
    });
    expect(await provider().stato('req-1')).toEqual({ id: 'req-1', stato: 'done' });
    expect((await provider().documentoFirmato('req-1')).toString()).toBe('%PDF-1.4 signed');
  });

  it('reports a refusal with its errors, and 5xx or timeouts as retryable', async () => {
    const refusal = await provider().invia(richiesta('rifiuto@example.it')).catch((e: FirmaError) => e);
    expect(refusal).toBeInstanceOf(FirmaError);
    expect(refusal).toMatchObject({ message: 'Firmatario non valido', errori: ['Email non abilitata'], timeout: false });
    expect(await provider().invia(richiesta('guasto@example.it')).catch((e: FirmaError) => e.timeout)).toBe(true);
    const slow = await provider(300).invia(richiesta('lento@example.it')).catch((e: FirmaError) => e);
    expect(slow).toMatchObject({ message: 'Il servizio di firma non ha risposto in tempo.', timeout: true });
  });
});

describe('SandboxFirma', () => {
  it('moves on with its clock, answers the same request for the same key, signs into a real PDF', async () => {
    let now = 1_000;
    const sandbox = new SandboxFirma(5_000, () => now);
    const first = await sandbox.invia(richiesta('anna@example.it'));
    expect(first.stato).toBe('ongoing');
    expect(await sandbox.invia(richiesta('anna@example.it'))).toEqual(first);
    now += 4_999;
    expect((await sandbox.stato(first.id)).stato).toBe('ongoing');
    now += 1;
    expect((await sandbox.stato(first.id)).stato).toBe('done');
    await expect(sandbox.invia({ ...richiesta('x@example.it'), modalita: 'otp', firmatario: { nome: 'X', email: 'x@example.it', telefono: null } })).rejects.toThrow('Richiesta di firma non valida.');
    const manual = await sandbox.invia({ ...richiesta('m@example.it'), chiave: 'k2', modalita: 'manual' });
    expect(manual.stato).toBe('draft');
  });
});
