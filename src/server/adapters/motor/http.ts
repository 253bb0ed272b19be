// The motor insurer over HTTP, configured by environment (MOTOR_INSURER_URL, MOTOR_INSURER_TOKEN, MOTOR_INSURER_TIMEOUT_MS).
import {
  InsurerError, type CallContext, type FastQuotationRequest, type MotorInsurer, type ProposalRequest, type ProposalResponse,
  type SimulationResponse,
} from './shapes.ts';

export interface HttpMotorConfig {
  baseUrl: string;
  token?: string;
  timeoutMs: number;
}

export function httpConfigFromEnv(env: NodeJS.ProcessEnv = process.env): HttpMotorConfig {
  const baseUrl = env.MOTOR_INSURER_URL;
  if (!baseUrl) throw new Error('MOTOR_INSURER_ADAPTER=http needs MOTOR_INSURER_URL');
  return { baseUrl: baseUrl.replace(/\/$/, ''), token: env.MOTOR_INSURER_TOKEN, timeoutMs: Number(env.MOTOR_INSURER_TIMEOUT_MS ?? 15000) };
}

export class HttpMotorInsurer implements MotorInsurer {
  constructor(private readonly config: HttpMotorConfig) {}

  private async post<T>(path: string, body: unknown, ctx: CallContext): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.config.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'idempotency-key': ctx.idempotencyKey,
          ...(this.config.token ? { authorization: `Bearer ${this.config.token}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (error) {
      const timeout = (error as Error).name === 'TimeoutError';
      throw new InsurerError(
        timeout ? 'La compagnia non ha risposto in tempo. Riprova più tardi.' : 'Compagnia non raggiungibile.',
        [String((error as Error).message)],
        timeout ? 'timeout' : 'failure',
      );
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw new InsurerError('Risposta della compagnia non leggibile.', [text.slice(0, 500)]);
    }
    if (!response.ok) {
      const b = parsed as { message?: unknown; errors?: unknown };
      const details = Array.isArray(b.errors) ? b.errors.map(String) : b.errors && typeof b.errors === 'object' ? Object.values(b.errors).flat().map(String) : [];
      throw new InsurerError(typeof b.message === 'string' ? b.message : `Errore della compagnia (HTTP ${response.status}).`, details, response.status < 500 ? 'refused' : 'failure');
    }
    return parsed as T;
  }

  fastQuotation(request: FastQuotationRequest, ctx: CallContext): Promise<SimulationResponse> {
    return this.post<SimulationResponse>('/FastQuotationFlow', request, ctx);
  }

  proposal(request: ProposalRequest, ctx: CallContext): Promise<ProposalResponse> {
    return this.post<ProposalResponse>('/Proposal', request, ctx);
  }
}
