// The e-signature provider over HTTP; shapes in shapes.ts. Configured by FIRMA_URL, FIRMA_API_KEY, FIRMA_TIMEOUT_MS.
import { FirmaError, type EsitoFirma, type FirmaProvider, type RichiestaFirma } from './types.ts';
import { SIGNED_DOCUMENT_PATH, fromResponse, toCreateBody, type SignatureErrorResponse } from './shapes.ts';

export class HttpFirma implements FirmaProvider {
  readonly nome = 'http';
  constructor(private readonly baseUrl: string, private readonly apiKey: string, private readonly timeoutMs = 15000, private readonly callbackUrl?: string) {}

  private async call(path: string, init: RequestInit & { idempotencyKey?: string } = {}): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(new URL(path.replace(/^\//, ''), this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`), {
        ...init,
        headers: {
          authorization: `Bearer ${this.apiKey}`,
          accept: 'application/json',
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...(init.idempotencyKey ? { 'idempotency-key': init.idempotencyKey } : {}),
        },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const timeout = (error as Error).name === 'TimeoutError';
      throw new FirmaError(timeout ? 'Il servizio di firma non ha risposto in tempo.' : 'Servizio di firma non raggiungibile.', [], true);
    }
    if (response.status >= 500) throw new FirmaError(`Errore del servizio di firma (${response.status}).`, [], true);
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as Partial<SignatureErrorResponse>;
      throw new FirmaError(body.message ?? `Richiesta di firma rifiutata (${response.status}).`, body.errors ?? []);
    }
    return response;
  }

  async invia(richiesta: RichiestaFirma): Promise<EsitoFirma> {
    const response = await this.call('/signature_requests', { method: 'POST', body: JSON.stringify(toCreateBody(richiesta, this.callbackUrl)), idempotencyKey: richiesta.chiave });
    return fromResponse(await response.json());
  }

  async stato(id: string): Promise<EsitoFirma> {
    return fromResponse(await (await this.call(`/signature_requests/${encodeURIComponent(id)}`)).json());
  }

  async documentoFirmato(id: string): Promise<Buffer> {
    return Buffer.from(await (await this.call(SIGNED_DOCUMENT_PATH(id))).arrayBuffer());
  }
}
