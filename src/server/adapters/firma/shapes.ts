// Every request and response of the e-signature provider's HTTP API, in one place (FIRMA_URL, FIRMA_API_KEY).
import type { EsitoFirma, RichiestaFirma, StatoFirma } from './types.ts';

/** POST {FIRMA_URL}/signature_requests  (headers: Authorization: Bearer {FIRMA_API_KEY}, Idempotency-Key: {chiave}) */
export interface CreateSignatureRequestBody {
  external_id: string;
  mode: 'otp' | 'manual';
  signer: { full_name: string; email: string; phone: string | null };
  documents: Array<{ name: string; content_type: string; content_base64: string }>;
  callback_url?: string;
}

/** Answer of create and of GET {FIRMA_URL}/signature_requests/{id}. */
export interface SignatureRequestResponse {
  id: string;
  status: 'draft' | 'ongoing' | 'done' | 'refused' | 'expired';
  reason?: string | null;
}

/** Error answer (4xx): message and a list of errors. */
export interface SignatureErrorResponse {
  message: string;
  errors?: string[];
}

/** GET {FIRMA_URL}/signature_requests/{id}/signed_document answers application/pdf. */
export const SIGNED_DOCUMENT_PATH = (id: string) => `/signature_requests/${encodeURIComponent(id)}/signed_document`;

/** POST {APP_URL}/api/firma/callback from the provider (header X-Firma-Secret: {FIRMA_CALLBACK_SECRET}). */
export interface SignatureCallbackBody {
  id: string;
  status: SignatureRequestResponse['status'];
}

export function toCreateBody(r: RichiestaFirma, callbackUrl?: string): CreateSignatureRequestBody {
  return {
    external_id: r.chiave,
    mode: r.modalita,
    signer: { full_name: r.firmatario.nome, email: r.firmatario.email, phone: r.firmatario.telefono },
    documents: r.documenti.map((d) => ({ name: d.nome, content_type: d.mime, content_base64: d.contenuto.toString('base64') })),
    ...(callbackUrl ? { callback_url: callbackUrl } : {}),
  };
}

const STATI: StatoFirma[] = ['draft', 'ongoing', 'done', 'refused', 'expired'];

export function fromResponse(body: unknown): EsitoFirma {
  const r = body as Partial<SignatureRequestResponse>;
  if (!r || typeof r.id !== 'string' || !STATI.includes(r.status as StatoFirma)) throw new Error('risposta del servizio di firma non riconosciuta');
  return { id: r.id, stato: r.status as StatoFirma, ...(r.reason ? { motivo: r.reason } : {}) };
}
