// Every request and response shape exchanged with the motor insurer of the fast quotation (spec 002 §3.5, §7.2), sandbox and HTTP alike.
import type { CoverageSel, VehicleCategory } from '../../../shared/rca/garanzie.ts';
import type { CoverageQuote, QuotationStatus, SimulationResponse } from '../../../shared/rca/simulazione.ts';

export type { CoverageQuote, QuotationStatus, SimulationResponse };

export type Gender = 'Male' | 'Female' | 'Juridic';
export type AddressType = 'PermanentResidency' | 'OtherResidency' | 'CompanyHeadquarters' | 'CompanyOther' | 'SiviSivo';
export type InsuranceSituation = 'AlreadyInsuredATR' | 'NewCustomer' | 'Other';

export interface PersonData {
  gender: Gender;
  name: string;
  surname?: string;
  birthDate?: string;
  maritalStatus?: 'Married' | 'Divorced' | 'Unknown' | 'Separated' | 'Single' | 'Engaged' | 'Widowed';
  fiscalCode?: string;
  vatNumber?: string;
}

export interface Address {
  addressType: AddressType;
  streetType: 'Via' | 'Corso' | 'Piazza' | 'Strada';
  streetName: string;
  number: string;
  /** ISTAT code of the municipality, 6 digits zero-padded. */
  cityIstat: string;
  zipCode: string;
}

export interface Contact {
  type: 'Email';
  isPrincipal?: boolean;
  value: string;
}

export interface FastQuotationRequest {
  fastFlowData: {
    vehicleCategory: VehicleCategory;
    plate: string;
    birthdate?: string;
    convention?: string;
    effectDate: string;
    bonusMalus?: number;
    insuranceSituation: InsuranceSituation;
    personData: PersonData;
  };
  coverages: CoverageSel[];
  addresses: Address[];
  contacts?: Contact[];
  privacyData?: { question1?: boolean; question2?: boolean; question3?: boolean };
}

export interface ProposalRequest {
  proposalData: { quotationNumber: string; sendMailToClient: boolean };
}

export interface ProposalResponse {
  proposalNumber: string;
  quotationNumber: string;
  status: 'Sent';
  sentAt: string;
  mailSent: boolean;
}

/** Every call carries the key the back office stored before calling: the same key gives the same answer, once. */
export interface CallContext {
  idempotencyKey: string;
  today: Date;
}

/** The insurer refused or failed: its message and the details shown under 'Dettagli' ('Errori'). */
export class InsurerError extends Error {
  constructor(message: string, readonly details: string[] = [], readonly kind: 'refused' | 'failure' | 'timeout' = 'failure') {
    super(message);
    this.name = 'InsurerError';
  }
}

export interface MotorInsurer {
  fastQuotation(request: FastQuotationRequest, ctx: CallContext): Promise<SimulationResponse>;
  proposal(request: ProposalRequest, ctx: CallContext): Promise<ProposalResponse>;
}
