// The motor insurer over HTTP, configured by the configuration (MOTOR_INSURER_URL, MOTOR_INSURER_TOKEN, MOTOR_INSURER_TIMEOUT_MS).
import {
  InsurerError, type CallContext, type FastQuotationRequest, type MotorInsurer, type ProposalRequest, type ProposalResponse,
  type SimulationResponse,
} from './shapes.ts';
import type { Config } from '../../config.ts';

export interface HttpMotorConfig {
  baseUrl: string;
  token?: string;
  timeoutMs: number;
}

export type MotorConfig = Pick<Config, 'MOTOR_INSURER_ADAPTER' | 'MOTOR_INSURER_URL' | 'MOTOR_INSURER_TOKEN' | 'MOTOR_INSURER_TIMEOUT_MS'>;

/** The HTTP client's settings from the configuration (loadConfig requires the URL with http). */
export function httpMotorConfig(config: MotorConfig): HttpMotorConfig {
  return { baseUrl: config.MOTOR_INSURER_URL!.replace(/\/$/, ''), token: config.MOTOR_INSURER_TOKEN, timeoutMs: config.MOTOR_INSURER_TIMEOUT_MS };
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
