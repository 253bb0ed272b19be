// The HTTP motor insurer against a local stub: configured by environment, shapes as in shapes.ts, errors and timeouts as InsurerError.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { motorInsurer } from '../../src/server/adapters/motor/index.ts';
import { loadConfig } from '../../src/server/config.ts';
import { SandboxMotorInsurer, SANDBOX_PLATES } from '../../src/server/adapters/motor/sandbox.ts';
import { InsurerError, type FastQuotationRequest } from '../../src/server/adapters/motor/shapes.ts';
import { selezionePredefinita } from '../../src/shared/rca/garanzie.ts';

const seen: Array<{ url: string; headers: http.IncomingHttpHeaders; body: unknown }> = [];
let server: http.Server;
let url: string;

const request = (plate: string): FastQuotationRequest => ({
  fastFlowData: {
    vehicleCategory: 'Auto', plate, birthdate: '1980-01-01', convention: 'QP_STANDARD', effectDate: '2030-01-01', bonusMalus: 3,
    insuranceSituation: 'AlreadyInsuredATR', personData: { gender: 'Male', name: 'MARIO', surname: 'ROSSI', birthDate: '1980-01-01' },
  },
  coverages: selezionePredefinita(),
  addresses: [{ addressType: 'PermanentResidency', streetType: 'Via', streetName: 'ROMA', number: '1', cityIstat: '058091', zipCode: '00184' }],
});

beforeAll(async () => {
  const sandbox = new SandboxMotorInsurer();
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const body = JSON.parse(raw || '{}');
      seen.push({ url: req.url!, headers: req.headers, body });
      const send = (status: number, payload: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      if (req.url === '/FastQuotationFlow') {
        if (body.fastFlowData.plate === 'SLOW000') return setTimeout(() => send(200, {}), 1500);
        if (body.fastFlowData.plate === 'KO00000') return send(503, { message: 'Servizio in manutenzione', errors: { servizio: ['Riprovare tra 10 minuti'] } });
        if (body.fastFlowData.plate === 'BAD0000') return send(422, { message: 'Targa non valida', errors: ['PLATE-01: formato non riconosciuto'] });
        return send(200, await sandbox.fastQuotation(body, { idempotencyKey: String(req.headers['idempotency-key']), today: new Date('2030-01-01') }));
      }
      if (req.url === '/Proposal') return send(200, await sandbox.proposal(body, { idempotencyKey: String(req.headers['idempotency-key']), today: new Date('2030-01-01') }));
      send(404, { message: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('HTTP motor insurer', () => {
  const env = () => ({ MOTOR_INSURER_ADAPTER: 'http', MOTOR_INSURER_URL: `${url}/`, MOTOR_INSURER_TOKEN: 'segreto', MOTOR_INSURER_TIMEOUT_MS: '5000' });

  it('is chosen by environment; sandbox is the default and an unknown mode stops the start', () => {
    expect(motorInsurer(loadConfig({}))).toBeInstanceOf(SandboxMotorInsurer);
    expect(() => loadConfig({ MOTOR_INSURER_ADAPTER: 'http' })).toThrow('MOTOR_INSURER_URL è obbligatorio con MOTOR_INSURER_ADAPTER=http');
    expect(() => loadConfig({ MOTOR_INSURER_ADAPTER: 'soap' })).toThrow('MOTOR_INSURER_ADAPTER deve essere uno di: sandbox, http');
  });

  it('posts the request with token and idempotency key and reads the simulation', async () => {
    const insurer = motorInsurer(loadConfig(env()));
    const answer = await insurer.fastQuotation(request('AB123CD'), { idempotencyKey: 'k-1', today: new Date() });
    expect(answer.simulation.quotation.quotationStatus).toBe('Quoted');
    expect(answer.simulation.commonData.simulationNumber).toMatch(/^SIM\d{10}$/);
    const last = seen.at(-1)!;
    expect(last.url).toBe('/FastQuotationFlow');
    expect(last.headers.authorization).toBe('Bearer segreto');
    expect(last.headers['idempotency-key']).toBe('k-1');
    expect((last.body as FastQuotationRequest).fastFlowData.plate).toBe('AB123CD');
    const proposal = await insurer.proposal({ proposalData: { quotationNumber: 'SIM1', sendMailToClient: true } }, { idempotencyKey: 'p-1', today: new Date() });
    expect(proposal).toMatchObject({ quotationNumber: 'SIM1', status: 'Sent', mailSent: true });
  });

  it('turns failures, refusals and timeouts into InsurerError with the details', async () => {
    const insurer = motorInsurer(loadConfig(env()));
    const ctx = { idempotencyKey: 'k-2', today: new Date() };
    await expect(insurer.fastQuotation(request('KO00000'), ctx)).rejects.toMatchObject({ message: 'Servizio in manutenzione', details: ['Riprovare tra 10 minuti'], kind: 'failure' });
    await expect(insurer.fastQuotation(request('BAD0000'), ctx)).rejects.toMatchObject({ message: 'Targa non valida', kind: 'refused' });
    const slow = motorInsurer(loadConfig({ ...env(), MOTOR_INSURER_TIMEOUT_MS: '300' })).fastQuotation(request('SLOW000'), ctx);
    await expect(slow).rejects.toBeInstanceOf(InsurerError);
    await expect(slow).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('sandbox: declared plates answer non disponibile, error and timeout; same key, same number', async () => {
    const sandbox = new SandboxMotorInsurer();
    const ctx = { idempotencyKey: 'same', today: new Date('2030-01-01') };
    const nd = await sandbox.fastQuotation(request(SANDBOX_PLATES.nonDisponibile), ctx);
    expect(nd.simulation.quotation).toMatchObject({ quotationStatus: 'NotAvailable', totalPrice: null });
    await expect(sandbox.fastQuotation(request(SANDBOX_PLATES.errore), ctx)).rejects.toMatchObject({ kind: 'failure' });
    await expect(sandbox.fastQuotation(request(SANDBOX_PLATES.timeout), ctx)).rejects.toMatchObject({ kind: 'timeout' });
    const a = await sandbox.fastQuotation(request('AB123CD'), ctx);
    const b = await sandbox.fastQuotation(request('AB123CD'), ctx);
    expect(a).toEqual(b);
    const young = await sandbox.fastQuotation({ ...request('AB123CD'), fastFlowData: { ...request('AB123CD').fastFlowData, bonusMalus: 14 } }, ctx);
    expect(young.simulation.quotation.totalPrice!).toBeGreaterThan(a.simulation.quotation.totalPrice!);
  });
});
